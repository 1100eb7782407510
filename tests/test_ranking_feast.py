"""Parity of semisel.ranking with FEAST (the `fstoolbox` binding of the C toolbox of Brown et al. 2012), a test-only dependency.

Every criterion both have must pick the same features in the same order, with the same per-step scores after the change of
unit (FEAST works in bits) and of JMI's convention (FEAST scores JMI by sum_j I(X_k X_j; Y) = our Eq. 3 score + sum_j I(X_j; Y)).
FEAST's quirks that matter here: it casts to uint32 and floors/shifts values rather than re-indexing them (so we feed
non-negative integer codes), and it logs a warning at import."""
import logging

import numpy as np
import pytest

from semisel.infotheory import mutual_info_all
from semisel.ranking import beta_gamma, select

logging.getLogger().setLevel(logging.ERROR)
fstoolbox = pytest.importorskip("fstoolbox")
logging.getLogger().setLevel(logging.WARNING)

FEAST = {"mim": ("MIM", ()), "mrmr": ("mRMR_D", ()), "jmi": ("JMI", ()), "cmim": ("CMIM", ()), "disr": ("DISR", ()),
         "icap": ("ICAP", ()), "condmi": ("CondMI", ()), "cife": ("BetaGamma", (1.0, 1.0)),
         "condred": ("BetaGamma", (0.0, 1.0)), "mifs": ("BetaGamma", (1.0, 0.0))}


def feast_convention(name, sel, rel):
    s = sel.scores[sel.ranking]
    if name == "jmi": s[1:] += np.cumsum(rel[sel.ranking])[:-1]
    unit = np.full(len(s), np.log(2))
    if name == "disr": unit[1:] = 1.0  # DISR's normalised scores have no unit (its first pick is scored by I(X;Y))
    return s / unit


def dataset(seed, n, d, arity):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, arity, (n, d))
    X[:, 1] = (X[:, 0] + rng.integers(0, 2, n)) % arity            # redundancy
    X[:, 2] = np.where(rng.random(n) < 0.9, (X[:, 3] * 2 + X[:, 4]) % arity, X[:, 5])  # noisy interaction (no exact ties)
    s = X[:, 0] + X[:, 3] + X[:, 4] + rng.integers(0, arity, n)
    y = (s > np.median(s)).astype(int)
    return X, y


@pytest.mark.parametrize("seed,n,d,arity", [(0, 500, 12, 3), (1, 3000, 20, 5), (2, 2000, 15, 2), (3, 8000, 10, 7)])
@pytest.mark.parametrize("name", sorted(FEAST))
def test_same_selection_and_scores(name, seed, n, d, arity):
    X, y = dataset(seed, n, d, arity)
    fname, args = FEAST[name]
    k = 6 if name != "condmi" else 4  # CondMI: stop before I(X;Y|X_S) runs out (FEAST then picks arbitrarily)
    feats, scores = getattr(fstoolbox, fname)(X, y, k, *args)
    ours = select(X, y, name, k)
    assert ours.ranking.tolist() == [int(f) for f in feats]
    np.testing.assert_allclose(feast_convention(name, ours, mutual_info_all(X, y)), scores, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("beta,gamma", [(0.5, 0.3), (0.0, 0.0), (2.0, 0.5)])
def test_beta_gamma(beta, gamma):
    X, y = dataset(4, 2500, 14, 4)
    feats, scores = fstoolbox.BetaGamma(X, y, 7, beta, gamma)
    ours = select(X, y, beta_gamma(beta, gamma), 7)
    assert ours.ranking.tolist() == [int(f) for f in feats]
    np.testing.assert_allclose(ours.scores[ours.ranking] / np.log(2), scores, rtol=1e-9, atol=1e-12)


def test_multiclass_target():
    X, _ = dataset(5, 3000, 10, 4)
    y = (X[:, 0] + X[:, 5]) % 3
    for name in ("mim", "jmi", "mrmr", "cmim"):
        fname, _ = FEAST[name]
        feats, _ = getattr(fstoolbox, fname)(X, y, 5)
        assert select(X, y, name, 5).ranking.tolist() == [int(f) for f in feats]


def test_sparse_and_shifted_codes():
    "FEAST floors and shifts each column by its minimum instead of re-indexing; neither matters for information, so both agree."
    X, y = dataset(6, 2000, 10, 4)
    Xs = X * 3 + 7 + np.arange(X.shape[1])  # gaps between codes and a per-column offset
    for name in ("jmi", "mrmr", "cmim"):
        fname, _ = FEAST[name]
        feats, scores = getattr(fstoolbox, fname)(Xs, y, 5)
        ours = select(Xs, y, name, 5)
        assert ours.ranking.tolist() == [int(f) for f in feats] == select(X, y, name, 5).ranking.tolist()
        np.testing.assert_allclose(feast_convention(name, ours, mutual_info_all(Xs, y)), scores, rtol=1e-9, atol=1e-12)
