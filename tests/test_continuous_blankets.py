"""The blanket family on continuous and mixed columns (chapter 04c): the learners' bookkeeping against chapter 01b's
tests called directly, the partial-label methods against the learner on the target they make, mixed tables, the
defaults and the errors. Fast (seconds); the parity with bnlearn is tests/test_continuous_blankets_bnlearn.py."""
import warnings

import numpy as np
import pandas as pd
import pytest

from semisel.blankets import ALGORITHMS, default_test, learn_mb, learn_nbr, mixed_table
from semisel.continuous import continuous_test_all
from semisel.iamb import DEFAULT_BLANKET_TEST, DEFAULT_CONTINUOUS_ALPHA, DEFAULT_CONTINUOUS_TEST, LEARNERS, SemiIAMB, markov_blanket, resolve_test
from semisel.surrogates import marc, mcar, pu

warnings.filterwarnings("ignore", category=FutureWarning)


def planted(n=1500, seed=0):
    "A class with a continuous parent a, a child b (and its child c), a spouse sp of the child ch, a noise column and a discrete d."
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    y = (a + rng.normal(size=n) > 0).astype(np.int64)
    b = y + rng.normal(size=n)
    sp = rng.normal(size=n)
    X = pd.DataFrame({"a": a, "b": b, "c": b + rng.normal(size=n), "sp": sp, "ch": y + sp + rng.normal(size=n),
                      "noise": rng.normal(size=n), "d": rng.integers(0, 3, n)})
    return X, y


TRUTH = {"a", "b", "sp", "ch"}


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_learners_find_the_planted_blanket(algorithm):
    "Every member found, and c (the child's child, strongly dependent on the class but outside) left out."
    X, y = planted()
    for test in (None, "ns-mi-cg"):                                              # None: bnlearn's mi-cg
        found = set(learn_mb(X, y, algorithm, test).selected)
        assert TRUTH <= found and "c" not in found, (test, found)


@pytest.mark.parametrize("algorithm", ["iamb", "mmpc", "pc.stable", "hpc"])
def test_every_recorded_test_is_chapter_01b_test(algorithm):
    "Each test a learner records has the p-value of continuous_test_all on the same columns (an independent call)."
    X, y = planted(600, seed=1)
    D = X.assign(y=y)
    res = learn_mb(X, y, algorithm, "mi-cg", trace=True)
    assert res.trace
    cols = list(D.columns)
    for r in res.trace:
        x = cols[r.candidate]
        other = "y" if r.against is None else cols[r.against]
        z = [cols[j] for j in r.conditioning if cols[j] not in (x, other)]
        if len(z) < len(r.conditioning):                                        # a set holding x or y: independence
            assert r.pvalue == 1.0
            continue
        direct = continuous_test_all(D[[x]], D[other].to_numpy(), D[z] if z else None, "mi-cg").pvalue[0]
        assert np.isclose(r.pvalue, direct, rtol=1e-9, atol=1e-12), (r, direct)


def test_pvalues_given_the_rest():
    X, y = planted(800, seed=2)
    res = learn_mb(X, y, "iamb", "mi-cg", pvalues=True)
    for m, p in res.pvalues.items():
        rest = [j for j in res.members if j != m]
        direct = continuous_test_all(X.iloc[:, [m]], y, X.iloc[:, rest] if rest else None, "mi-cg").pvalue[0]
        assert np.isclose(p, direct, rtol=1e-9)


def test_defaults_follow_the_data():
    X, y = planted(300)
    assert default_test(X) == "mi-cg" and default_test(X.astype({"d": float}), X.a.to_numpy()) == "cor"
    assert default_test(X[["d"]]) == "mi"
    assert resolve_test(None, X) == DEFAULT_CONTINUOUS_TEST and resolve_test(None, X[["d"]]) == DEFAULT_BLANKET_TEST
    assert resolve_test("mi-cg", X[["d"]]) == "mi-cg"


@pytest.mark.parametrize("algorithm", LEARNERS)
def test_partial_labels_are_the_learner_on_the_target_they_make(algorithm):
    X, y = planted(1500, seed=3)
    ym = mcar(y, 0.3, random_state=0)
    lab = ym >= 0
    semi = markov_blanket(X, ym, prior=0.5, algorithm=algorithm, random_state=0)
    target = np.where(lab, ym, 0 if semi.surrogate == "Y0" else 1)
    if algorithm == "iamb.papers":
        direct = markov_blanket(X, target, algorithm=algorithm, random_state=0)   # every row labelled: the papers' IAMB
    else:
        direct = learn_mb(X, target, algorithm, DEFAULT_CONTINUOUS_TEST, DEFAULT_CONTINUOUS_ALPHA, random_state=0)
    assert set(semi.selected) == set(direct.selected)
    listwise = markov_blanket(X, ym, method="listwise", algorithm=algorithm, random_state=0)
    if algorithm != "iamb.papers":
        assert set(listwise.selected) == set(learn_mb(X[lab].reset_index(drop=True), ym[lab], algorithm,
                                                      DEFAULT_CONTINUOUS_TEST, DEFAULT_CONTINUOUS_ALPHA, random_state=0).selected)
    assert listwise.n == lab.sum() and listwise.surrogate == "D_L"


@pytest.mark.parametrize("algorithm", ["iamb", "mmpc"])
def test_markov_blanket_reads_the_table_as_the_learner(algorithm):
    """`markov_blanket` hands the learner the table the learner reads itself (all rows, or only the labelled rows for
    Listwise, read afresh): the same members and p-values bit for bit, on a float table (a DataFrame or an array) and on
    a mixed one."""
    X, y = planted(800, seed=5)
    ym = mcar(y, 0.4, random_state=1)
    lab = ym >= 0
    for table in (X, X.drop(columns="d"), X.drop(columns="d").to_numpy()):
        rows = table[lab] if not isinstance(table, pd.DataFrame) else table[lab].reset_index(drop=True)
        for kw, (D, t) in (({"prior": 0.5}, (table, np.where(lab, ym, 0))), ({"method": "listwise"}, (rows, ym[lab]))):
            res = markov_blanket(table, ym, alpha=0.05, test="mi-cg", algorithm=algorithm, **kw)
            ref = learn_mb(D, t, algorithm, "mi-cg", 0.05, pvalues=True)
            assert res.surrogate in ("Y0", "D_L") and res.blanket == ref.members and res.pvalues == ref.pvalues, kw


def test_pu_and_marc_labels():
    X, y = planted(3000, seed=4)
    yp = pu(y, 0.4, random_state=0)
    res = markov_blanket(X, yp)                                                 # PU: Y0 whatever the prior
    assert res.surrogate == "Y0" and {"a", "b"} <= set(res.selected)
    ymc = marc(y, 0.4, 0.3, random_state=0)
    res = markov_blanket(X, ymc, prior=0.5)
    assert res.surrogate in ("Y0", "Y1") and {"a", "b"} <= set(res.selected)


def test_sklearn_selector_on_floats():
    X, y = planted(1500, seed=5)
    ym = mcar(y, 0.3, random_state=1)
    sel = SemiIAMB(prior=0.5, random_state=0).fit(X, ym)
    assert set(sel.get_feature_names_out()) == set(markov_blanket(X, ym, prior=0.5, random_state=0).selected)
    assert np.isnan(sel.scores_[[list(X.columns).index("noise")]]).all()
    arr = SemiIAMB(prior=0.5, random_state=0).fit(X.drop(columns="d").to_numpy(), ym)       # a float array
    assert arr.get_support().sum() == len(markov_blanket(X.drop(columns="d").to_numpy(), ym, prior=0.5, random_state=0))


def test_mixed_tables_any_discrete_type():
    "Strings and categoricals are discrete columns with the codes of their categories: the blanket of the integer codes."
    X, y = planted(1500, seed=6)
    d = X.d.to_numpy()
    as_str = X.assign(d=np.array(["u", "v", "w"])[d])
    as_cat = X.assign(d=pd.Categorical.from_codes(d, ["u", "v", "w"]))
    frame, names = mixed_table(as_str)
    assert frame.iloc[:, 6].tolist() == d.tolist()
    assert names == tuple(X.columns)
    ref = markov_blanket(X, y, algorithm="iamb", random_state=0).selected
    assert markov_blanket(as_str, y, algorithm="iamb", random_state=0).selected == ref
    assert markov_blanket(as_cat, y, algorithm="iamb", random_state=0).selected == ref


def test_units_do_not_matter():
    X, y = planted(1000, seed=7)
    ref = learn_mb(X, y, "mmpc").selected
    assert learn_mb(X.assign(a=X.a * 1e-6 + 3e4, b=X.b * 1e5), y, "mmpc").selected == ref


def test_permutation_tests_seeded():
    X, y = planted(500, seed=8)
    Xc = X.drop(columns="d")
    one = learn_mb(Xc, y, "iamb", "mc-mi-cg", n_perm=99, random_state=3, trace=True)
    two = learn_mb(Xc, y, "iamb", "mc-mi-cg", n_perm=99, random_state=3, trace=True)
    assert one.members == two.members and [r.pvalue for r in one.trace] == [r.pvalue for r in two.trace]
    assert {"a", "b"} <= set(one.selected)


def test_gaussian_tests_with_a_continuous_target():
    "mi-g and zf take continuous data only: a float target (bnlearn's continuous learn.mb)."
    X, y = planted(1500, seed=9)
    Xc, target = X.drop(columns=["d", "b"]), X.b.to_numpy()
    for test in ("mi-g", "zf", "cor"):
        assert "c" in learn_nbr(Xc, target, "mmpc", test).selected
    with pytest.raises(ValueError, match="is for continuous data: the class y"):
        learn_mb(Xc, y, "iamb", "mi-g")
    with pytest.raises(ValueError, match=r"columns \['d'\] discrete"):
        learn_mb(X.drop(columns="b"), target, "iamb", "zf")


def test_errors():
    X, y = planted(200)
    ym = mcar(y, 0.5, random_state=0)
    with pytest.raises(TypeError, match="discretise X"):
        learn_mb(X, y, "iamb", "mi")
    with pytest.raises(TypeError, match="discretise them first"):
        markov_blanket(X, ym, prior=0.5, test="g-adf")
    with pytest.raises(ValueError, match="'pairwise' has no test for continuous features"):
        markov_blanket(X, ym, method="pairwise")
    with pytest.raises(ValueError, match="`levels` declares the levels"):
        learn_mb(X, y, "iamb", "mi-cg", levels=[3] * 7)
    with pytest.raises(ValueError, match=r"`X\['a'\]` has NaN"):
        markov_blanket(X.assign(a=X.a.where(X.a > 0)), ym, prior=0.5)
    Xw = X.assign(a=(X.a - X.a.min()).round(), b=(X.b - X.b.min()).round()).drop(columns=["c", "sp", "ch", "noise"])
    assert markov_blanket(Xw, ym, prior=0.5, test="g-adf").n == 200           # whole-number floats: codes


def test_permutation_decisions_of_discrete_pairs_given_floats():
    "A discrete feature against the class given a float column has no permutation law: decided by the base mi-cg."
    from semisel.blankets import make_ci
    from semisel.continuous import MixedData
    X, y = planted(400, seed=10)
    md = MixedData.join(X[["d", "a", "noise"]], y)[0]
    ci = make_ci("sp-mi-cg", random_state=0)
    both = ci.decision(md, [0, 2], 3, (1,))                                      # d (stuck) and noise (permuted) given a
    assert np.isclose(both.pvalue[0], continuous_test_all(X[["d"]], y, X[["a"]], "mi-cg").pvalue[0], rtol=1e-12)
    base = continuous_test_all(X[["noise"]], y, X[["a"]], "mi-cg")                # noise: sp-mi-cg on mi-cg's statistic
    assert 0 < both.pvalue[1] <= 1 and np.isclose(both.statistic[1], base.statistic[0], rtol=1e-12)


def _screened(monkeypatch, screen, h=None):
    "learn_mb / learn_nbr with chapter 01b's tests built with `screen` set as given, the decision h(association p) if h."
    import dataclasses
    from semisel import blankets
    from semisel.blankets import CIResult
    make = blankets.make_ci

    def ci(*a, **kw):
        t = make(*a, **kw)
        if h is None: return dataclasses.replace(t, screen=screen)
        def decide(md, xs, y, zs=()):
            r = t.association(md, xs, y, zs)
            return CIResult(r.statistic, h(np.asarray(r.pvalue, float)), r.dof)
        return dataclasses.replace(t, decision=decide, randomised=True, screen=screen)
    monkeypatch.setattr(blankets, "make_ci", ci)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_screen_is_every_subset_under_a_decision_below_the_association(monkeypatch, algorithm):
    """`CITest.screen` (chapter 04's `_MixedTests.allsubs`) against deciding at every subset: with a decision p-value
    h(p) <= p increasing in the association's p, the first subset the full search decides independent is the first the
    screen decides, so every learner returns the same set from the same association tests, with fewer decisions."""
    X, y = planted(800, seed=1)
    X = X.assign(e=X.a + X.sp + np.random.default_rng(2).normal(size=len(X)))     # a node with two parents: subsets to search
    out = {}
    for screen in (False, True):
        with monkeypatch.context() as m:
            _screened(m, screen, h=lambda p: p ** 1.5)
            r = learn_mb(X, y, algorithm, "mi-cg", alpha=0.05, trace=True)
            out[screen] = (r.selected, r.n_tests, [(tuple(sorted(map(str, (t.candidate, t.against)))), t.conditioning, t.decision)
                                                   for t in r.trace])
    (every, n_every, dec_every), (screened, n_screened, dec_screened) = out[False], out[True]
    assert every == screened and n_every == n_screened                         # the same set from the same association tests
    independent = lambda d: [r for r in d if r[-1] == "independent"]
    assert independent(dec_every) == independent(dec_screened)                 # the same separations, in the same order
    assert set(dec_screened) <= set(dec_every)                                 # no decision the full search did not make
    if algorithm in ("mmpc", "si.hiton.pc", "hpc", "pc.stable"): assert len(dec_screened) < len(dec_every)   # they search subsets


@pytest.mark.parametrize("algorithm", ["mmpc", "si.hiton.pc"])
def test_screen_answers_as_every_subset_under_any_increasing_decision(monkeypatch, algorithm):
    "A decision p-value above the association's (h(p) = min(1, 3p)): the separating sets may differ, the answers not."
    X, y = planted(800, seed=1)
    found = []
    for screen in (False, True):
        with monkeypatch.context() as m:
            _screened(m, screen, h=lambda p: np.minimum(1.0, 3 * p))
            found.append(learn_nbr(X, y, algorithm, "mi-cg", alpha=0.05).selected)
    assert found[0] == found[1]


def test_screen_only_for_sp_and_seq():
    "The sp- and seq- calibrations screen; the Monte Carlo tests decide every subset, as bnlearn's; the counting ones never."
    from semisel.blankets import make_ci
    assert [make_ci(t).screen for t in ("sp-mi-cg", "seq-mi-cg", "sp-mi-g", "mc-mi-cg", "smc-mi-g", "mi-cg", "mc", "sp")] == \
        [True, True, True, False, False, False, False, False]


@pytest.mark.parametrize("test", [DEFAULT_CONTINUOUS_TEST, "sp-mi-cg"])
def test_screen_fewer_decisions_same_blanket_on_the_planted_one(monkeypatch, test):
    """The default test ("seq-mi-cg") and the previous one ("sp-mi-cg") with and without the screen on the planted
    blanket: both find it, the screen with fewer permutation decisions."""
    X, y = planted()
    runs = {}
    for screen in (False, True):
        with monkeypatch.context() as m:
            _screened(m, screen)
            r = learn_mb(X, y, "mmpc", test, alpha=0.05, random_state=0, trace=True)
        runs[screen] = (set(r.selected), sum(t.phase == "decision" for t in r.trace))
    assert runs[False][0] == runs[True][0] and TRUTH <= runs[True][0] and "c" not in runs[True][0], runs
    assert runs[True][1] < runs[False][1], runs
