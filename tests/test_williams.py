"""The "g-williams" test of chapter 01's registry: Williams' (1976) correction of G, checked against its closed form,
against R's DescTools::GTest(correct = "williams") (an independent implementation), by what it is for (the mean of G/q
under independence is the chi2's), and wherever the registry's tests are used."""
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from semisel.blankets import make_ci
from semisel.iamb import iamb, make_test, markov_blanket
from semisel.infotheory import TESTS, ci_test, ci_test_all, cmi_from_counts, test_spec, williams_from_counts

# DescTools 0.99.59 (R), GTest(t, correct = "none") and GTest(t, correct = "williams") on these tables, R's column-major
# matrix(c(...), nrow): (cells, nrow) -> (G, G / q, p-value, dof). Produced by sourcing GTest from the package's
# R/Tests.r and printing the fields with sprintf("%.15g"); not copied from any other source.
DESCTOOLS = {
    ((10, 3, 2, 8), 2): (7.78792216339059, 7.29964251359775, 0.00689683313730471, 1),
    ((12, 5, 7, 3, 9, 14), 2): (4.98949269401939, 4.76795773418863, 0.0921830626940874, 2),
    ((4, 1, 0, 6, 3, 2, 5, 7, 1), 3): (4.47237613773088, 3.7778320961594, 0.436907102673085, 4),
    ((30, 22, 18, 25, 9, 14, 11, 16), 2): (3.84828916314282, 3.77486548825228, 0.286823263420794, 3),
    ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 3): (0.646260262017994, 0.60614676474099, 0.996297156247877, 6),
}


def r_matrix(cells, nrow):
    "R's matrix(cells, nrow): filled column by column."
    return np.array(cells).reshape(-1, nrow).T


def rows_of(table):
    "Rows (x, y) whose contingency table is `table`."
    x, y = np.nonzero(table)
    reps = table[x, y]
    return np.repeat(x, reps), np.repeat(y, reps)


@pytest.mark.parametrize("key", list(DESCTOOLS))
def test_against_desctools(key):
    table = r_matrix(*key)
    G, Gq, p, dof = DESCTOOLS[key]
    q, nu = williams_from_counts(table[..., None])
    assert int(nu) == dof
    assert 2 * table.sum() * float(cmi_from_counts(table[..., None])) == pytest.approx(G, rel=1e-12)
    assert G / float(q) == pytest.approx(Gq, rel=1e-12)
    r = ci_test(*rows_of(table), test="g-williams")                          # the registry's test, from rows
    assert (r.statistic, r.pvalue, r.dof) == (pytest.approx(Gq, rel=1e-12), pytest.approx(p, rel=1e-9), dof)


def test_closed_form_2x2():
    a, b, c, d = 7, 1, 2, 9                                                   # q in exact arithmetic
    n = a + b + c + d
    q = 1 + (n * (Fraction(1, a + b) + Fraction(1, c + d)) - 1) * (n * (Fraction(1, a + c) + Fraction(1, b + d)) - 1) / (6 * n)
    assert float(williams_from_counts(np.array([[a, b], [c, d]])[..., None])[0]) == pytest.approx(float(q), rel=1e-15)


def test_conditional_is_the_strata_sum():
    rng = np.random.default_rng(0)
    T = rng.integers(0, 9, (3, 4, 5)).astype(float)                           # T[x, y, z]
    T[:, :, 1] = 0; T[2, :, 2] = 0                                            # an empty stratum, an absent level
    terms, nus = [], []
    for z in range(T.shape[2]):
        Tz = T[:, :, z]
        R, C, n = Tz.sum(1)[Tz.sum(1) > 0], Tz.sum(0)[Tz.sum(0) > 0], Tz.sum()
        if n == 0: continue
        nus.append((len(R) - 1) * (len(C) - 1))
        terms.append((n * (1 / R).sum() - 1) * (n * (1 / C).sum() - 1) / (6 * n))
    q, nu = williams_from_counts(T)
    assert int(nu) == sum(nus) and float(q) == pytest.approx(1 + sum(terms) / sum(nus), rel=1e-13)


def test_mean_under_independence():
    "What the correction is for: under independence E[G] is above the chi2's nu at small counts, and E[G / q] much nearer."
    rng = np.random.default_rng(1)
    px, py, n = np.array([0.1, 0.2, 0.3, 0.4]), np.array([0.25, 0.75]), 60
    T = rng.multinomial(n, np.outer(px, py).ravel(), size=40_000).reshape(-1, 4, 2)[..., None].astype(float)
    T = T[(T.sum((2, 3)) > 0).all(1) & (T.sum((1, 3)) > 0).all(1)]           # every level observed: nu = 3
    G = 2 * n * cmi_from_counts(T)
    q, nu = williams_from_counts(T)
    assert (nu == 3).all()
    se = G.std() / np.sqrt(len(G))
    assert G.mean() - 3 > 20 * se                                             # G: well above its chi2's mean at n = 60
    assert abs((G / q).mean() - 3) < (G.mean() - 3) / 4                       # G / q: most of that bias gone (order 1/n^2 left)


def test_registry_everywhere():
    assert "g-williams" in TESTS and test_spec("g-williams").permutes is False
    rng = np.random.default_rng(2)
    X, y, z = rng.integers(0, 3, (300, 5)), rng.integers(0, 2, 300), rng.integers(0, 3, (300, 2))
    X[:, 0] = (y + z[:, 0] + (rng.random(300) < 0.3)) % 3
    w, g = ci_test_all(X, y, z, "g-williams"), ci_test_all(X, y, z, "g")
    assert (w.statistic < g.statistic).all() and w.pvalue[0] < 0.01 and (w.pvalue >= g.pvalue - 1e-12).all()
    T = np.stack([np.histogramdd(np.c_[X[:, j], y, z[:, 0] * 3 + z[:, 1]], bins=(3, 2, 9),
                                 range=((0, 3), (0, 2), (0, 9)))[0] for j in range(5)])
    q, nu = williams_from_counts(T)
    np.testing.assert_allclose(w.statistic, g.statistic / q, rtol=1e-12); np.testing.assert_array_equal(w.dof, nu)
    assert make_test("g-williams")(X, y, z).test == "g-williams"              # IAMB's batched test
    ci = make_ci("g-williams")
    assert ci.name == "g-williams" and not ci.randomised
    D = rng.integers(0, 2, (600, 6)); D[:, 5] = ((D[:, 0] + D[:, 1] >= 1) ^ (rng.random(600) < 0.1)).astype(int)
    assert set(iamb(D[:, :5], D[:, 5], 0.05, test="g-williams").selected) >= {0, 1}
    for algorithm in ("mmpc", "gs"):                                           # chapter 04's learners, through make_ci
        assert {0, 1} <= set(markov_blanket(D[:, :5], D[:, 5], test="g-williams", algorithm=algorithm).selected)


def test_sizes_closer_to_alpha():
    "The size at alpha = 0.10 on small labelled tables (the replication 02 setting): nearer alpha with the correction."
    rng = np.random.default_rng(3)
    n, k = 250, 5
    T = rng.multinomial(n, np.outer(np.full(k, 1 / k), [0.8, 0.2]).ravel(), size=20_000).reshape(-1, k, 2)[..., None]
    T = T[(T.sum((1, 3)) > 0).all(1)].astype(float)
    G = 2 * n * cmi_from_counts(T)
    q, nu = williams_from_counts(T)
    size_g = (stats.chi2.sf(G, nu) <= 0.10).mean()
    size_w = (stats.chi2.sf(G / q, nu) <= 0.10).mean()
    assert abs(size_w - 0.10) < abs(size_g - 0.10)
