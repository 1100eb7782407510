"""Slow cells run headless (nbclient, as `jupyter nbconvert --execute` and papermill run notebooks): a skipped slow cell
shows its record from the repository's results folder and never rewrites it; a slow cell run on request (SEMISEL_SLOW=1)
writes its record; the notebook file itself is not touched by executing it."""
import json
import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from semisel._slowcells import SLOW_NOTE, cell_key, write_record  # noqa: E402

SLOW = "#| slow\nprint('the full-scale run')\nsum(range(10))"
NEW = "#| slow\nprint('a run on request')"


def tiny_notebook(path: Path) -> Path:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("%load_ext semisel._slowcells"),
        nbformat.v4.new_code_cell(SLOW),
        nbformat.v4.new_code_cell(NEW),
        nbformat.v4.new_code_cell("print('an ordinary cell')")])
    nbformat.write(nb, path)
    return path


def execute(path: Path, results: Path, slow: bool):
    env = {RESULTS: str(results), "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[1]),
                                                                            os.environ.get("PYTHONPATH")]))}
    old = {k: os.environ.get(k) for k in (*env, "SEMISEL_SLOW")}
    os.environ.update(env)
    os.environ.pop("SEMISEL_SLOW", None)
    if slow: os.environ["SEMISEL_SLOW"] = "1"
    try:                                               # the kernel inherits this process's environment
        nb = nbformat.read(path, as_version=4)
        nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        for k, v in old.items():
            if v is None: os.environ.pop(k, None)
            else: os.environ[k] = v
    return nb


RESULTS = "SEMISEL_RESULTS"


def texts(cell) -> str:
    return "".join(o.get("text", "") or "".join(o.get("data", {}).get("text/plain", "")) for o in cell.outputs)


def test_skipped_slow_cell_shows_its_record_headless(tmp_path):
    results = tmp_path / "results"
    record = write_record(SLOW, [{"output_type": "stream", "name": "stdout", "text": "recorded: 0.97\n"},
                                 {"output_type": "execute_result", "execution_count": 3, "metadata": {},
                                  "data": {"text/plain": "45"}}], folder=results)
    stored = record.read_bytes()
    path = tiny_notebook(tmp_path / "tiny.ipynb")
    before = path.read_bytes()
    nb = execute(path, results, slow=False)
    slow, new, plain = nb.cells[1], nb.cells[2], nb.cells[3]
    assert texts(slow) == f"{SLOW_NOTE} (stored output below)\nrecorded: 0.97\n45"    # the record, not a run
    assert "the full-scale run" not in texts(slow)
    assert texts(new) == f"{SLOW_NOTE} (no stored output found)\n"                   # no record: nothing run
    assert texts(plain) == "an ordinary cell\n"
    assert record.read_bytes() == stored and sorted(results.iterdir()) == [record]   # the record never rewritten
    assert path.read_bytes() == before                                               # nor the notebook file


def test_slow_cell_run_on_request_writes_its_record(tmp_path):
    results = tmp_path / "results"
    path = tiny_notebook(tmp_path / "tiny.ipynb")
    nb = execute(path, results, slow=True)
    assert "the full-scale run" in texts(nb.cells[1]) and "a run on request" in texts(nb.cells[2])
    rec = json.loads((results / f"{cell_key(SLOW)}.json").read_text())
    assert rec["outputs"] == [{"output_type": "stream", "name": "stdout", "text": ["the full-scale run\n"]},
                              {"output_type": "display_data", "data": {"text/plain": ["45"]}, "metadata": {}}]
    assert "".join(rec["source"]) == SLOW
    nb = execute(path, results, slow=False)                                          # then headless, skipped
    assert texts(nb.cells[1]) == f"{SLOW_NOTE} (stored output below)\nthe full-scale run\n45"
