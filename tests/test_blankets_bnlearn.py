"""semisel.blankets against R's bnlearn 4.9 (skipped without R and bnlearn): the same sets on a sample of ALARM, full
labels, tests "mi" and "mi-adf", every algorithm, in one Rscript call per test (under a minute)."""
import numpy as np
import pytest

from semisel.blankets import ALGORITHMS, bnlearn_available, bnlearn_learn, learn_mb, learn_nbr

pytestmark = pytest.mark.skipif(not bnlearn_available(), reason="R with bnlearn 4.9 is not available")

TARGETS = ("STROKEVOLUME", "LVFAILURE")     # two of the book's binarised ALARM targets


@pytest.fixture(scope="module")
def sample():
    from semisel.networks import network, sample_network
    return sample_network(network("alarm"), 1000, random_state=0)


@pytest.mark.parametrize("test", ["mi", "adf"])
def test_same_sets_as_bnlearn(sample, test):
    algorithms = [a for a in ALGORITHMS if a != "pc.stable"]
    jobs = [(t, a, "nbr" if a in ("mmpc", "si.hiton.pc", "hpc") else "mb") for t in TARGETS for a in algorithms]
    jobs += [(TARGETS[0], "pc.stable", "nbr")]
    R = bnlearn_learn(sample, jobs, {"adf": "mi-adf"}.get(test, test), 0.05, positive={t: 0 for t in TARGETS})
    levels = {c: int(sample[c].max()) + 1 for c in sample.columns}
    for (t, a, kind), theirs in zip(jobs, R.members):
        X, y = sample.drop(columns=t), (sample[t].to_numpy() == 0).astype(np.int64)
        ours = (learn_mb if kind == "mb" else learn_nbr)(X, y, a, test, 0.05, levels=[levels[c] for c in X.columns])
        assert set(ours.selected) == set(theirs), (t, a, test)


@pytest.fixture(scope="module")
def grid():
    "The parity grid of the public entry points: samples of ALARM, CHILD and INSURANCE, each with its benchmark targets."
    from semisel.networks import benchmark_targets, network, sample_network
    return [(name, n, sample_network(network(name), n, random_state=n), benchmark_targets(network(name)).target.tolist())
            for name in ("alarm", "child", "insurance") for n in (1000, 3000)]


@pytest.mark.parametrize("test", ["mi", "adf"])
def test_public_iamb_is_bnlearns(grid, test):
    """`algorithm="iamb"` of `markov_blanket` and `SemiIAMB` is bnlearn's `iamb` (issue 39: one meaning per name), as
    every other blanket learner's name, on full labels at alpha 0.05 and 0.10; the papers' IAMB is "iamb.papers"."""
    from semisel.iamb import SemiIAMB, markov_blanket
    learners = ("gs", "iamb", "fast.iamb", "inter.iamb", "iamb.fdr")
    differ = 0
    for name, n, D, targets in grid:
        for alpha in (0.05, 0.10):
            jobs = [(t, a, "mb") for t in targets for a in learners]
            R = bnlearn_learn(D, jobs, {"adf": "mi-adf"}.get(test, test), alpha, positive={t: 0 for t in targets})
            for (t, a, _), theirs in zip(jobs, R.members):
                X, y = D.drop(columns=t), (D[t].to_numpy() == 0).astype(np.int64)
                ours = markov_blanket(X, y, alpha=alpha, test=test, algorithm=a)
                assert set(ours.selected) == set(theirs), (name, n, t, a, test, alpha)
                if a == "iamb":
                    fit = SemiIAMB(alpha=alpha, test=test, algorithm=a).fit(X, y)
                    assert set(fit.get_feature_names_out()) == set(theirs), (name, n, t, test, alpha)
                    papers = markov_blanket(X, y, alpha=alpha, test=test, algorithm="iamb.papers")
                    differ += set(papers.selected) != set(theirs)
    if test == "mi": assert differ > 0         # the papers' IAMB is another procedure: the grid tells them apart


def test_cli_iamb_is_bnlearns(grid, tmp_path):
    """`semisel mb --algorithm iamb` on a CSV gives bnlearn's `iamb` (the labels all known; a sample where the papers'
    IAMB gives another set)."""
    import json
    import subprocess
    import sys
    _, _, D, _ = grid[0]
    t = "STROKEVOLUME"
    X, y = D.drop(columns=t), (D[t].to_numpy() == 0).astype(np.int64)
    X.assign(**{"class": y}).to_csv(tmp_path / "alarm.csv", index=False)
    theirs = bnlearn_learn(D, [(t, "iamb", "mb")], "mi-adf", 0.05, positive={t: 0}).members[0]
    out = subprocess.run([sys.executable, "-c", "import sys; from semisel.cli import main; sys.exit(main())", "mb", str(tmp_path / "alarm.csv"), "--algorithm", "iamb",
                          "--test", "adf", "--alpha", "0.05", "--json", "--quiet"], capture_output=True, text=True, check=True)
    assert {r["feature"] for r in json.loads(out.stdout)["rows"]} == set(theirs)
