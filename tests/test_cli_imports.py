"""What a fresh `semisel mb` imports (issue 39: the command in a fresh process at <= 0.5x a fresh Rscript).

scikit-learn and scipy.stats cost a fresh `semisel mb` about half a CPU-second (`bench_entry.py --floors`: "floor
without scikit-learn" against "floor with SemiIAMB's bases"). The command needs neither unless a prior is estimated (a
classifier) or a test needs scipy.stats (the continuous ones load it on first use). Each run below is a fresh process
that runs the command and then lists the heavy modules it loaded.

Where it stands:
- a CSV, with full labels, PU labels, or MCAR labels and a given prior: no scikit-learn, no scipy.stats. The estimator
  classes (`PartialLabelSelector`, `selection_table`, `SemiIAMB`) live in `semisel.estimators` (chapter 00_api),
  reached from `semisel.core` and `semisel.iamb` on first use (PEP 562), and `mb_table` runs `learn_blanket`, what
  `SemiIAMB.fit` runs, without the estimator; scipy.stats is imported inside the functions that call it;
- a bundled network: the same. It is read from the arrays stored beside its BIF file (chapter 00b), not parsed by
  pgmpy (whose import loads scikit-learn and scipy.stats itself); without --target, the error lists the papers'
  targets from the cached facts (`network_info`), not pgmpy's exact inference.
- scipy.sparse (6 ms of a fresh process, measured in the command's order): only chapter 01b's continuous tests build
  sparse matrices, and import it where they do; a discrete job loads none. scipy.special stays: the chi-square tail of
  every test ("g-adf"'s included) is `scipy.special.chdtrc`, and numba's first cached kernel loads scipy.linalg (its
  BLAS check), which already pays the array-API machinery scipy.special shares (scipy.special adds about 23 ms).
The control (`semisel rank` fits a scikit-learn selector) shows the probe sees scikit-learn when it is loaded.
"""
import functools
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from semisel.networks import network, sample_network

HEAVY = ("sklearn", "scipy.stats", "pgmpy")
WATCH = HEAVY + ("scipy.sparse",)           # what the probe reports; each test reads its own modules of it
PROBE = ("import json, sys\nfrom semisel.cli import main\nrc = main(sys.argv[1:])\n"
         "print('\\nLOADED ' + json.dumps({'rc': rc, 'loaded': [m for m in %r if m in sys.modules]}))" % (WATCH,))


@functools.lru_cache(maxsize=None)
def _probe(args: tuple, cwd) -> tuple:
    "The `WATCH` modules a fresh `semisel` process holds after running `args` (it must exit 0): one process per command."
    out = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=180, cwd=cwd)
    last = json.loads(out.stdout.rsplit("LOADED ", 1)[1])
    assert last["rc"] == 0, out.stderr[-800:]
    return tuple(last["loaded"])


def loaded(*args, cwd=None, among=HEAVY) -> list:
    "The modules of `among` (default: the heavy ones) a fresh `semisel` process holds after running `args`."
    return [m for m in _probe(tuple(map(str, args)), None if cwd is None else str(cwd)) if m in among]


@pytest.fixture(scope="module")
def alarm_csv(tmp_path_factory):
    """alarm, 2,000 rows, STROKEVOLUME's first state as the label (a user's CSVs): "pu" with 30% of the positives
    labelled, "full" with every label, "mcar" with half the labels erased at random."""
    D = sample_network(network("alarm"), 2000, random_state=0)
    y = (D.STROKEVOLUME.to_numpy() == 0).astype(int)
    folder, paths = tmp_path_factory.mktemp("mb"), {}
    for kind, labels in [("pu", np.where((y == 1) & (np.random.default_rng(0).random(len(y)) < 0.3), 1, -1)),
                         ("full", y), ("mcar", np.where(np.random.default_rng(1).random(len(y)) < 0.5, y, -1))]:
        paths[kind] = folder / f"alarm_{kind}.csv"
        D.drop(columns="STROKEVOLUME").assign(**{"class": labels}).to_csv(paths[kind], index=False)
    return paths




@pytest.mark.parametrize("kind, options", [("pu", []), ("full", []), ("mcar", ["--prior", "0.3"])],
                         ids=["pu", "full", "mcar-prior"])
def test_mb_on_a_csv_imports_no_sklearn(alarm_csv, kind, options):
    assert loaded("mb", str(alarm_csv[kind]), *options, "--quiet", "--json") == []


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    "The heavy modules of a fresh `semisel mb alarm --target STROKEVOLUME`, PU (30% of positives labelled) and full."
    cwd = tmp_path_factory.mktemp("bundled")
    return {kind: ("mb", "alarm", "--target", "STROKEVOLUME", "--rows", "500", *labels, "--quiet", "--json", cwd)
            for kind, labels in (("pu", ["--pu", "0.3"]), ("full", []))}


@pytest.mark.parametrize("kind", ["pu", "full"])
def test_mb_on_a_bundled_network_imports_no_pgmpy(bundled, kind):
    *args, cwd = bundled[kind]
    assert "pgmpy" not in loaded(*args, cwd=cwd)


@pytest.mark.parametrize("kind", ["pu", "full"])
def test_mb_on_a_bundled_network_imports_no_sklearn(bundled, kind):
    *args, cwd = bundled[kind]
    assert loaded(*args, cwd=cwd) == []


@pytest.mark.parametrize("kind, options", [("pu", []), ("full", []), ("mcar", ["--prior", "0.3"]), ("bundled-pu", None),
                                           ("bundled-full", None)])
def test_mb_on_codes_imports_no_scipy_sparse(alarm_csv, bundled, kind, options):
    "The same commands as above (the same processes): a discrete job builds no sparse matrix, so loads no scipy.sparse."
    *args, cwd = bundled[kind[8:]] if options is None else ("mb", str(alarm_csv[kind]), *options, "--quiet", "--json", None)
    assert loaded(*args, cwd=cwd, among=("scipy.sparse",)) == []


def test_probe_sees_sklearn_where_it_is_loaded(alarm_csv):
    """The control: `semisel rank` fits a scikit-learn selector, so scikit-learn is loaded and the probe says so. And mb
    with --prior estimate: an MCAR prior is the labelled rows' positive share with its exact binomial interval
    (scipy.stats, no classifier); on PU labels the prior is not estimated (the surrogate is Y0 whatever it is)."""
    assert "sklearn" in loaded("rank", str(alarm_csv["full"]), "-k", "3", "--quiet", "--json")
    assert loaded("mb", str(alarm_csv["mcar"]), "--prior", "estimate", "--quiet", "--json") == ["scipy.stats"]
    assert loaded("mb", str(alarm_csv["pu"]), "--prior", "estimate", "--quiet", "--json") == []


def test_mb_on_continuous_columns_loads_scipy_sparse(tmp_path):
    """The control of the scipy.sparse cut: float columns are tested as continuous (chapter 01b's conditional Gaussian
    tests), whose larger sums per stratum build a sparse matrix, so the probe sees scipy.sparse where it is used."""
    rng = np.random.default_rng(0)                 # floats: the default test is "seq-mi-cg", by permutations
    x = rng.normal(size=(3000, 3))
    y = (x[:, 0] + rng.normal(size=3000) > 0).astype(int)
    path = tmp_path / "floats.csv"
    pd.DataFrame(x, columns=["a", "b", "c"]).assign(**{"class": y}).to_csv(path, index=False)
    assert loaded("mb", str(path), "--quiet", "--json", among=("scipy.sparse",)) == ["scipy.sparse"]


def test_mb_without_a_target_imports_no_pgmpy(tmp_path):
    """`semisel mb` alone (the default network, alarm, and no --target): the error lists the papers' benchmark targets
    from the cached facts (`network_info`), without pgmpy's exact inference."""
    out = subprocess.run([sys.executable, "-c", PROBE, "mb"], capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert "benchmark targets are STROKEVOLUME, TPR, VENTTUBE, ARTCO2, CO" in out.stderr, out.stderr[-800:]
    last = json.loads(out.stdout.rsplit("LOADED ", 1)[1])
    assert last["rc"] == 2 and "pgmpy" not in last["loaded"]
