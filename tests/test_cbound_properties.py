"""Property tests of the C-bounds in semisel.cbound (hypothesis): inequalities that hold exactly on any sample."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from semisel.cbound import cbound, cbound_il, margin_matrix, margins, probabilistic_cbound, transductive_thresholds

TOL = 1e-12


@st.composite
def votes_and_labels(draw):
    "A random vote matrix (rows on the simplex, some exact ties) and class codes."
    n, k = draw(st.integers(1, 40)), draw(st.integers(2, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    V = rng.dirichlet(np.full(k, draw(st.sampled_from([0.2, 1.0, 5.0]))), size=n)
    if draw(st.booleans()):                                   # hard voters: votes are multiples of 1/T
        T = draw(st.integers(1, 7))
        V = np.apply_along_axis(lambda p: np.bincount(rng.choice(k, T, p=p), minlength=k) / T, 1, V)
    y = rng.integers(0, k, n)
    if draw(st.booleans()): y = np.where(rng.random(n) < 0.8, V.argmax(1), y)   # mostly right: mu1 > 0
    return V, y, rng


@settings(max_examples=300, deadline=None)
@given(votes_and_labels())
def test_cbound_range_and_chain(data):
    V, y, _ = data
    cb = cbound(V, y)
    M = margins(V, y)
    assert np.all((M >= -1 - TOL) & (M <= 1 + TOL))
    if not cb.valid:
        assert cb.value == 1.0 and cb.mu1 <= 0
        return
    assert cb.mu1 ** 2 <= cb.mu2 + TOL and 0 <= cb.value <= 1
    err = np.mean(V.argmax(1) != y)
    assert err <= np.mean(M <= 0) + TOL <= cb.value + 2 * TOL


@settings(max_examples=200, deadline=None)
@given(votes_and_labels())
def test_probabilistic_chain_and_one_hot(data):
    V, y, rng = data
    n, k = V.shape
    assert probabilistic_cbound(V, np.eye(k)[y]) == cbound(V, y)
    P = rng.dirichlet(np.ones(k), size=n)
    pc = probabilistic_cbound(V, P)
    if pc.valid:
        risk = np.mean(1 - P[np.arange(n), V.argmax(1)])
        mass = np.mean((P * (margin_matrix(V) <= 0)).sum(1))
        assert risk <= mass + TOL <= pc.value + 2 * TOL


@settings(max_examples=200, deadline=None)
@given(votes_and_labels(), st.floats(0.0, 0.6))
def test_imperfect_labels_identity_and_bound(data, noise):
    V, y, rng = data
    n, k = V.shape
    # identity transition: no correction
    assert cbound_il(V, np.eye(k), labels=y) == cbound(V, y)
    # a random transition matrix and true posterior: R_Y = R_Yhat - Delta exactly, and the bound covers R_Y
    L = (1 - noise) * np.eye(k) + noise * rng.dirichlet(np.ones(k), size=k)
    eta = rng.dirichlet(np.full(k, 0.5), size=n)
    eta_hat = eta @ L
    b = V.argmax(1)
    r_true, r_noisy = np.mean(1 - eta[np.arange(n), b]), np.mean(1 - eta_hat[np.arange(n), b])
    res = cbound_il(V, L, posteriors=eta_hat)
    assert r_true == pytest.approx(r_noisy - res.delta, abs=1e-9)
    if res.valid: assert r_true <= res.value + 1e-9


def test_binary_reduction_gibbs_and_disagreement():
    "K=2, hard voters with weights w: mu1 = 1 - 2 R(Gibbs), mu2 = 1 - 2 d (Lacasse et al. 2007)."
    rng = np.random.default_rng(0)
    for _ in range(50):
        n, T = rng.integers(1, 30), rng.integers(1, 9)
        H = rng.integers(0, 2, (n, T)); w = rng.dirichlet(np.ones(T)); y = rng.integers(0, 2, n)
        v1 = H @ w
        V = np.c_[1 - v1, v1]
        cb = cbound(V, y)
        gibbs = np.mean((H != y[:, None]) @ w)
        dis = np.mean(2 * v1 * (1 - v1))
        assert cb.mu1 == pytest.approx(1 - 2 * gibbs, abs=TOL)
        assert cb.mu2 == pytest.approx(1 - 2 * dis, abs=TOL)


def test_transductive_bound_with_oracle_weights():
    "With p = one-hot true labels, #{y=i, yhat=j, v_j >= theta}/u_i <= Rbar_ij(theta) (spec check 6), via the thresholds' own terms."
    rng = np.random.default_rng(5)
    from semisel.cbound import _early_stop_min
    for _ in range(300):
        u, k = rng.integers(5, 60), rng.integers(2, 5)
        V = rng.dirichlet(np.full(k, 0.6), size=u); y = rng.integers(0, k, u); P = np.eye(k)[y]
        pred = V.argmax(1)
        for i in range(k):
            ui = P[:, i].sum()
            if ui == 0: continue
            for j in range(k):
                if i == j: continue
                v = V[:, j]
                for th in np.linspace(v.min(), v.max(), 7):
                    gam = th + (np.arange(50) + 1) * (1 - th) / 50
                    Kij = np.sum(P[:, i] * (pred == j) * v) / ui
                    Mt = np.sum(P[:, i] * (v < th) * v) / ui
                    I = np.array([np.sum(P[:, i] * ((v >= th) & (v < g))) for g in gam]) / ui
                    Mg = np.array([np.sum(P[:, i] * (v < g) * v) for g in gam]) / ui
                    val = I + np.maximum(Kij - Mg + Mt, 0) / gam
                    # the true joint risk is below the bound at every gamma, hence below the (early-stopped) inf
                    lhs = np.sum((y == i) & (pred == j) & (v >= th)) / ui
                    assert lhs <= val.min() + 1e-12
    # one-hot votes: every example is pseudo-labelled in the first round
    Vh = np.eye(3)[rng.integers(0, 3, 30)]
    th = transductive_thresholds(Vh)
    assert np.all(Vh.max(1) >= th[Vh.argmax(1)])
