"""The `semisel` console script, run as a user runs it (a subprocess of the installed entry point)."""
import io
import json
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from semisel.datasets import discretize, load_dataset
from semisel.iamb import DEFAULT_BLANKET_TEST
from semisel.infotheory import ci_test_all, mutual_info

EXE = shutil.which("semisel")


def run(*args, cwd=None):
    cmd = [EXE, *args] if EXE else [sys.executable, "-c", "import sys; from semisel.cli import main; sys.exit(main())", *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=120)


def test_entry_point_is_installed():
    assert EXE is not None, "the `semisel` console script is not on PATH: is the package installed?"


def test_mi_on_bundled_dataset_matches_library(tmp_path):
    out = run("mi", "spambase", "--top", "3", "--json", "--bins", "5", cwd=tmp_path)     # the binned path
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    rows, meta = doc["rows"], doc["metadata"]
    assert len(rows) == 3 and rows[0]["score"] >= rows[1]["score"] >= rows[2]["score"]
    assert [r["position"] for r in rows] == [1, 2, 3] and meta["score"] == "I(X;Y) (nats)"
    assert meta["test"] == DEFAULT_BLANKET_TEST and meta["data"].startswith("spambase: 4601 rows")   # 04b's default
    X, y = load_dataset("spambase")                                 # the statistic is the library's on the same bins
    top = discretize(X[[rows[0]["feature"]]], bins=5)
    ref = ci_test_all(top, np.asarray(y), None, DEFAULT_BLANKET_TEST)
    assert rows[0]["statistic"] == pytest.approx(ref.statistic[0], rel=1e-6)
    plain = json.loads(run("mi", "spambase", "--top", "3", "--json", "--test", "g", "--bins", "5", cwd=tmp_path).stdout)["rows"]
    assert plain[0]["statistic"] == pytest.approx(2 * 4601 * plain[0]["score"])


def test_mi_reads_float_columns_as_the_rankers(tmp_path):
    """Issue 40: without --bins the float columns of spambase are read as the rankers read them (`AUTO_FLOATS`,
    chapter 05c: 5 equal-width bins, counted), said in a note, and its integer columns are coded exactly, as `semisel
    rank` codes them: the scores are `mutual_info` of those codes, the test the blanket learners' default for codes; a
    test of continuous data (ns-mi-cg) reads the floats as continuous, with the library's kNN estimate (chapter 01c, the
    rankers' neighbours, the jitter's seed 0)."""
    from semisel.continuous import MixedData
    from semisel.datasets import discretize, load_dataset
    from semisel.infotheory import mutual_info
    from semisel.knn import knn_mutual_info_all
    from semisel.ranking import AUTO_BINS, AUTO_FLOATS, KNN_NEIGHBORS
    assert AUTO_FLOATS == "counts"                                  # the rule's winner; a change of it changes this test
    out = run("mi", "spambase", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    X, y = load_dataset("spambase")
    floats = [c for c, t in X.dtypes.items() if t.kind == "f"]
    ints = [c for c in X.columns if c not in floats]
    codes = X.copy()
    exact = lambda F: discretize(F, bins=int(F.nunique().max()))              # every value a code of its own
    codes[floats], codes[ints] = discretize(X[floats], bins=AUTO_BINS), exact(X[ints])
    got = {r["feature"]: r["score"] for r in doc["rows"]}
    assert np.allclose([got[c] for c in X.columns], [mutual_info(codes[c], y) for c in X.columns], rtol=0, atol=1e-12)
    assert doc["metadata"]["test"] == DEFAULT_BLANKET_TEST and f"binned into {AUTO_BINS} equal-width bins and counted" in out.stderr
    assert json.loads(run("mi", "spambase", "--json", "--test", "g", cwd=tmp_path).stdout)["metadata"]["test"] == "g"
    knn = run("mi", "spambase", "--json", "--test", "ns-mi-cg", cwd=tmp_path)
    assert knn.returncode == 0 and "binned" not in knn.stderr, knn.stderr
    X[ints] = exact(X[ints])
    ref = knn_mutual_info_all(MixedData(X, jitter=1e-10), np.asarray(y), n_neighbors=KNN_NEIGHBORS)
    got = {r["feature"]: r["score"] for r in json.loads(knn.stdout)["rows"]}
    assert np.allclose([got[c] for c in X.columns], ref, rtol=0, atol=1e-9)


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
    assert table.score[0] == pytest.approx(mutual_info(a[lab], y[lab]), abs=1e-5)


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
    out = run("rank", str(tmp_path / "d.csv"), "--label", "label", "--method", "semi", "--prior", "0.5", "-k", "3", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    expected = semi_select(X, yp, "jmi", 3, 0.5, surrogate="auto", adjusted=False)    # --method semi: Algorithm 3, plain MI
    assert [r["feature"] for r in doc["rows"]] == expected.to_frame().feature.tolist() and doc["rows"][0]["feature"] == "strong"
    assert doc["metadata"]["surrogate"] == expected.surrogate


def test_rank_float_csv_follows_library(tmp_path):
    """Issue 40: `semisel rank` on a CSV of floats, with no extra flag, ranks as the library does on the same table (float
    columns read by the rankers' AUTO_FLOATS, chosen held out in chapter 05c): the same features, order and scores as
    SurrogateSelector's defaults, with a note saying how the floats were read; --bins 3 is the library on
    `discretize(X, 3)`, and differs."""
    from semisel.core import selection_table
    from semisel.datasets import discretize, load_dataset
    from semisel.ranking import AUTO_BINS, AUTO_FLOATS, SurrogateSelector
    from semisel.surrogates import mcar
    X, y = load_dataset("waveform")
    X, y = X.iloc[:1200], np.asarray(y)[:1200]
    yp = mcar(y, 0.3, random_state=0)
    X.assign(label=pd.Series(yp).astype(object).where(yp >= 0, "")).to_csv(tmp_path / "w.csv", index=False)
    out = run("rank", str(tmp_path / "w.csv"), "--label", "label", "-k", "6", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    lib = selection_table(SurrogateSelector(k=6).fit(pd.read_csv(tmp_path / "w.csv").drop(columns="label"), yp))
    assert [r["feature"] for r in doc["rows"]] == lib.feature.tolist()
    assert np.allclose([r["score"] for r in doc["rows"]], lib.score, rtol=0, atol=1e-9)
    assert (f"binned into {AUTO_BINS} equal-width bins and counted" in out.stderr) == (AUTO_FLOATS == "counts")
    if AUTO_FLOATS == "counts":      # the library's default on floats: the same as binning them first
        first = selection_table(SurrogateSelector(k=6).fit(discretize(X, AUTO_BINS), yp))
        assert first.feature.tolist() == lib.feature.tolist() and np.allclose(first.score, lib.score, rtol=0, atol=1e-12)
    binned = json.loads(run("rank", str(tmp_path / "w.csv"), "--label", "label", "-k", "6", "--json", "--bins", "3",
                            cwd=tmp_path).stdout)
    old = selection_table(SurrogateSelector(k=6).fit(discretize(X, 3), yp))
    assert [r["feature"] for r in binned["rows"]] == old.feature.tolist()
    assert [r["score"] for r in binned["rows"]] != [r["score"] for r in doc["rows"]]


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


def _in_process(*argv):
    "The CLI run in this process (no interpreter start-up per case): (exit status, stdout, stderr)."
    from contextlib import redirect_stderr, redirect_stdout
    from semisel.cli import main
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as e:
            status = e.code
    return status, out.getvalue(), err.getvalue()


def _bad_inputs(tmp):
    "Every kind of bad input a newcomer gave the CLI (issue 27), as argument lists."
    (tmp / "shifted.csv").write_text("a,b,class\n1,2,1,9\n3,4,0,9\n")
    (tmp / "short.csv").write_text("a,b,class\n1,2,1\n3,4\n")
    (tmp / "dup.csv").write_text("a,class,class\n1,2,1\n2,1,0\n")
    (tmp / "one.csv").write_text("a,b,class\n" + "".join(f"{i % 3},{i % 2},1\n" for i in range(30)))
    (tmp / "empty.csv").write_text("")
    (tmp / "header.csv").write_text("a,class\n")
    (tmp / "joined.csv").write_text("a,b,class\n1,2,1\n0,1,0\na,b,class\n1,1,1\n0,0,0\n")
    (tmp / "latin.csv").write_bytes("a,b,class\n1,\xe9,1\n0,2,0\n".encode("latin-1"))
    pd.DataFrame({"a": [1, 2, 1, 2], "y": ["b", "g", "b", "g"]}).to_csv(tmp / "str.csv", index=False)
    pd.DataFrame({"a": [0, 1] * 10, "label": [1, 0, 2, 1] * 5}).to_csv(tmp / "three.csv", index=False)
    pd.DataFrame({"a": [0.5, np.nan] * 10, "class": [1, 0, -1, -1] * 5}).to_csv(tmp / "holes.csv", index=False)
    part = tmp / "partial.csv"
    pd.DataFrame({"a": [0, 1] * 20, "class": [1, 0, -1, -1] * 10}).to_csv(part, index=False)
    return [("mi", "nosuchfile.csv"), ("mi", str(tmp)), ("mi", str(tmp / "shifted.csv")), ("rank", str(tmp / "short.csv")),
            ("mb", str(tmp / "dup.csv")), ("rank", str(tmp / "one.csv")), ("mb", str(tmp / "one.csv")),
            ("mi", str(tmp / "one.csv")), ("mi", str(tmp / "empty.csv")), ("mi", str(tmp / "header.csv")),
            ("mi", str(tmp / "joined.csv")), ("mi", str(tmp / "latin.csv")), ("mi", str(tmp / "str.csv"), "--label", "y"),
            ("mi", str(tmp / "str.csv"), "--label", "y", "--positive", "nope"),
            ("mi", str(tmp / "three.csv"), "--label", "label"), ("mi", "spambase", "--label", "nolabel"),
            ("mi", "adult"), ("mi", "spambase", "--bins", "1"), ("mi", "spambase", "--pu", "0.3"),
            ("mi", "spambase", "--n-perm", "99", "--bins", "5"), ("mi", "spambase", "--top", "-2"), ("mi", "spambase", "--test", "nope"),
            ("rank", "spambase", "--mcar", "0.3", "--method", "semi"), ("rank", "spambase", "--mcar", "0.3", "--method", "Y0", "--prior", "5"),
            ("rank", "spambase", "--mcar", "0.3", "--method", "listwise", "--prior", "5"),
            ("rank", "spambase", "--marc", "0.25", "1.5"), ("rank", "spambase", "--mcar", "1.5"), ("rank", "spambase", "--pu", "0"),
            ("rank", str(part), "--pu", "0.3"), ("rank", "ionosphere", "--mcar", "0.3", "--method", "fscpu"),
            ("rank", "spambase", "--criterion", "nope", "--mcar", "0.3", "--prior", "0.4"),
            ("rank", "spambase", "--method", "fscpu", "--adjusted", "--pu", "0.3"),
            ("rank", "spambase", "--method", "mint", "--criterion", "jmi", "--mcar", "0.3"),
            ("rank", str(tmp / "holes.csv"), "--method", "rrpc"), ("rank", str(tmp / "holes.csv"), "--prior", "0.5"),
            ("rank", str(part), "--scheduler", "tcp://127.0.0.1:9"), ("rank", "spambase", "-k", "0"),
            ("rank", "spambase", "--pu", "0.2", "--mcar", "0.2"), ("mb", "alarm"), ("mb", "alarm", "--target", "NOPE"),
            ("mb", "spambase", "--target", "x"), ("mb", "alarm", "--target", "STROKEVOLUME", "--rows", "500", "--alpha", "2"),
            ("mb", "alarm", "--target", "CO", "--rows", "0"), ("mb", str(part), "--method", "listwise", "--prior", "2")]


def test_every_error_speaks_the_command_line(tmp_path):
    """Issue 27 item 5: each error the CLI prints on bad input is one line with exit status 2, names flags rather than
    Python names (no `name`, no keyword=value, no snake_case or CamelCase identifier outside quotes), no traceback."""
    import re
    python_name = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")     # snake_case: an argument or a function
    class_name = re.compile(r"\b[A-Z]\w*[a-z][A-Z][a-z]\w*")              # CamelCase: a Python class
    for argv in _bad_inputs(tmp_path):
        status, out, err = _in_process(*argv)
        assert (status, out) == (2, ""), (argv, status, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and re.match(r"semisel( \w+)?: error: ", lines[0]), (argv, err)
        unquoted = re.sub(r"'[^']*'", "''", lines[0].replace(str(tmp_path), "DIR"))
        assert "`" not in err and not re.search(r"\b[a-z_]{2,}=", unquoted), (argv, err)
        assert set(python_name.findall(unquoted)) <= {"own_bin"} and not class_name.search(unquoted), (argv, err)


def test_version_and_help_load_no_scientific_stack():
    """Issue 27 item 8: `semisel --version` and `--help` parse the arguments before numpy, pandas, scipy or scikit-learn
    load (they answered in 3 s, now in about 0.1 s)."""
    code = ("import sys\nfrom semisel.cli import main\nfor argv in (['--version'], ['--help'], ['rank', '--help']):\n"
            "    try: main(argv)\n    except SystemExit: pass\n"
            "print(sorted(m for m in ('numpy', 'pandas', 'scipy', 'sklearn') if m in sys.modules), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stderr.strip().splitlines()[-1] == "[]", out.stderr


@pytest.mark.parametrize("argv", [["datasets"], ["datasets", "--json"], ["mi", "-h"], ["mb", "-h"]])
def test_listing_and_registry_help_load_no_scipy_or_sklearn(argv):
    """Issue 27 item 8: `semisel datasets` lists cached facts with numpy and pandas only (it loaded scikit-learn through
    semisel.core: 4 s of CPU), and `mi -h` / `mb -h` print the registries of tests and learners from the command's own
    facts, without loading them."""
    code = (f"import sys\nfrom semisel.cli import main\ntry: main({argv!r})\nexcept SystemExit: pass\n"
            "print(sorted(m for m in ('scipy', 'sklearn') if m in sys.modules), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stderr.strip().splitlines()[-1] == "[]", out.stderr


def test_parquet_needs_no_extra():
    "Issue 27 item 7: Parquet input works with the plain install: pyarrow is a requirement, not an extra's."
    from configparser import ConfigParser
    from pathlib import Path
    ini = ConfigParser()
    ini.read(Path(__file__).parents[1] / "settings.ini")
    assert any(r.startswith("pyarrow") for r in ini["DEFAULT"]["requirements"].split())


def _on_terminal(*args) -> tuple[int, str, str]:
    "Run the console script with stderr on a pseudo-terminal (as a person at a shell sees it): status, stdout, stderr."
    import fcntl
    import os
    import pty
    import struct
    import termios
    cmd = [EXE, *args] if EXE else [sys.executable, "-c", "import sys; from semisel.cli import main; sys.exit(main())", *args]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))   # a new pty is 0 columns wide
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    err = b""
    while True:
        try: chunk = os.read(master, 4096)
        except OSError: break                       # the child closed the terminal
        if not chunk: break
        err += chunk
    os.close(master)
    out = p.communicate(timeout=120)[0]
    return p.returncode, out.decode(), err.decode(errors="replace")


@pytest.mark.parametrize("args, bar", [
    (("mb", "alarm", "--target", "STROKEVOLUME", "--rows", "2000", "--mcar", "0.3", "--method", "pairwise"), "IAMB grow"),
    (("rank", "ionosphere", "--mcar", "0.3", "--method", "fw-semifs", "-k", "2"), "FW-SemiFS runs"),
    (("rank", "ionosphere", "--pu", "0.3", "--method", "fscpu", "-k", "3", "--iterations", "30"), "FSCPU steps")])
def test_progress_on_a_terminal_only(args, bar):
    """Issue 27 point 6: the long runs (Pairwise-IAMB, FW-SemiFS, the wrappers) show steps done on a terminal; a file or
    a pipe gets the same table and a clean stderr; --quiet silences the bar on a terminal too."""
    status, out, err = _on_terminal(*args)
    assert status == 0 and bar in err, err
    piped = run(*args)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, out, "")
    assert bar not in _on_terminal(*args, "--quiet")[2]


@pytest.mark.parametrize("test", [None, "mi-cg"])
def test_mb_runs_the_learner_and_level_markov_blanket_runs(tmp_path, test):
    """`semisel mb` reports the learner and level that ran, and they are `markov_blanket`'s on the same table and test:
    a continuous test on integer columns gets the continuous defaults in both (the command once chose the learner on
    the table before the test was known: HPC where the library ran MMPC)."""
    from semisel.iamb import markov_blanket
    from semisel.networks import network, sample_network
    D = sample_network(network("asia"), 800, random_state=0)
    X, y = D.drop(columns="bronc"), (D.bronc.to_numpy() == 0).astype(int)
    X.assign(**{"class": y}).to_csv(tmp_path / "asia.csv", index=False)
    out = run("mb", str(tmp_path / "asia.csv"), "--json", *([] if test is None else ["--test", test]), cwd=tmp_path)
    meta = json.loads(out.stdout)["metadata"]
    res = markov_blanket(X, y, test=test)
    assert (meta["algorithm"], meta["alpha"]) == (res.algorithm, res.alpha)
    assert (res.algorithm, res.alpha) == (("hpc", 0.05) if test is None else ("mmpc", 0.01))
