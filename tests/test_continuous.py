"""Properties of chapter 01b's continuous and mixed tests (semisel.continuous) that any correct implementation has:
batched equals one column at a time, invariance to the units and order of rows and to relabelled codes, symmetry of
the Gaussian tests, degenerate columns, inputs never modified, and the registry's guards."""
import numpy as np
import pandas as pd
import pytest

from semisel.continuous import MixedData, ci_test_columns, continuous_test, continuous_test_all
from semisel.infotheory import TESTS, ci_test_all, test_spec

CG = [n for n, s in TESTS.items() if s.data == "conditional-gaussian"]
GAUSS = [n for n, s in TESTS.items() if s.data == "gaussian"]
ASYMPTOTIC = [n for n in CG + GAUSS if not TESTS[n].permutes]


def mixed(seed, n=300):
    rng = np.random.default_rng(seed)
    Z = pd.DataFrame({"g": rng.normal(size=n), "d": rng.integers(0, 3, n)})
    cls = (rng.random(n) < 1 / (1 + np.exp(-Z.g.to_numpy()))).astype(np.int64)
    X = pd.DataFrame({"a": Z.g + 0.5 * cls + rng.normal(size=n), "b": rng.lognormal(size=n),
                      "c": (cls + Z.d + rng.integers(0, 2, n)) % 3, "e": rng.standard_t(4, n)})
    w = X.a + Z.g + rng.normal(size=n)
    return X, cls, w.to_numpy(), Z


@pytest.mark.parametrize("test", ASYMPTOTIC)
@pytest.mark.parametrize("seed", [0, 1])
def test_batched_equals_one_column(test, seed):
    X, cls, w, Z = mixed(seed)
    X, y, z = (X[["a", "b", "e"]], w, Z[["g"]]) if test in GAUSS else (X, cls, Z)
    batched = continuous_test_all(X, y, z, test)
    for j, c in enumerate(X.columns):
        one = continuous_test(X[c], y, z, test)
        assert one.statistic == pytest.approx(batched.statistic[j], rel=1e-9, abs=1e-12)
        assert one.pvalue == pytest.approx(batched.pvalue[j], rel=1e-9, abs=1e-14)
        assert one.dof == batched.dof[j]


@pytest.mark.parametrize("test", ASYMPTOTIC)
def test_invariances(test):
    "Units (scale, shift, sign) of continuous columns, order of the rows, labels of discrete codes: the same p-values."
    X, cls, w, Z = mixed(2)
    X, y, z = (X[["a", "b", "e"]], w, Z[["g"]]) if test in GAUSS else (X, cls, Z)
    ref = continuous_test_all(X, y, z, test).pvalue
    rng = np.random.default_rng(3)
    X2 = X.copy()
    for c in X2.columns:
        if X2[c].dtype.kind == "f": X2[c] = -1e4 * X2[c] + 7e3
        else: X2[c] = rng.permutation(int(X2[c].max()) + 1)[X2[c]]          # relabelled codes (same levels)
    z2 = z.copy()
    z2["g"] = 1e-6 * z2["g"] - 3
    y2 = (w * 1e3 + 5) if test in GAUSS else 1 - y
    np.testing.assert_allclose(continuous_test_all(X2, y2, z2, test).pvalue, ref, rtol=1e-8, atol=1e-12)
    order = rng.permutation(len(y))
    np.testing.assert_allclose(continuous_test_all(X.iloc[order], np.asarray(y)[order], z.iloc[order], test).pvalue, ref,
                               rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("test", [t for t in GAUSS if not TESTS[t].permutes])
def test_gaussian_tests_symmetric(test):
    X, cls, w, Z = mixed(4)
    a = continuous_test(X.a, w, Z[["g"]], test)
    b = continuous_test(w, X.a.to_numpy(), Z[["g"]], test)
    assert a.pvalue == pytest.approx(b.pvalue, rel=1e-9) and a.statistic == pytest.approx(b.statistic, rel=1e-9)


@pytest.mark.parametrize("test", CG + GAUSS)
def test_degenerate_columns(test):
    "A constant column and a column determined by z are independent of anything given z: p-value 1."
    X, cls, w, Z = mixed(5)
    n = len(cls)
    gauss = test in GAUSS
    D = pd.DataFrame({"const": np.full(n, 2.5), "copy": 3 * Z.g.to_numpy() - 1, "noise": X.a.to_numpy()})
    z = Z[["g"]] if gauss else Z
    r = continuous_test_all(D, w if gauss else cls, z, test, random_state=0)
    assert r.pvalue[0] == 1.0 and r.pvalue[1] == 1.0 and r.pvalue[2] < 1.0


def test_inputs_not_modified_and_pandas_equals_numpy():
    X, cls, w, Z = mixed(6)
    Xc, Zc, cc = X.copy(), Z.copy(), cls.copy()
    a = continuous_test_all(X, cls, Z, "mi-cg")
    pd.testing.assert_frame_equal(X, Xc)
    pd.testing.assert_frame_equal(Z, Zc)
    np.testing.assert_array_equal(cls, cc)
    num = continuous_test_all(X[["a", "b"]].to_numpy(), cls, Z[["g"]].to_numpy(), "mi-cg")
    np.testing.assert_allclose(num.pvalue, continuous_test_all(X[["a", "b"]], cls, Z[["g"]], "mi-cg").pvalue, rtol=1e-12)
    np.testing.assert_allclose(a.pvalue[:2], continuous_test_all(X[["a", "b"]], cls, Z, "mi-cg").pvalue, rtol=1e-12)


def test_types_by_dtype():
    "Float columns are continuous (whole numbers too), integer and bool columns discrete."
    md = MixedData(pd.DataFrame({"f": [0.0, 1.0, 1.0, 0.0], "i": [0, 1, 1, 0], "b": [True, False, True, False]}))
    assert md.continuous.tolist() == [True, False, False]
    assert md.levels.tolist() == [0, 2, 2]


def test_registry_guards():
    "Each entry point runs only the tests for its data, with a one-line error naming where the other kind runs."
    X, cls, w, Z = mixed(7)
    assert {s.data for s in TESTS.values()} == {"discrete", "gaussian", "conditional-gaussian", "nonparametric"}   # 01c: cmi-knn
    for name in CG + GAUSS:
        with pytest.raises(ValueError, match=f"`test` '{name}' is a test for .* data; ci_test_all runs the tests for discrete"):
            ci_test_all(X[["c"]], cls, None, name)
    for name in ("g", "mc", "sp", "adf"):
        with pytest.raises(ValueError, match="is a test for discrete data: semisel.infotheory.ci_test_all runs it"):
            continuous_test_all(X, cls, Z, name)
    assert test_spec("mi-cg").check_data("conditional-gaussian", "x") is TESTS["mi-cg"]
    md = MixedData.join(X, cls, Z)[0]
    r = ci_test_columns(md, [0, 1], 4, [5, 6], "mi-cg")
    np.testing.assert_allclose(r.pvalue, continuous_test_all(X[["a", "b"]], cls, Z, "mi-cg").pvalue, rtol=1e-12)


@pytest.mark.parametrize("test", [t for t in CG + GAUSS if TESTS[t].permutes])
def test_permutation_tests_reproducible_and_valid(test):
    X, cls, w, Z = mixed(8)
    X, y, z = (X[["a", "b"]], w, Z[["g"]]) if test in GAUSS else (X[["a", "b"]], cls, Z)
    a = continuous_test_all(X, y, z, test, n_perm=99, random_state=1)
    b = continuous_test_all(X, y, z, test, n_perm=99, random_state=1)
    np.testing.assert_array_equal(a.pvalue, b.pvalue)
    assert ((a.pvalue > 0) & (a.pvalue <= 1)).all() and a.pvalue[0] <= 0.05
    assert (a.n_perm <= 99).all() and (a.n_perm >= 1).all()


@pytest.mark.parametrize("test", ASYMPTOTIC)
def test_chunked_equals_in_memory(test):
    "A dask table of small chunks gives the in-memory statistics (chapter 10's ChunkedMixed and row_sums)."
    dd = pytest.importorskip("dask.dataframe")
    X, cls, w, Z = mixed(9, n=900)
    if test == "ns-mi-cg":
        with pytest.raises(ValueError, match="needs the rows in memory"):
            continuous_test_all(dd.from_pandas(X, npartitions=4), cls, Z, test)
        return
    X, y, z = (X[["a", "b", "e"]], w, Z[["g"]]) if test in GAUSS else (X, cls, Z)
    ref = continuous_test_all(X, y, z, test)
    got = continuous_test_all(dd.from_pandas(X, npartitions=4), y, dd.from_pandas(z, npartitions=3), test)
    np.testing.assert_allclose(got.statistic, ref.statistic, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(got.pvalue, ref.pvalue, rtol=1e-9, atol=1e-10)
