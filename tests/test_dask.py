"""The dask path on a dask.distributed LocalCluster of 2 worker processes gives exactly the in-memory answer (issue 18).

A few hundred thousand rows in small chunks: SemiJMI (partial labels, the surrogate chosen by the prior), the batched
tests of chapter 01 and Semi-IAMB on a dask array, against the same calls on the NumPy array. Skipped without dask."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("dask.distributed")

from semisel.iamb import semi_iamb  # noqa: E402
from semisel.infotheory import ci_test_all, g_test_all, mutual_info_all  # noqa: E402
from semisel.ranking import SemiJMI, semi_select  # noqa: E402

N, D = 300_000, 16


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="1GiB",
                                       dashboard_address=":0")
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(18)
    X = rng.integers(0, 4, (N, D)).astype(np.uint8)
    X[:, 7] = rng.integers(0, 30, N)                                       # a column of larger arity
    y = ((X[:, 0] + X[:, 1] + (X[:, 2] > 1) + rng.integers(0, 3, N)) > 4).astype(int)
    X[:, 3] = (X[:, 0] + (rng.random(N) < 0.2)) % 4                        # redundant with X0
    yp = np.where(rng.random(N) < 0.25, y, -1)                              # 75 % unlabelled
    return X, y, yp, da.from_array(X, chunks=(25_000, D)), da.from_array(yp, chunks=40_000)


def test_semijmi_exact(client, data):
    X, _, yp, Xd, ypd = data
    a = SemiJMI(k=8, prior=0.35).fit(X, yp)
    b = SemiJMI(k=8, prior=0.35).fit(Xd, ypd)
    assert b.ranking_.tolist() == a.ranking_.tolist()
    np.testing.assert_allclose(b.scores_[b.ranking_], a.scores_[a.ranking_], rtol=0, atol=1e-12)
    assert (b.surrogate_, b.threshold_) == (a.surrogate_, a.threshold_)
    listwise = semi_select(Xd, yp, "jmi", 5, surrogate="D_L")
    assert listwise.ranking.tolist() == semi_select(X, yp, "jmi", 5, surrogate="D_L").ranking.tolist()


def test_batched_tests_exact(client, data):
    X, y, _, Xd, _ = data
    np.testing.assert_allclose(mutual_info_all(Xd, y), mutual_info_all(X, y), rtol=0, atol=1e-12)
    z = X[:, [0, 1]]
    for test in ("g", "adf", "g-adf", "chi2"):
        a, b = ci_test_all(X, y, z, test), ci_test_all(Xd, y, da.from_array(z, chunks=(30_000, 2)), test)
        np.testing.assert_allclose(b.statistic, a.statistic, rtol=1e-12, atol=1e-9)
        assert b.dof.tolist() == a.dof.tolist()
        np.testing.assert_allclose(b.pvalue, a.pvalue, rtol=1e-10, atol=1e-14)
    assert g_test_all(Xd, y).dof.tolist() == g_test_all(X, y).dof.tolist()


def test_semi_iamb_exact(client, data):
    X, _, yp, Xd, ypd = data
    a = semi_iamb(X[:, :10], yp, prior=0.35, test="g", trace=True)
    b = semi_iamb(Xd[:, :10], ypd, prior=0.35, test="g", trace=True)
    assert b.blanket == a.blanket and len(a.blanket) >= 3
    assert (b.surrogate, b.threshold) == (a.surrogate, a.threshold)
    for ra, rb in zip(a.trace, b.trace):
        assert (ra.phase, ra.candidate, ra.conditioning, ra.dof, ra.decision) == (rb.phase, rb.candidate, rb.conditioning, rb.dof, rb.decision)
        assert abs(ra.statistic - rb.statistic) <= 1e-9 * max(1.0, abs(ra.statistic))


def test_semijmi_beyond_budget(client, data, monkeypatch):
    "A column whose pair table exceeds the count budget is counted over its observed cells, loaded; chunked or not."
    import semisel.ranking as ranking
    from semisel.core import count_budget
    X, yp, Xd, ypd = data[0][:50_000, :10], data[2][:50_000], data[3][:50_000, :10], data[4][:50_000]   # column 7 in
    sparse, calls = ranking._sparse_pair_terms, []
    monkeypatch.setattr(ranking, "_sparse_pair_terms", lambda x, *a: calls.append(type(x)) or sparse(x, *a))
    with count_budget(1 << 10):   # 128 int64 cells: column 7 (arity 30) against B x Y (4 x 2 states) does not fit
        a = SemiJMI(k=4, prior=0.35).fit(X, yp)
        b = SemiJMI(k=4, prior=0.35).fit(Xd, ypd)
    assert calls and set(calls) == {np.ndarray}   # the sparse path ran, on NumPy columns both times
    assert b.ranking_.tolist() == a.ranking_.tolist()
    np.testing.assert_allclose(b.scores_[b.ranking_], a.scores_[a.ranking_], rtol=0, atol=1e-12)
    c = SemiJMI(k=4, prior=0.35).fit(X, yp)   # the dense tables, within the default budget: the same answer
    assert c.ranking_.tolist() == a.ranking_.tolist()
    np.testing.assert_allclose(c.scores_[c.ranking_], a.scores_[a.ranking_], rtol=0, atol=1e-12)


def test_float_columns_read_with_dask_are_an_error_that_names_the_fix():
    """Issue 40: the kNN estimator of continuous columns needs the rows in memory, so a chunked float X is not binned
    silently: one line that names .compute() and discretize; binned chunk by chunk it runs."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 4))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(TypeError, match=r"needs the\s+rows in memory; .compute\(\) X, or bin it chunk by chunk"):
        SemiJMI(k=2).fit(da.from_array(X, chunks=100), y)
    assert SemiJMI(k=2, discretize=5).fit(da.from_array(X, chunks=100), y).ranking_[0] == 0
