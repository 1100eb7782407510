"""Property tests (hypothesis) of semisel.iamb: invariances and consistency of IAMB, Semi-IAMB and Pairwise-IAMB."""
import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from semisel.iamb import iamb, pairwise_g_test_all, pairwise_iamb, semi_iamb
from semisel.infotheory import g_test_all
from semisel.surrogates import switching_threshold

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def data(draw, partial=False):
    "A random discrete dataset with a few features related to a binary target, optionally partially labelled."
    seed = draw(st.integers(0, 2**31 - 1))
    n, d = draw(st.integers(60, 400)), draw(st.integers(1, 6))
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < draw(st.floats(0.2, 0.8))).astype(np.int64)
    X = rng.integers(0, 3, size=(n, d))
    flip = rng.random((n, d)) < draw(st.floats(0.2, 1.0))
    X = np.where(flip, X, y[:, None] + rng.integers(0, 2, size=(n, d)))   # some columns track y
    if not partial: return X, y
    lab = rng.random(n) < draw(st.floats(0.1, 0.9))
    yp = np.where(lab, y, -1)
    assume((yp == 1).any() and (yp == 0).any())
    return X, y, yp


def decisions(res):
    return [(r.phase, r.candidate, r.conditioning, r.decision) for r in res.trace]


@SETTINGS
@given(data(), st.sampled_from([0.01, 0.05, 0.1, 0.3]))
def test_blanket_is_significant_and_rest_is_not(Xy, alpha):
    X, y = Xy
    res = iamb(X, y, alpha, trace=True)
    assert all(p <= alpha for p in res.pvalues.values())               # every member dependent given the rest
    last = [r for r in res.trace if r.phase == "forward"]
    stop = [r for r in last if r.decision == "stop"]
    if stop: assert min(r.pvalue for r in last if r.step == stop[0].step) > alpha   # forward stopped for a reason
    assert len(set(res.blanket)) == len(res.blanket) <= X.shape[1]


@SETTINGS
@given(data(), st.integers(0, 10**6))
def test_row_order_does_not_matter(Xy, seed):
    X, y = Xy
    perm = np.random.default_rng(seed).permutation(len(y))
    assert decisions(iamb(X, y, trace=True)) == decisions(iamb(X[perm], y[perm], trace=True))


@SETTINGS
@given(data())
def test_fully_labelled_semi_and_pairwise_are_iamb(Xy):
    X, y = Xy
    ref = iamb(X, y, trace=True)
    assert decisions(semi_iamb(X, y, 0.5, trace=True)) == decisions(ref)
    assert decisions(pairwise_iamb(X, y, trace=True)) == decisions(ref)
    np.testing.assert_allclose(pairwise_g_test_all(X, y).statistic, g_test_all(X, y).statistic, rtol=1e-9, atol=1e-9)


@SETTINGS
@given(data(partial=True), st.floats(0.05, 0.95))
def test_swapping_the_class_coding_swaps_the_surrogate(Xyp, prior):
    "Coding the other class as positive (1 <-> 0, prior -> 1 - prior) picks the mirror surrogate and the same blanket."
    X, _, yp = Xyp
    assume(abs(prior - switching_threshold(yp)) > 1e-6)
    flipped = np.where(yp < 0, -1, 1 - yp)
    a, b = semi_iamb(X, yp, prior, trace=True), semi_iamb(X, flipped, 1 - prior, trace=True)
    assert {a.surrogate, b.surrogate} == {"Y0", "Y1"}
    assert decisions(a) == decisions(b)
    assert abs(a.threshold + b.threshold - 1) < 1e-12


@SETTINGS
@given(data(partial=True))
def test_pairwise_statistic_is_nonnegative_and_inputs_untouched(Xyp):
    X, _, yp = Xyp
    X0, yp0 = X.copy(), yp.copy()
    r = pairwise_g_test_all(X, np.where(yp < 0, 2, yp), X[:, :1])
    assert (r.statistic >= 0).all() and (r.dof >= 1).all() and ((r.pvalue >= 0) & (r.pvalue <= 1)).all()
    pairwise_iamb(X, yp); semi_iamb(X, yp, 0.3)
    assert (X == X0).all() and (yp == yp0).all()
