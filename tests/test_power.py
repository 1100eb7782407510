"""Property tests of semisel.power: power monotonicity, minimal sample sizes, kappa identities (hypothesis)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from semisel.power import (crossing_prior, g_test_power, kappa_from_labels, kappa_marc, kappa_mcar, kappa_pu, population_mi,
                           required_labelled_size, required_sample_size, surrogate_population, surrogate_power)
from semisel.surrogates import switching_threshold

probs = st.floats(0.02, 0.98)


@settings(max_examples=40, deadline=None)
@given(mi=st.floats(1e-4, 0.2), dof=st.integers(1, 12), alpha=st.floats(0.01, 0.2), power=st.floats(0.3, 0.99))
def test_required_sample_size_is_minimal(mi, dof, alpha, power):
    if power <= alpha: return
    n = required_sample_size(mi, dof, alpha, power)
    assert g_test_power(mi, n, dof, alpha) >= power
    assert n == 1 or g_test_power(mi, n - 1, dof, alpha) < power


@given(mi=st.floats(1e-4, 0.1), n=st.integers(10, 10_000), dof=st.integers(1, 10))
def test_power_monotone_and_bounded(mi, n, dof):
    p1, p2 = g_test_power(mi, n, dof, 0.05), g_test_power(mi, 2 * n, dof, 0.05)
    assert 0.05 <= p1 <= p2 <= 1


@given(pi=probs, ps=st.floats(0.01, 1.0))
def test_mcar_is_marc_special_case(pi, ps):
    m, a = kappa_mcar(pi, ps), kappa_marc(pi, pi * ps, (1 - pi) * ps)
    assert m.Y0 == pytest.approx(a.Y0, rel=1e-12) and m.Y1 == pytest.approx(a.Y1, rel=1e-12)
    assert m.D_L >= max(m.Y0, m.Y1) - 1e-15


@settings(max_examples=60)
@given(pi=probs, c0=st.floats(0.01, 1), c1=st.floats(0.01, 1), seed=st.integers(0, 10_000), arity=st.integers(2, 6))
def test_i2_ratio_is_kappa(pi, c0, c1, seed, arity):
    rng = np.random.default_rng(seed)
    cond = rng.dirichlet(np.ones(arity), size=2).T
    p_xy = cond * [1 - pi, pi]
    if population_mi(p_xy, squared=True) < 1e-10: return
    t = surrogate_population(p_xy, (c0, c1))
    k = kappa_marc(pi, pi * c1, (1 - pi) * c0)
    i2 = population_mi(p_xy, squared=True)
    assert population_mi(t["Y0"], squared=True) / i2 == pytest.approx(k.Y0, rel=1e-8)
    assert population_mi(t["Y1"], squared=True) / i2 == pytest.approx(k.Y1, rel=1e-8)


@given(p=st.integers(1, 1000), n=st.integers(1, 1000), m=st.integers(0, 5000))
def test_crossing_is_switching_threshold(p, n, m):
    y = np.r_[np.ones(p), np.zeros(n), -np.ones(m)]
    N = p + n + m
    phi = switching_threshold(y)
    if 1e-6 < phi < 1 - 1e-6:
        assert crossing_prior(p / N, n / N) == pytest.approx(phi, abs=1e-9)
        k = kappa_from_labels(y, phi)
        assert k.Y0 == pytest.approx(k.Y1, rel=1e-7)


def test_labelled_size_pu():
    L = required_labelled_size(0.005, 20_000, 1, prior=0.2)
    assert surrogate_power(0.005, 20_000, 1, kappa_pu(0.2, L / 20_000)) >= 0.8
    assert surrogate_power(0.005, 20_000, 1, kappa_pu(0.2, (L - 1) / 20_000)) < 0.8
    L1 = required_labelled_size(0.005, 20_000, 1, prior=0.8, surrogate="Y1")
    assert L1 == L                                            # mirror image: swap classes


@pytest.mark.parametrize("bad", [dict(mi=-1.0), dict(alpha=0.0), dict(alpha=1.0), dict(dof=0)])
def test_bad_inputs(bad):
    args = dict(mi=0.01, n=100, dof=1, alpha=0.05) | bad
    with pytest.raises(ValueError):
        g_test_power(**args)
