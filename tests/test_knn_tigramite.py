"""Chapter 01c's Frenzel-Pompe estimate and local permutation against tigramite's CMIknn (Runge 2018), where tigramite
is installed (a benchmark-only package: semisel does not require it).

tigramite adds uniform noise of 1e-6 times each column's deviation and standardises; with its preprocessing reproduced
(its noise drawn from the same Generator seed) and semisel's jitter off, the estimates are equal to rounding. Its
restricted-permutation walk, fed the same shuffled neighbours and visiting order, gives the same permutation."""
import numpy as np
import pytest

from semisel.knn import _restricted, knn_mutual_info

cmiknn = pytest.importorskip("tigramite.independence_tests.cmiknn")


@pytest.mark.parametrize("seed", range(5))
def test_estimate_equals_cmiknn(seed):
    rng = np.random.default_rng(seed)
    n, dz = int(rng.integers(100, 1200)), int(rng.integers(0, 4))
    Z = rng.normal(size=(n, dz))
    x = Z.sum(1) + rng.standard_t(3, size=n)
    y = Z[:, :1].sum(1) + (seed % 2) * np.abs(x) + rng.normal(size=n)
    arr = np.vstack([x, y, Z.T])
    xyz = np.array([0, 1] + [2] * dz)
    for k in (1, 5, 30):
        theirs = cmiknn.CMIknn(knn=k, transform="standardize", seed=seed).get_dependence_measure(arr.copy(), xyz)
        a = arr + 1e-6 * arr.std(axis=1, keepdims=True) * np.random.default_rng(seed).random(arr.shape)
        a = (a - a.mean(1, keepdims=True)) / a.std(1, keepdims=True)
        ours = knn_mutual_info(a[0], a[1], a[2:].T if dz else None, n_neighbors=k, noise=0)
        assert abs(ours - theirs) < 1e-12


@pytest.mark.parametrize("kp", [1, 3, 10])
def test_restricted_permutation_equals_tigramite(kp):
    rng = np.random.default_rng(kp)
    n = 300
    nb = np.stack([rng.choice(n, kp, replace=False) for _ in range(n)])
    order = rng.permutation(n)
    theirs = cmiknn.CMIknn().get_restricted_permutation(n, kp, nb.astype(np.int32), order.astype(np.int32))
    np.testing.assert_array_equal(_restricted(nb[None], order[None])[0], theirs)
