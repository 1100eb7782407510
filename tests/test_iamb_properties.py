"""Property tests (hypothesis) of semisel.iamb: invariances and consistency of IAMB, Semi-IAMB and Pairwise-IAMB."""
import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scipy import stats

from semisel.core import CodeMatrix, count_budget, encode_joint
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
    ref = iamb(X, y, test="g", trace=True)                    # with full labels every variant is IAMB (papers' test)
    assert decisions(semi_iamb(X, y, 0.5, test="g", trace=True)) == decisions(ref)
    assert decisions(pairwise_iamb(X, y, test="g", trace=True)) == decisions(ref)
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


def pairwise_reference(X, y3, z=None):
    "The available-case G-test as first written (one bincount per column over a table padded to the largest arity)."
    codes = CodeMatrix(X)
    w = np.asarray(y3).astype(np.int64)
    kz = 1
    if z is not None:
        zc = encode_joint(z).astype(np.int64)
        kz = int(zc.max()) + 1
        w = w * kz + zc
    kw, kx = 3 * kz, int(codes.arity.max())
    T = np.zeros((codes.shape[1], kx * kw))
    for j in range(codes.shape[1]):
        cells = int(codes.arity[j]) * kw
        T[j, :cells] = np.bincount(codes[j].astype(np.int64) * kw + w, minlength=cells)
    T = T.reshape(-1, kx, 3, kz)
    O = T[:, :, :2, :]
    o_xz, o_yz = T.sum(axis=2, keepdims=True), O.sum(axis=1, keepdims=True)
    o_z = o_xz.sum(axis=1, keepdims=True)
    ratio = np.divide(O * o_z, o_xz * o_yz, out=np.ones_like(O), where=O > 0)
    stat = np.maximum(2 * (O * np.log(ratio)).sum(axis=(1, 2, 3)), 0.0)
    count = lambda axes: (O.sum(axis=axes) > 0).sum(axis=1)
    dof = np.maximum(1, (count((2, 3)) - 1) * (count((1, 3)) - 1) * count((1, 2)))
    return stat, dof, stats.chi2.sf(stat, dof)


@SETTINGS
@given(data(partial=True), st.integers(0, 2), st.sampled_from([None, 64, 1024]))
def test_pairwise_test_is_bit_identical_to_the_first_implementation(Xyp, nz, budget):
    """The count kernel's tables (in blocks of columns under any budget) give exactly the numbers of the first version;
    a column whose dense table does not fit the budget is counted by strata (core.stratum_tables), whose sums over
    strata agree to rounding and whose dof is exactly the same."""
    X, _, yp = Xyp
    X = np.column_stack([X, X[:, :1] * 3 % 5])                  # columns of different arities
    y3, z = np.where(yp < 0, 2, yp), (X[:, :nz] if nz else None)
    want = pairwise_reference(X, y3, z)
    if budget is None: got = pairwise_g_test_all(X, y3, z)
    else:
        with count_budget(budget): got = pairwise_g_test_all(X, y3, z)
    kz = 1 if z is None else int(encode_joint(z).max()) + 1
    by_strata = budget is not None and 8 * int(CodeMatrix(X).arity.max()) * 3 * kz > budget
    for a, b in zip((got.statistic, got.dof, got.pvalue), want):
        if by_strata and a.dtype.kind == "f": np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
        else: assert np.array_equal(a, b)
