"""The blanket learners on continuous data against R's bnlearn 4.9 (skipped without R): the same sets as `learn.mb` /
`learn.nbr` with "mi-cg" (float features, the class a node binarised at its mean) and "mi-g" (all floats, a continuous
target) on samples of pgmpy's Gaussian networks; chapter 04c runs the full grid."""
import numpy as np
import pytest

from semisel.blankets import ALGORITHMS, bnlearn_available, bnlearn_learn, learn_mb, learn_nbr
from semisel.networks import gaussian_means, gaussian_network, gaussian_targets, sample_gaussian

pytestmark = pytest.mark.skipif(not bnlearn_available(), reason="R with bnlearn 4.9 is not available")
MB = ("gs", "iamb", "fast.iamb", "inter.iamb", "iamb.fdr")


@pytest.mark.parametrize("name,n", [("ecoli70", 500), ("magic-niab", 1000)])
@pytest.mark.parametrize("test", ["mi-cg", "mi-g"])
def test_same_sets_as_bnlearn(name, n, test):
    net = gaussian_network(name)
    D, mu = sample_gaussian(net, n, random_state=1), gaussian_means(net)
    targets = gaussian_targets(net)[:6]
    algorithms = [a for a in ALGORITHMS if a != "pc.stable"]
    jobs = [(t, a, "mb" if a in MB else "nbr") for t in targets for a in algorithms]
    R = bnlearn_learn(D, jobs, test, 0.05, above={t: mu[t] for t in targets} if test == "mi-cg" else None)
    same = []
    for (t, a, k), r in zip(jobs, R.itertuples()):
        y = (D[t] > mu[t]).astype(np.int64).to_numpy() if test == "mi-cg" else D[t].to_numpy()
        res = (learn_mb if k == "mb" else learn_nbr)(D.drop(columns=t), y, a, test, 0.05)
        same.append(sorted(res.selected) == sorted(r.members))
    assert np.mean(same) >= 0.95, f"{np.mean(same):.3f} of {len(same)} sets identical"


def test_pc_stable_on_a_mixture():
    "pc.stable tests feature pairs given sets that hold the class: the same skeleton neighbourhood as bnlearn's."
    net = gaussian_network("ecoli70")
    D, mu = sample_gaussian(net, 500, random_state=2), gaussian_means(net)
    targets = gaussian_targets(net)[:4]
    R = bnlearn_learn(D, [(t, "pc.stable", "nbr") for t in targets], "mi-cg", 0.05, above={t: mu[t] for t in targets})
    for t, r in zip(targets, R.itertuples()):
        y = (D[t] > mu[t]).astype(np.int64).to_numpy()
        assert sorted(learn_nbr(D.drop(columns=t), y, "pc.stable", "mi-cg").selected) == sorted(r.members)


@pytest.mark.parametrize("name,n,target", [("ecoli70", 500, "lacY"), ("magic-irri", 1000, "G3102")])
def test_hpc_conditions_a_node_on_itself_as_bnlearn(name, n, target):
    """The two sets of chapter 04c's grid that differed from bnlearn's: HPC's OR step searches a node's blanket from a
    start that holds the node itself, and bnlearn's "mi-g" leaves it out of the conditioning sets."""
    D = sample_gaussian(gaussian_network(name), n, random_state=0)
    theirs = bnlearn_learn(D, [(target, "hpc", "nbr")], "mi-g", 0.05).members[0]
    ours = learn_nbr(D.drop(columns=target), D[target].to_numpy(), "hpc", "mi-g", 0.05).selected
    assert sorted(ours) == sorted(theirs) and len(theirs) == 3 - (name == "magic-irri")
