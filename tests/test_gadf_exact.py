"""The calibrated "g-adf" counted by the learners (chapter 04's `gadf_from_counts`, its exact permutation mean by the
ratios of the hypergeometric law's successive terms) against that mean in exact arithmetic (binomial coefficients,
60 significant digits): an independent implementation. Issue 39 made the kernel's sums cheaper; the tables here reach
the strata of many rows where its earlier path (exponentials of ln k! differences) rounded most."""
import math
from decimal import Decimal, localcontext

import numpy as np
import pytest
from scipy import stats

from semisel.blankets import gadf_from_counts, learn_mb
from semisel.core import block_tables
from semisel.infotheory import ci_test_all, cmi_from_counts, expected_cmi_from_counts


def exact_mean_g(T2: np.ndarray) -> float:
    "E0[G] of one stratum's table T2[x, y] under permutation, in exact arithmetic."
    a, b, n = T2.sum(1).tolist(), T2.sum(0).tolist(), int(T2.sum())
    with localcontext() as ctx:
        ctx.prec = 60
        xlx = lambda v: Decimal(v) * Decimal(v).ln() if v > 1 else Decimal(0)  # noqa: E731
        e = sum(Decimal(math.comb(A, k) * math.comb(n - A, B - k)) * xlx(k) / math.comb(n, B)
                for A in a for B in b for k in range(max(2, A + B - n), min(A, B) + 1))
        return float(2 * (e + xlx(n) - sum(map(xlx, a)) - sum(map(xlx, b))))


def exact_statistic(T: np.ndarray) -> np.ndarray:
    "g-adf's statistic of tables T[j, x, y, z] with each stratum's mean in exact arithmetic (its G from chapter 01)."
    out = np.zeros(len(T))
    for j, z in np.ndindex(T.shape[0], T.shape[3]):
        t = T[j, :, :, z]
        nu = max((t.sum(1) > 0).sum() - 1, 0) * max((t.sum(0) > 0).sum() - 1, 0)
        if nu == 0: continue
        E = exact_mean_g(t)
        if E > 1e-12: out[j] += 2 * t.sum() * cmi_from_counts(t[None, ..., None])[0] * nu / E
    return out


@pytest.mark.parametrize("n", [90, 400, 3000])
def test_exact_mean(n):
    """One stratum per table: the kernel's mean, read back from its statistic, within 2e-11 of the exact one (the
    mean is a difference of sums of k ln k as large as n ln n: their rounding), and no further than chapter 01's."""
    rng = np.random.default_rng(n)
    for _ in range(4):
        kx, ky = rng.integers(2, 4, 2)
        T = rng.multinomial(n, rng.dirichlet(np.ones(kx * ky))).reshape(1, kx, ky, 1)
        r = gadf_from_counts(T)
        if r.dof[0] == 0: continue
        G, exact = 2 * n * cmi_from_counts(T)[0], exact_mean_g(T[0, ..., 0])
        ours = abs(G * r.dof[0] / r.statistic[0] / exact - 1)
        chapter01 = abs(2 * n * expected_cmi_from_counts(T)[0] / exact - 1)
        assert ours < 2e-11 and ours <= max(chapter01, 1e-13), (n, T.ravel(), ours, chapter01)


@pytest.mark.parametrize("n, kz", [(500, 20), (2000, 2)])
def test_pvalues_exact(n, kz):
    """Sparse and dense strata in one table: statistic within 1e-11 and p-values within 1e-11 of the exact means' (a
    stratum of 1,000 rows: its mean's rounding, above)."""
    rng = np.random.default_rng(n)
    X, y, z = rng.integers(0, 3, (n, 8)), rng.integers(0, 2, n), rng.integers(0, kz, n)
    X[:, 0] = (y + z + (rng.random(n) < .4)) % 3
    X[:, 1] = (y + (rng.random(n) < .8)) % 3
    T = block_tables(X.astype(np.uint8), y * kz + z, 2 * kz, 3).reshape(8, 3, 2, kz)
    ours, ref, exact = gadf_from_counts(T), ci_test_all(X, y, z, "g-adf"), exact_statistic(T)
    np.testing.assert_array_equal(ours.dof, np.asarray(ref.dof, float))
    np.testing.assert_allclose(ours.statistic, exact, rtol=1e-11)
    np.testing.assert_allclose(ours.pvalue, stats.chi2.sf(exact, ours.dof), rtol=0, atol=1e-11)
    np.testing.assert_allclose(ref.statistic, exact, rtol=1e-9)                 # chapter 01's path, for scale


def test_learners_decide_as_chapter01():
    "Every learner with g-adf counted by the kernel gives the set it gives with chapter 01's batched test."
    rng = np.random.default_rng(11)
    n = 1500
    y = rng.integers(0, 2, n)
    X = rng.integers(0, 3, (n, 10))
    X[:, 0] = (y + (rng.random(n) < .3)) % 3
    X[:, 1] = (X[:, 0] + rng.integers(0, 2, n) * (rng.random(n) < .3)) % 3
    X[:, 2] = (y + X[:, 3] * (rng.random(n) < .5)) % 3                      # a child with a spouse
    ref = lambda X_, y_, z: ci_test_all(X_, y_, z, "g-adf")  # noqa: E731  (a callable test: chapter 01's)
    for alg in ("iamb", "fast.iamb", "iamb.fdr", "mmpc", "si.hiton.pc", "hpc", "gs", "inter.iamb"):
        ours = learn_mb(X, y, alg, "g-adf", 0.05)
        theirs = learn_mb(X, y, alg, ref, 0.05)
        assert ours.members == theirs.members, alg
