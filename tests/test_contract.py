"""One contract for every selecting estimator (semisel.core.PartialLabelSelector): the same fit signature, the same
meaning of support_, ranking_, scores_ (higher is better), pvalues_ (for the selectors that test),
score_name_/score_note_, surrogate_/threshold_, and one selection_table."""
import numpy as np
import pandas as pd
import pytest
from sklearn.cluster import KMeans

from semisel.cbound import CBoundWrapper
from semisel.competitors import CLS, FWSemiFS, RRPC, SemiFS
from semisel.core import PartialLabelSelector, selection_table
from semisel.fscpu import FSCPU
from semisel.iamb import SemiIAMB
from semisel.ranking import MINT, SemiJMI, SemiMIM, SurrogateSelector


def _data(seed=0, n=400, d=6):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, d))
    y = ((X[:, 0] + X[:, 1] + rng.integers(0, 2, n)) >= 3).astype(int)
    y_partial = np.where(rng.random(n) < 0.4, y, -1)
    y_pu = np.where((y == 1) & (rng.random(n) < 0.5), 1, -1)
    return pd.DataFrame(X, columns=[f"f{j}" for j in range(d)]), y_partial, y_pu


FACTORIES = {
    "SemiJMI": (lambda: SemiJMI(k=3, prior=0.4), "partial"),
    "SemiMIM": (lambda: SemiMIM(k=3, prior=0.4), "partial"),
    "SurrogateSelector": (lambda: SurrogateSelector("cmim", k=3), "partial"),           # the default rule needs no prior
    "MINT": (lambda: MINT(k=3), "partial"),
    "SemiIAMB": (lambda: SemiIAMB(prior=0.4), "partial"),
    "FSCPU": (lambda: FSCPU(3, n_iter=30, clusterer=KMeans(3, n_init=1), random_state=0), "pu"),
    "CBoundWrapper": (lambda: CBoundWrapper(n_generations=1, population_size=4, n_parents=2, n_estimators=10,
                                            random_state=0), "partial"),
    "RRPC": (lambda: RRPC(k=3), "partial"),
    "CLS": (lambda: CLS(k=3), "partial"),
    "SemiFS": (lambda: SemiFS(k=3), "partial"),
    "FWSemiFS": (lambda: FWSemiFS(k=3, random_state=0), "partial"),
}


@pytest.fixture(params=sorted(FACTORIES))
def fitted(request):
    make, kind = FACTORIES[request.param]
    X, y_partial, y_pu = _data()
    return make().fit(X, y_pu if kind == "pu" else y_partial), X


def test_one_contract(fitted):
    est, X = fitted
    d = X.shape[1]
    assert isinstance(est, PartialLabelSelector)
    assert est.n_features_in_ == d and list(est.feature_names_in_) == list(X.columns)
    assert est.support_.dtype == bool and est.support_.shape == (d,)
    r = np.asarray(est.ranking_)
    assert r.ndim == 1 and len(set(r.tolist())) == len(r), "ranking_ lists each selected feature once"
    assert set(r.tolist()) == set(np.flatnonzero(est.support_).tolist()), "ranking_ is the selected features"
    assert est.scores_.dtype == np.float64 and est.scores_.shape == (d,), "one score per feature"
    assert np.isfinite(est.scores_[r]).all(), "every selected feature is scored"
    assert isinstance(est.score_name_, str) and est.score_name_ and isinstance(est.score_note_, str) and est.score_note_
    assert hasattr(est, "surrogate_") and hasattr(est, "threshold_")
    table = selection_table(est)
    has_p, extra, by_score = hasattr(est, "pvalues_"), list(getattr(est, "columns_", {})), "entered" in table.columns
    assert list(table.columns) == ["position", "feature", *extra, "score"] + ["pvalue"] * has_p + ["entered"] * by_score
    rows = r[table.entered.to_numpy() - 1] if by_score else r      # a set (a blanket) by score, its selection order kept
    if by_score: assert sorted(table.entered) == list(range(1, len(r) + 1)) and (np.diff(table.score) <= 0).all()
    assert table.feature.tolist() == [X.columns[j] for j in rows] and table.position.tolist() == list(range(1, len(r) + 1))
    if has_p:   # a selector that tests: one p-value per feature, each selected feature's in the table
        assert est.pvalues_.shape == (d,) and ((est.pvalues_[r] >= 0) & (est.pvalues_[r] <= 1)).all()
        np.testing.assert_array_equal(table.pvalue.to_numpy(), est.pvalues_[rows])
    for key in extra:   # more columns (JMI's mean): one value per feature, each selected feature's in the table
        assert est.columns_[key].values.shape == (d,) and est.columns_[key].name
        np.testing.assert_array_equal(table[key].to_numpy(), est.columns_[key].values[rows])
    np.testing.assert_array_equal(table.score.to_numpy(), est.scores_[rows])
    assert table.attrs["score_name"] == est.score_name_ and table.attrs["method"] == type(est).__name__
    out = est.set_output(transform="pandas").transform(X)
    assert list(out.columns) == list(est.get_feature_names_out()) and len(out) == len(X)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_y_is_required_and_checked(name):
    make, _ = FACTORIES[name]
    X, y_partial, _ = _data(1)
    with pytest.raises(ValueError, match="requires y to be passed"):
        make().fit(X, None)
    with pytest.raises(ValueError, match="rows but `X` has"):
        make().fit(X, y_partial[:-5])


# The selectors that keep the k (or a subset of) features by their score, in decreasing score: `ranking_` must follow
# `scores_` downwards (higher is better); True: the top k of all features, so no unselected feature scores higher.
BY_SCORE = {"SemiMIM": True, "CLS": True, "SemiFS": True, "FWSemiFS": True, "FSCPU": False, "CBoundWrapper": False}


@pytest.mark.parametrize("name", sorted(BY_SCORE))
def test_scores_higher_is_better(name):
    make, kind = FACTORIES[name]
    X, y_partial, y_pu = _data(2)
    est = make().fit(X, y_pu if kind == "pu" else y_partial)
    s = est.scores_[est.ranking_]
    assert (np.diff(s) <= 1e-12).all(), f"{name}: ranking_ is not by decreasing scores_ {s}"
    if BY_SCORE[name]:
        rest = np.delete(est.scores_, est.ranking_)
        assert not (rest[~np.isnan(rest)] > s[-1] + 1e-12).any(), f"{name}: an unselected feature scores higher"


def test_semi_iamb_scores_are_minus_log10_pvalues():
    X, y_partial, _ = _data(3)
    est = SemiIAMB(prior=0.4).fit(X, y_partial)
    r = est.ranking_
    np.testing.assert_allclose(est.scores_[r], -np.log10(np.maximum(est.pvalues_[r], np.finfo(float).tiny)))
    assert np.isnan(np.delete(est.pvalues_, r)).all() == np.isnan(np.delete(est.scores_, r)).all()
