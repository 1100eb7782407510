"""Properties of chapter 01c's kNN estimators and test that could fail: invariance to the order of the rows, the
symmetry of Kraskov's estimate, conditioning on a constant, and a finite answer (or a clear error) on small random mixed
tables of any shape, including rows alone in their class and columns of one value."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from semisel.continuous import MixedData
from semisel.knn import knn_ci_test_all, knn_mutual_info_all


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(5, 120), st.sampled_from([1, 2, 3, 5]))
def test_row_order_does_not_matter(seed, n, k):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 3, n), "c": np.round(rng.normal(size=n), 1)})
    y, z = rng.integers(0, 2, n), pd.DataFrame({"z": rng.normal(size=n), "s": rng.integers(0, 2, n)})
    M, Y, Z = (MixedData(v, jitter=1e-10) for v in (X, y, z))
    order = rng.permutation(n)
    a = knn_mutual_info_all(M, Y, Z, n_neighbors=k)
    b = knn_mutual_info_all(M.rows(order), Y.rows(order), Z.rows(order), n_neighbors=k)
    np.testing.assert_allclose(a, b, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(3, 200), st.integers(1, 8))
def test_ksg_is_symmetric_and_a_constant_condition_changes_nothing(seed, n, k):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = x * rng.normal() + rng.standard_t(3, size=n)
    X, Y = MixedData(x, jitter=1e-10), MixedData(y, jitter=1e-10)
    xy = knn_mutual_info_all(X, Y, n_neighbors=k)
    np.testing.assert_allclose(xy, knn_mutual_info_all(Y, X, n_neighbors=k), atol=1e-12)
    np.testing.assert_allclose(xy, knn_mutual_info_all(X, Y, np.zeros(n, dtype=int), n_neighbors=k), atol=1e-12)


@st.composite
def tables(draw):
    n = draw(st.integers(1, 30))
    d = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    kinds = draw(st.lists(st.sampled_from(["float", "int", "str", "const", "tied"]), min_size=d, max_size=d))
    cols = {}
    for j, kind in enumerate(kinds):
        cols[f"c{j}"] = {"float": lambda: rng.normal(size=n), "int": lambda: rng.integers(0, 3, n),
                         "str": lambda: rng.choice(["a", "b"], n), "const": lambda: np.full(n, 2.5),
                         "tied": lambda: np.round(rng.normal(size=n))}[kind]()
    y = draw(st.sampled_from(["class", "float", "rare"]))
    yv = {"class": rng.integers(0, 2, n), "float": rng.normal(size=n), "rare": np.arange(n) % max(n - 1, 1)}[y]
    z = draw(st.sampled_from([None, "float", "int"]))
    zv = None if z is None else rng.normal(size=n) if z == "float" else rng.integers(0, 2, n)
    return pd.DataFrame(cols), yv, zv, draw(st.sampled_from([1, 3, 0.2]))


@settings(max_examples=150, deadline=None)
@given(tables())
def test_small_mixed_tables_give_finite_answers(t):
    X, y, z, k = t
    mi = knn_mutual_info_all(X, y, z, n_neighbors=k)
    assert mi.shape == (X.shape[1],) and np.isfinite(mi).all()
    r = knn_ci_test_all(X, y, z, n_perm=9, n_neighbors=k, random_state=0)
    assert np.isfinite(r.statistic).all() and ((0 < r.pvalue) & (r.pvalue <= 1)).all() and r.test == "cmi-knn"


def test_bad_values_are_errors_that_name_the_argument():
    with pytest.raises(ValueError, match=r"`X\[:, 0\]` has NaN"):
        knn_mutual_info_all(np.array([[np.nan], [1.0]]), [0, 1])
    with pytest.raises(ValueError, match="`y` has 1 rows but `X` has 2"):
        knn_mutual_info_all(np.array([[0.5], [1.0]]), [0])
    with pytest.raises(TypeError, match="in memory"):
        import dask.array as da
        knn_mutual_info_all(da.zeros((4, 2)), [0, 1, 0, 1])
