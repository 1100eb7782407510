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
