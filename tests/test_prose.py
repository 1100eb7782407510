"""`.ci/prose.py`, the check that prose cites only figures the notebook's outputs show: on a tiny synthetic notebook a
cited figure an output shows passes, one no output shows fails, the prose's rounding (and a percentage of a fraction,
a time in another unit) is accepted, and numbers that name things (Table 4.2, a version) are not figures."""
import importlib.util
import json
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location("prose", Path(__file__).parent.parent / ".ci" / "prose.py")
prose = importlib.util.module_from_spec(spec)
spec.loader.exec_module(prose)


def notebook(tmp_path: Path, md: str, out: str = "score 0.7236\n", code: str = "alpha = 0.05\nprint(score)") -> Path:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": [md]},
             {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": [code],
              "outputs": [{"output_type": "stream", "name": "stdout", "text": [out]}]}]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return path


def figures(path): return [num for _, num, _ in prose.offenders(path, records={})]


@pytest.mark.parametrize("md", ["The score is 0.7236.", "The score is 0.724.", "Score .72 at level 0.05.",
                                "About 72% of it (72.4 %).", "Table 4.2 of nbdev 2.4.14 gives 0.7."])
def test_supported(tmp_path, md): assert figures(notebook(tmp_path, md)) == []


@pytest.mark.parametrize("md,bad", [("The score is 0.725.", ["0.725"]), ("The score is .818 and 0.724.", [".818"]),
                                    ("About 73% of it.", ["73"]), ("It took 2.3 s.", ["2.3"]),
                                    ("A 3.3x speed-up, 0.7236 in Table 4.2.", ["3.3"])])
def test_unsupported(tmp_path, md, bad): assert figures(notebook(tmp_path, md)) == bad


def test_times_and_percent_outputs(tmp_path):
    path = notebook(tmp_path, "It took 46 CPU-min, a fraction 0.125 of it.", out="2760 s in all, 12.5% of it\n")
    assert figures(path) == []
    assert figures(notebook(tmp_path, "It took 47 min.", out="2760 s in all\n")) == ["47"]


def test_allow_list(tmp_path, monkeypatch):
    path = notebook(tmp_path, "The paper reports 0.91.")
    assert figures(path) == ["0.91"]
    monkeypatch.setattr(prose, "ALLOW", [("nb.ipynb", "0.91", "the paper's value, cited in prose only")])
    assert figures(path) == []
