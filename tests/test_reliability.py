"""Reliability on installs and inputs nobody prepared (issue 42): read-only installs, the kernels run as Python,
hostile and broken compile caches, text labels, pandas labels in another order, wide headers, streams, compressed
and foreign files, interruptions. Each case runs as a user meets it: a fresh process (the package as imported here,
so that `PYTHONPATH=<other checkout> pytest ...` checks that one), the command line as a subprocess."""
import bz2
import gzip
import json
import lzma
import os
import pickle
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import semisel

PACKAGE = Path(semisel.__file__).resolve().parent            # the package under test (its folder holds `semisel`)
EXE = shutil.which("semisel")


def python(code: str, env: dict | None = None, user: bool = False, timeout: int = 300, cwd=None):
    """Run `code` in a fresh Python that imports the package under test, with `env` (None: unset); `user`: as an
    unprivileged user when this runs as root (root writes through any permission: read-only is not, to it)."""
    env = {k: v for k, v in {**os.environ, "PYTHONPATH": str(PACKAGE.parent), **(env or {})}.items() if v is not None}
    cmd = [sys.executable, "-c", code]
    if user and os.geteuid() == 0:
        cmd = [shutil.which("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + cmd
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, cwd=cwd or tempfile.gettempdir())


def command(*args) -> list:
    "The `semisel` command line for `args` (the console script, or its entry point when it is not on PATH)."
    return [EXE, *args] if EXE else [sys.executable, "-c", "import sys; from semisel.cli import main; sys.exit(main())", *args]


def cli(*args, cwd=None, env=None, timeout=300, **kwargs):
    "The `semisel` command on `args`, as a user runs it."
    cmd = command(*args)
    env = {k: v for k, v in {**os.environ, "PYTHONPATH": str(PACKAGE.parent), **(env or {})}.items() if v is not None}
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=timeout, env=env, **kwargs)


@pytest.fixture
def shared_tmp():
    "A temporary folder every user can enter (pytest's own are private to root, which the unprivileged user cannot)."
    path = Path(tempfile.mkdtemp(prefix="semisel_rel"))
    path.chmod(0o755)
    yield path
    for p in path.rglob("*"):                                 # make everything removable again
        if p.is_dir() and not p.is_symlink(): p.chmod(0o755)
    shutil.rmtree(path, ignore_errors=True)


def read_only(path: Path) -> None:
    "Make a folder tree read-only for everyone (files 0444, folders 0555)."
    for p in sorted(path.rglob("*"), reverse=True):
        p.chmod(0o555 if p.is_dir() else 0o444)
    path.chmod(0o555)


def needs_unprivileged_user():
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: read-only folders cannot be made read-only to root")
    probe = python("import numpy, scipy, numba", user=True)
    if probe.returncode != 0:                                 # e.g. a venv inside a folder private to root
        pytest.skip(f"the unprivileged user cannot import this interpreter's packages ({sys.executable}): "
                    f"{probe.stderr.strip().splitlines()[-1]}")


BLANKET_RUN = """
import json, numpy as np
from semisel.networks import network_dataset
from semisel.iamb import markov_blanket
X, y = network_dataset("asia", "bronc", 2000, random_state=0)
yp = np.where(np.arange(2000) % 2 == 0, y, -1)
found = {t: markov_blanket(X, yp, prior=0.45, test=t).selected for t in ("g-adf", "mi", "adf")}
print(json.dumps(found))
"""


# --- items 1-3: where compiled code lives ------------------------------------------------------------------------

def test_read_only_install_and_home(shared_tmp):
    """A system-wide install: the package folder, HOME and NUMBA_CACHE_DIR are read-only to the user. Importing and
    learning work (the kernels compiled in memory), as do `semisel mb` and `semisel mi`, with the same blankets."""
    needs_unprivileged_user()
    pkg = shared_tmp / "site"
    shutil.copytree(PACKAGE, pkg / "semisel", ignore=shutil.ignore_patterns("__pycache__"))
    home, cache = shared_tmp / "home", shared_tmp / "numba"
    home.mkdir()
    cache.mkdir()
    for folder in (pkg, home, cache): read_only(folder)
    expected = python(BLANKET_RUN)
    assert expected.returncode == 0, expected.stderr
    for numba_cache in (None, str(cache)):                     # NUMBA_CACHE_DIR unset, then set to a read-only folder
        env = {"PYTHONPATH": str(pkg), "HOME": str(home), "XDG_CACHE_HOME": None, "NUMBA_CACHE_DIR": numba_cache}
        out = python(BLANKET_RUN, env, user=True, cwd=home)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == json.loads(expected.stdout)
        for argv in (["mb", "asia", "--target", "bronc", "--rows", "1000", "--pu", "0.3"], ["mi", "spambase", "--top", "2"]):
            run = python(f"import sys; from semisel.cli import main; sys.exit(main({argv!r}))", env, user=True, cwd=home)
            assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert not list(pkg.rglob("*.nbi")) and not list(home.rglob("*.nbi"))   # nothing was written anywhere


def test_python_path_counts_exactly(shared_tmp):
    """NUMBA_DISABLE_JIT=1 runs the kernels as Python: the same tables (codes whose joint index passes 255, where
    uint8 arithmetic would wrap around) and the same blankets (gs and hpc on alarm) as the compiled kernels."""
    code = """
import json, numpy as np
from semisel.core import tables_of_tests
from semisel.infotheory import bn_g_tests
from semisel.networks import network_dataset
from semisel.iamb import markov_blanket
rng = np.random.default_rng(0)
D = rng.integers(0, 4, (4, 3000)).astype(np.uint8)
Z = np.stack([np.zeros(3000, np.int64), rng.integers(0, 200, 3000)])
tests, levels = [(0, 1, 1), (2, 3, 1), (1, 2, 0)], [(4, 4, 200)] * 2 + [(4, 4, 1)]
G, df = bn_g_tests(D, tests, Z, levels)
out = {"tables": tables_of_tests(D, tests, Z, levels).tolist(), "G": G.tolist(), "dof": df.tolist()}
for target, alg in (("TPR", "gs"), ("CO", "hpc")):
    X, y = network_dataset("alarm", target, 2000, random_state=0)
    out[f"{target}-{alg}"] = markov_blanket(X, y.to_numpy(), algorithm=alg).selected
print(json.dumps(out))
"""
    compiled = python(code)
    plain = python(code, {"NUMBA_DISABLE_JIT": "1"})
    assert compiled.returncode == 0 and plain.returncode == 0, compiled.stderr + plain.stderr
    a, b = json.loads(compiled.stdout), json.loads(plain.stdout)
    assert a["tables"] == b["tables"] and a["dof"] == b["dof"]
    assert np.allclose(a["G"], b["G"], rtol=1e-12)
    assert [a[k] for k in ("TPR-gs", "CO-hpc")] == [b[k] for k in ("TPR-gs", "CO-hpc")]


def test_broken_cache_is_rebuilt(shared_tmp):
    """A cache file truncated (`: > file`, a full disk) or overwritten with junk: the next command works and gives
    the same blanket, and the one after it too (the bad files were replaced)."""
    env = {"HOME": str(shared_tmp / "home"), "NUMBA_CACHE_DIR": str(shared_tmp / "numba"), "XDG_CACHE_HOME": None}
    first = python(BLANKET_RUN, env)
    assert first.returncode == 0, first.stderr
    files = list(shared_tmp.rglob("*.nbi")) + list(shared_tmp.rglob("*.nbc"))
    assert files                                                  # the kernels were cached
    for damage in (lambda p: p.write_bytes(b""), lambda p: p.write_bytes(b"\x80\x05junk" * 50)):
        for p in shared_tmp.rglob("*.nb[ic]"): damage(p)
        for _ in range(2):
            again = python(BLANKET_RUN, env)
            assert again.returncode == 0, again.stderr
            assert json.loads(again.stdout) == json.loads(first.stdout)
        mb = cli("mb", "asia", "--target", "bronc", "--rows", "1000", "--pu", "0.3", env=env, cwd=shared_tmp)
        assert mb.returncode == 0, mb.stderr


class _Payload:
    "A pickle that runs a command when loaded: what a planted numba cache file can do."
    def __init__(self, marker: Path): self.marker = marker
    def __reduce__(self): return (os.system, (f"touch {self.marker}",))


def test_planted_cache_file_is_never_loaded(shared_tmp):
    """NUMBA_CACHE_DIR is a folder other users can write (mode 0777): a cache file planted there, where semisel's
    kernels would be looked up, must never be loaded. The layout is learnt from a run with a private folder, then
    every cache file of it is planted in the open folder as a pickle that runs a command."""
    safe, open_dir, marker = shared_tmp / "safe", shared_tmp / "open", shared_tmp / "ran"
    home = shared_tmp / "home"
    first = python(BLANKET_RUN, {"HOME": str(home), "NUMBA_CACHE_DIR": str(safe), "XDG_CACHE_HOME": None})
    assert first.returncode == 0, first.stderr
    planted = [p.relative_to(safe) for p in safe.rglob("*.nbi")]
    assert planted
    open_dir.mkdir()
    open_dir.chmod(0o777)
    for rel in planted:
        (open_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (open_dir / rel).write_bytes(pickle.dumps(_Payload(marker)))
    for p in open_dir.rglob("*"): p.chmod(0o777 if p.is_dir() else 0o666)
    run = python(BLANKET_RUN, {"HOME": str(home), "NUMBA_CACHE_DIR": str(open_dir), "XDG_CACHE_HOME": None})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == json.loads(first.stdout)
    assert not marker.exists(), "a planted cache file was loaded"


def test_kernels_are_compiled_before_the_first_call():
    """A fresh process that imports the blanket learners has its count kernels compiled (or loaded) ahead, in the
    background: by the time the user calls, no call of theirs compiles them."""
    out = python("""
import time
import semisel.iamb, semisel.core as core, semisel.infotheory as it
deadline = time.time() + 240                              # no call made: only the import's warm-up can compile them
while not (core._tally_tests.signatures and it._g_tests.signatures):
    assert time.time() < deadline, "the kernels were not compiled ahead"
    time.sleep(0.05)
print("compiled ahead")
""")
    assert out.returncode == 0 and "compiled ahead" in out.stdout, out.stderr


# --- item 4: text labels ------------------------------------------------------------------------------------------

def test_text_tokens_are_unlabelled():
    from semisel.core import partial_labels
    from semisel.ranking import SemiJMI
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (300, 4))
    y = np.where(X[:, 0] > 0, "yes", "no").astype(object)
    y[rng.random(300) < 0.5] = "?"
    with pytest.warns(UserWarning, match="holds '\\?' in"):
        labels = partial_labels(list(y), binary="auto")
    assert labels.classes.tolist() == ["no", "yes"] and labels.m == int((y == "?").sum())
    try:                                                        # never silently supervised on a third class "?"
        fitted = SemiJMI(k=1, prior=0.4).fit(X, list(y))
        assert fitted.surrogate_ != "Y"
    except ValueError as e:
        assert "unlabelled" in str(e)
    with pytest.warns(UserWarning, match="read as unlabelled"):
        assert partial_labels(np.array([1, 0, "NA", "unknown", ""], dtype=object)).counts == (1, 1, 3)


def test_cli_positive_keeps_question_marks_unlabelled(tmp_path):
    rng = np.random.default_rng(1)
    n = 200
    a = rng.integers(0, 2, n)
    label = np.where(a == 1, "yes", "no").astype(object)
    label[rng.random(n) < 0.4] = "?"
    pd.DataFrame({"a": a, "b": rng.integers(0, 3, n), "class": label}).to_csv(tmp_path / "t.csv", index=False)
    out = cli("mi", str(tmp_path / "t.csv"), "--positive", "yes", "--json")
    assert out.returncode == 0, out.stderr
    labelled = int((label != "?").sum())
    assert f"{n} rows, {labelled} labelled" in json.loads(out.stdout)["metadata"]["data"]
    assert "read as unlabelled" in out.stderr


# --- item 5: pandas labels meet the features by index --------------------------------------------------------------

def test_series_labels_are_aligned_by_index():
    from semisel.iamb import SemiIAMB
    from semisel.networks import network_dataset
    from semisel.ranking import SemiJMI
    X, y = network_dataset("asia", "bronc", 2000, random_state=0)
    X.index = X.index + 5000                                   # a frame's own index
    yp = pd.Series(np.where(np.arange(2000) % 2 == 0, y, -1), index=X.index)
    perm = np.random.default_rng(0).permutation(2000)
    for make in (lambda: SemiIAMB(prior=0.45), lambda: SemiJMI(k=3, prior=0.45)):
        right, shuffled = make().fit(X, yp), make().fit(X, yp.iloc[perm])
        assert right.ranking_.tolist() == shuffled.ranking_.tolist()
        with pytest.raises(ValueError, match="index does not match the rows of `X`"):
            make().fit(X, yp.reset_index(drop=True))


# --- items 6, 7: stray tokens, wide headers ---------------------------------------------------------------------

def test_stray_token_with_brackets_is_a_clear_error(tmp_path):
    (tmp_path / "br.csv").write_text("a,b,class\n1,2,1\n2,3,0\nN]A,1,1\n2,2,0\n1,1,\n3,1,1\n")
    out = cli("mi", "br.csv", cwd=tmp_path)
    assert out.returncode == 2 and "internal error" not in out.stderr, out.stderr
    assert "--na 'N]A'" in out.stderr
    ok = cli("mi", "br.csv", "--na", "N]A", "--nan", "own_bin", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr


def test_wide_header_is_checked_in_linear_time():
    "200,000 column names checked at once (a quadratic check takes minutes: the subprocess is stopped at 30 s)."
    out = python("""
from semisel.datasets import _check_names
names = [f"c{i}" for i in range(200_000)]
_check_names("wide.csv", names)
try: _check_names("wide.csv", names + ["c7", "c9"])
except ValueError as e: print(e)
""", timeout=30)
    assert out.returncode == 0, out.stderr
    assert "repeats the column name(s) ['c7', 'c9']" in out.stdout


# --- item 10: the command line on streams, foreign files and interruptions -----------------------------------------

def table(tmp_path: Path) -> tuple[Path, str]:
    "A small labelled CSV, and `semisel mi`'s rows on it."
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    df = pd.DataFrame({"a": np.where(rng.random(300) < 0.8, y, 1 - y), "b": rng.integers(0, 3, 300), "class": y})
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    out = cli("mi", str(path), "--json")
    assert out.returncode == 0, out.stderr
    return path, json.loads(out.stdout)["rows"]


def rows_of(out):
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["rows"]


def test_stdin_and_fifo_are_read_once(tmp_path):
    path, expected = table(tmp_path)
    assert rows_of(cli("mi", "-", "--json", input=path.read_text())) == expected
    assert rows_of(cli("mi", "/dev/stdin", "--json", input=path.read_text())) == expected
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(path.read_text()), daemon=True)
    writer.start()
    assert rows_of(cli("mi", str(fifo), "--json", timeout=60)) == expected


def test_endless_binary_stream_is_refused():
    "/dev/zero: a clear error at once, in bounded memory (the child may use 4 GiB at most: unbounded reading fails)."
    limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    out = cli("mi", "/dev/zero", timeout=120, preexec_fn=limit)
    assert out.returncode == 2 and "binary data" in out.stderr, out.stderr


def test_long_file_name_is_a_clear_error(tmp_path):
    out = cli("mi", "x" * 300, cwd=tmp_path)
    assert out.returncode == 2 and "File name too long" in out.stderr and "internal" not in out.stderr, out.stderr


def test_compressed_and_foreign_files(tmp_path):
    path, expected = table(tmp_path)
    raw = path.read_bytes()
    for suffix, compress in ((".gz", gzip.compress), (".bz2", bz2.compress), (".xz", lzma.compress)):
        (tmp_path / f"t.csv{suffix}").write_bytes(compress(raw))
        assert rows_of(cli("mi", str(tmp_path / f"t.csv{suffix}"), "--json")) == expected
    with zipfile.ZipFile(tmp_path / "t.zip", "w") as z: z.writestr("t.csv", raw)
    assert rows_of(cli("mi", str(tmp_path / "t.zip"), "--json")) == expected
    with zipfile.ZipFile(tmp_path / "t.xlsx", "w") as z: z.writestr("xl/workbook.xml", "<workbook/>")
    out = cli("mi", str(tmp_path / "t.xlsx"))
    assert out.returncode == 2 and "Excel workbook" in out.stderr, out.stderr
    (tmp_path / "t.data").write_bytes(gzip.compress(raw))           # compressed, but not named so
    out = cli("mi", str(tmp_path / "t.data"))
    assert out.returncode == 2 and "gzip-compressed" in out.stderr and ".gz" in out.stderr, out.stderr


def test_semicolon_and_tab_separated_files(tmp_path):
    path, expected = table(tmp_path)
    df = pd.read_csv(path)
    for sep, name in ((";", "semi.csv"), ("\t", "tab.tsv")):
        df.to_csv(tmp_path / name, sep=sep, index=False)
        out = cli("mi", str(tmp_path / name), "--json")
        assert rows_of(out) == expected and "separated by" in out.stderr
    df.to_csv(tmp_path / "pipe.csv", sep="|", index=False)
    assert rows_of(cli("mi", str(tmp_path / "pipe.csv"), "--sep", "|", "--json")) == expected


def test_local_file_wins_over_a_bundled_name(tmp_path):
    path, expected = table(tmp_path)
    shutil.copy(path, tmp_path / "spambase")
    out = cli("mi", "spambase", "--json", cwd=tmp_path)
    assert rows_of(out) == expected and "not the bundled dataset" in out.stderr


def test_interrupt_is_one_line_and_status_130(tmp_path):
    "Ctrl-C (SIGINT) while a command works: one line on stderr, the status 130 of a shell's interrupted command."
    proc = subprocess.Popen(command("mb", "alarm", "--target", "CO", "--rows", "2000000"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)})
    time.sleep(6)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.strip() == "semisel: interrupted", err


def test_interrupt_does_not_wait_for_busy_threads(tmp_path):
    """Ctrl-C ends the console script at once even while another thread works (a kernel compile, a count): the
    interpreter's normal shutdown would wait for it, and a handler of the work it cuts could swallow it (CI saw
    `semisel mb` outlive a 120 s timeout after SIGINT under load, in a fresh venv). Here a non-daemon thread sleeps
    300 s; the script `semisel.cli:console` must exit with 130 within 60 s."""
    code = ("import sys, threading, time\nfrom semisel.cli import console\n"
            "threading.Thread(target=time.sleep, args=(300,)).start()\n"
            "sys.argv = ['semisel', 'mb', 'alarm', '--target', 'CO', '--rows', '2000000']\nsys.exit(console())\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)})
    time.sleep(6)
    proc.send_signal(signal.SIGINT)
    try: out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill(); proc.communicate()
        raise AssertionError("the script outlived Ctrl-C by 60 s: the exit waited for a thread")
    assert proc.returncode == 130 and err.strip() == "semisel: interrupted", (proc.returncode, err)


def test_console_freezes_what_lives_and_still_collects(tmp_path):
    """The console script's collector (`semisel.cli.console`): the command's output is `main`'s; collections still run
    (the collector is on, its first threshold raised), and what lives at the end is frozen, so the interpreter's exit
    does not walk the objects numpy, pandas, scipy, scikit-learn and numba leave (half a CPU second of a small mb)."""
    code = ("import gc, io, json, sys, contextlib\nfrom semisel.cli import console, main\n"
            "args = ['mb', 'alarm', '--target', 'CO', '--rows', '500', '--quiet', '--json']\n"
            "with contextlib.redirect_stdout(io.StringIO()) as ours: sys.argv = ['semisel', *args]; status = console()\n"
            "frozen, enabled, first = gc.get_freeze_count(), gc.isenabled(), gc.get_threshold()[0]\n"
            "gc.unfreeze()\n"
            "with contextlib.redirect_stdout(io.StringIO()) as theirs: main(args)\n"
            "print(json.dumps([status, frozen, enabled, first, json.loads(ours.getvalue()) == json.loads(theirs.getvalue())]))\n")
    out = python(code, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    status, frozen, enabled, first, same = json.loads(out.stdout)
    assert (status, enabled, same) == (0, True, True)
    assert frozen > 50_000 and first > 700, (frozen, first)


def test_two_text_classes_with_unlabelled_rows_say_how_to_code_them():
    """Two text classes and '?' for unlabelled: the rankers and the blankets say which codes to use, not that the
    target has 'more classes'."""
    import warnings
    from semisel import SemiJMI, markov_blanket
    rng = np.random.default_rng(0)
    X, y = rng.integers(0, 3, (200, 4)), np.where(rng.random(200) < 0.5, "spam", "ham").astype(object)
    y[:100] = "?"
    hint = "code the positive class 1 and the other 0, e.g. y.map({'spam': 1, 'ham': 0})"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                       # '?' read as unlabelled, with a warning
        for fit in (lambda: SemiJMI(k=2).fit(X, y), lambda: markov_blanket(X, y)):
            with pytest.raises(ValueError) as e: fit()
            assert hint in str(e.value) and "\n" not in str(e.value)


# --- item 5: a pandas y meets a DataFrame X by row label ----------------------------------------------------------

def test_series_labels_are_aligned_by_row_label_everywhere():
    """The same labels as a Series in another row order give the same answer in every entry point that takes X and
    y_partial (on main before the fix, markov_blanket paired them by position and returned a noise blanket); a Series
    whose labels are not X's rows is a one-line error."""
    from semisel import SemiIAMB, SemiJMI, markov_blanket, semi_select
    from semisel.networks import network_dataset
    from semisel.priors import estimate_prior
    X, y = network_dataset("asia", "bronc", 2000, random_state=0)
    X = X.set_axis(np.arange(2000) * 7 + 3)                              # row labels that are not positions
    yp = pd.Series(np.where(np.arange(2000) % 2 == 0, y, -1), index=X.index)
    shuffled = yp.iloc[np.random.default_rng(0).permutation(2000)]
    assert markov_blanket(X, shuffled, prior=0.45).selected == markov_blanket(X, yp, prior=0.45).selected
    assert markov_blanket(X, shuffled.to_numpy(), prior=0.45).selected != markov_blanket(X, yp, prior=0.45).selected
    assert SemiIAMB(prior=0.45).fit(X, shuffled).ranking_.tolist() == SemiIAMB(prior=0.45).fit(X, yp).ranking_.tolist()
    assert SemiJMI(k=3, prior=0.45).fit(X, shuffled).ranking_.tolist() == SemiJMI(k=3, prior=0.45).fit(X, yp).ranking_.tolist()
    assert semi_select(X, shuffled, k=3).ranking.tolist() == semi_select(X, yp, k=3).ranking.tolist()
    pu_y = pd.Series(np.where((y == 1) & (np.arange(2000) % 3 == 0), 1, -1), index=X.index)
    a = estimate_prior(X, pu_y.iloc[::-1], n_boot=0, random_state=0)
    b = estimate_prior(X, pu_y, n_boot=0, random_state=0)
    assert (a.estimate, a.interval) == (b.estimate, b.interval)
    with pytest.raises(ValueError, match="index does not match the rows of `X`") as e:
        markov_blanket(X, yp.set_axis(yp.index + 1), prior=0.45)
    assert "\n" not in str(e.value)
