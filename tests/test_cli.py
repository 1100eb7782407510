"""The `semisel` console script, run as a user runs it (a subprocess of the installed entry point)."""
import io
import json
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from semisel.infotheory import mutual_info

EXE = shutil.which("semisel")


def run(*args, cwd=None):
    cmd = [EXE, *args] if EXE else [sys.executable, "-c", "import sys; from semisel.cli import main; sys.exit(main())", *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=120)


def test_entry_point_is_installed():
    assert EXE is not None, "the `semisel` console script is not on PATH: is the package installed?"


def test_mi_on_bundled_dataset_matches_library(tmp_path):
    out = run("mi", "spambase", "--top", "3", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    rows, meta = doc["rows"], doc["metadata"]
    assert len(rows) == 3 and rows[0]["mi"] >= rows[1]["mi"] >= rows[2]["mi"]
    assert meta["test"] == "g-adf" and meta["data"].startswith("spambase: 4601 rows")
    # g-adf rescales G = 2 n MI by nu / E0[G] <= 1 per stratum, so the statistic never exceeds the plain G
    assert 0 < rows[0]["statistic"] <= 2 * 4601 * rows[0]["mi"] * (1 + 1e-9)
    plain = json.loads(run("mi", "spambase", "--top", "3", "--json", "--test", "g", cwd=tmp_path).stdout)["rows"]
    assert plain[0]["statistic"] == pytest.approx(2 * 4601 * plain[0]["mi"])


def test_mi_on_csv_with_unlabelled_rows(tmp_path):
    rng = np.random.default_rng(1)
    n = 400
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.8, y, 1 - y)  # strongly dependent
    b = rng.integers(0, 3, n)                     # independent
    label = pd.Series(y.astype(float))
    label[rng.random(n) < 0.5] = np.nan           # half unlabelled (empty field)
    pd.DataFrame({"a": a, "b": b, "outcome": label}).to_csv(tmp_path / "d.csv", index=False)
    out = run("mi", str(tmp_path / "d.csv"), "--label", "outcome", "--csv")
    assert out.returncode == 0, out.stderr
    table = pd.read_csv(io.StringIO(out.stdout), comment="#")
    assert list(table.feature) == ["a", "b"]
    lab = label.notna().to_numpy()
    assert table.mi[0] == pytest.approx(mutual_info(a[lab], y[lab]), abs=1e-5)


@pytest.mark.parametrize("args, message", [
    (["nosuchfile.csv"], "neither a file nor a bundled dataset"),
    (["spambase", "--label", "nope"], "no label column"),
])
def test_errors_are_clear(args, message):
    out = run("mi", *args)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_non_binary_label_and_empty_file(tmp_path):
    pd.DataFrame({"a": [0, 1, 2], "class": ["x", "y", "z"]}).to_csv(tmp_path / "m.csv", index=False)
    out = run("mi", str(tmp_path / "m.csv"))
    assert out.returncode == 2 and "--positive" in out.stderr
    (tmp_path / "e.csv").write_text("")
    out = run("mi", str(tmp_path / "e.csv"))
    assert out.returncode == 2 and "empty" in out.stderr


def test_rank_csv_with_unlabelled_rows_matches_library(tmp_path):
    from semisel.ranking import semi_select
    rng = np.random.default_rng(2)
    n = 600
    y = rng.integers(0, 2, n)
    X = pd.DataFrame({"strong": np.where(rng.random(n) < 0.9, y, 1 - y), "weak": np.where(rng.random(n) < 0.6, y, 1 - y),
                      "noise": rng.integers(0, 4, n)})
    yp = np.where(rng.random(n) < 0.3, y, -1)
    X.assign(label=yp).to_csv(tmp_path / "d.csv", index=False)
    out = run("rank", str(tmp_path / "d.csv"), "--label", "label", "--prior", "0.5", "-k", "3", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    expected = semi_select(X, yp, "jmi", 3, 0.5)
    assert [r["feature"] for r in doc["rows"]] == list(expected.names) and doc["rows"][0]["feature"] == "strong"
    assert doc["metadata"]["surrogate"] == expected.surrogate


def test_mb_on_network_sample_prints_truth_and_scores():
    out = run("mb", "asia", "--target", "bronc", "--rows", "3000", "--mcar", "0.5", "--prior", "0.45")
    assert out.returncode == 0, out.stderr
    assert "# true blanket: dysp, either, smoke" in out.stdout and "# F: " in out.stdout and "Traceback" not in out.stderr


def test_version_and_datasets():
    import semisel
    out = run("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"semisel {semisel.__version__}"
    out = run("datasets", "--csv")
    table = pd.read_csv(io.StringIO(out.stdout))
    assert out.returncode == 0 and {"spambase", "alarm"} <= set(table.name)


def test_usage_error_is_one_line():
    out = run("rank", "spambase", "--pu", "0.2", "--mcar", "0.2")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().splitlines() == ["semisel rank: error: argument --mcar: not allowed with argument --pu "
                                               "(see semisel rank -h)"]


def test_closed_pipe_is_quiet(tmp_path):
    """`semisel mi wide.csv | head -1`: the reader leaves while more output than a pipe holds (64 KiB) is still to
    come; no BrokenPipeError traceback, exit status 0."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 3, (200, 3000)), columns=[f"feature_{j}" for j in range(3000)])
    X.assign(label=rng.integers(0, 2, 200)).to_csv(tmp_path / "wide.csv", index=False)
    cmd = [EXE or "semisel", "mi", str(tmp_path / "wide.csv"), "--label", "label", "--quiet"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0 and "Traceback" not in err and "BrokenPipe" not in err, err
