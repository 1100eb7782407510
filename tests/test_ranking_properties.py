"""Property tests (hypothesis) of semisel.ranking: invariances every criterion must have."""
import numpy as np
from hypothesis import given, settings, strategies as st

from semisel.ranking import CRITERIA, mint_select, select, semi_select

names = st.sampled_from(sorted(CRITERIA))


def data(seed, n=400, d=7, arity=4):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, arity, (n, d))
    y = ((X[:, 0] + X[:, 1] * (X[:, 2] % 2) + rng.integers(0, arity, n)) > arity).astype(int)
    return X, y, rng


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), name=names)
def test_relabelling_values_changes_nothing(seed, name):
    "Information is invariant to renaming the values of a feature (a bijection of its codes)."
    X, y, rng = data(seed)
    Xr = X.copy()
    for j in range(X.shape[1]):
        Xr[:, j] = rng.permutation(4)[X[:, j]] + 3 * j  # permuted and shifted codes
    a, b = select(X, y, name, 4), select(Xr, y, name, 4)
    assert a.ranking.tolist() == b.ranking.tolist()
    np.testing.assert_allclose(a.scores, b.scores, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), name=names)
def test_permuting_columns_permutes_selection(seed, name):
    X, y, rng = data(seed)
    perm = rng.permutation(X.shape[1])
    a, b = select(X, y, name, 4), select(X[:, perm], y, name, 4)
    assert perm[b.ranking].tolist() == a.ranking.tolist()
    np.testing.assert_allclose(a.scores[a.ranking], b.scores[b.ranking], atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), name=names)
def test_permuting_rows_changes_nothing(seed, name):
    X, y, rng = data(seed)
    p = rng.permutation(len(y))
    a, b = select(X, y, name, 4), select(X[p], y[p], name, 4)
    assert a.ranking.tolist() == b.ranking.tolist()
    np.testing.assert_allclose(a.scores, b.scores, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 7))
def test_mim_scores_sorted_and_prefix_stable(seed, k):
    X, y, _ = data(seed)
    s = select(X, y, "mim", k)
    assert np.all(np.diff(s.scores[s.ranking]) <= 1e-15)
    assert select(X, y, "jmi", 7).ranking[:k].tolist() == select(X, y, "jmi", k).ranking.tolist()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_mint_fully_labelled_is_mrmr(seed):
    X, y, _ = data(seed)
    a, b = mint_select(X, y, 4), select(X, y, "mrmr", 4)
    assert a.ranking.tolist() == b.ranking.tolist()
    np.testing.assert_allclose(a.scores, b.scores, atol=1e-12)
    for adjusted in (False, True):                 # fully labelled: the supervised criterion, plain or adjusted
        assert (semi_select(X, y, "jmi", 4, adjusted=adjusted).ranking.tolist()
                == select(X, y, "jmi", 4, adjusted=adjusted).ranking.tolist())
    assert semi_select(X, y, "jmi", 4).ranking.tolist() == select(X, y, "jmi", 4, adjusted=True).ranking.tolist()   # 05c


def float_data(seed, n=300, d=5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=n) > 0).astype(int)
    return X, y, np.where(rng.random(n) < 0.4, y, -1)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_float_columns_default_is_chapter_05c_choice(seed):
    """Issue 40: estimator="auto" reads float columns as AUTO_FLOATS says (chapter 05c): binned into AUTO_BINS
    equal-width bins and counted, so the default ranking of a float table is the ranking of its bins."""
    from semisel.datasets import discretize
    from semisel.ranking import AUTO_BINS, AUTO_FLOATS
    X, y, yp = float_data(seed)
    a = semi_select(X, yp, "jmi", 3)
    b = semi_select(discretize(X, AUTO_BINS), yp, "jmi", 3) if AUTO_FLOATS == "counts" else \
        semi_select(X, yp, "jmi", 3, estimator=AUTO_FLOATS)
    assert a.ranking.tolist() == b.ranking.tolist()
    np.testing.assert_allclose(a.scores, b.scores, atol=1e-12)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(["jmi", "mim", "mrmr", "cmim"]))
def test_cg_estimator_invariant_to_monotone_changes(seed, name):
    "estimator='cg' reads normal scores: a strictly increasing change of every column changes neither picks nor scores."
    X, y, yp = float_data(seed)
    a, b = semi_select(X, yp, name, 3, estimator="cg"), semi_select(np.exp(X) + X ** 3, yp, name, 3, estimator="cg")
    assert a.ranking.tolist() == b.ranking.tolist()
    np.testing.assert_allclose(a.scores, b.scores, atol=1e-10)
