"""scikit-learn conformance of the chapter-05 selectors (SemiJMI, SemiMIM, MINT, SurrogateSelector) and their Pipeline use.

The checks feed continuous data, so the estimators are checked with `discretize=5` (they need integer codes otherwise) and
`k=1` (some checks fit a single feature; k larger than the number of features is an error by design). All checks apply;
the four array-API checks are skipped by scikit-learn itself unless SCIPY_ARRAY_API is set."""
import numpy as np
import pandas as pd
import pytest
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from semisel.core import selection_table
from semisel.ranking import MINT, SemiJMI, SemiMIM, SurrogateSelector, mint_select, select, semi_select

ESTIMATORS = [SemiJMI(k=1, discretize=5), SemiMIM(k=1, discretize=5), MINT(k=1, discretize=5),
              SurrogateSelector(criterion="cmim", k=1, discretize=5)]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_checks(estimator, check):
    check(estimator)


def _data(seed=0, n=600, d=8):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, (n, d))
    y = ((X[:, 0] + X[:, 1] + rng.integers(0, 3, n)) > 4).astype(int)
    yp = np.where(rng.random(n) < 0.3, y, -1)
    return pd.DataFrame(X, columns=[f"c{i}" for i in range(d)]), y, yp


def test_fitted_attributes_match_functions():
    X, y, yp = _data()
    est = SemiJMI(k=3, prior=0.4).fit(X, yp)
    ref = semi_select(X, yp, "jmi", 3, 0.4, surrogate="auto", adjusted=False)   # SemiJMI: the papers' settings
    np.testing.assert_array_equal(est.ranking_, ref.ranking)
    np.testing.assert_array_equal(est.scores_, ref.scores)          # NaN for the same unpicked features
    assert est.scores_.shape == (X.shape[1],) and np.isnan(np.delete(est.scores_, est.ranking_)).all()
    assert est.surrogate_ == ref.surrogate and est.threshold_ == ref.threshold
    assert est.score_name_ == "JMI (nats)" and est.score_note_
    m = MINT(k=3).fit(X, yp)
    ref = mint_select(X, yp, 3)
    np.testing.assert_array_equal(m.ranking_, ref.ranking)
    np.testing.assert_array_equal(m.scores_, ref.scores)
    assert (m.surrogate_, m.score_name_) == ("MINT", "MINT (nats)")


def test_selection_table():
    X, y, yp = _data(4)
    est = SurrogateSelector(criterion="mrmr", k=3, surrogate="D_L").fit(X, yp)
    ref = semi_select(X, yp, "mrmr", 3, surrogate="D_L")
    table = selection_table(est)
    pd.testing.assert_frame_equal(table, ref.to_frame())       # the estimator's table is the function's
    assert list(table.columns) == ["position", "feature", "score"] and table.feature.tolist()[0] in X.columns
    assert table.attrs["surrogate"] == "D_L" and table.attrs["score_name"] == "MRMR (nats, adjusted for chance)"   # the default


def test_fully_labelled_multiclass_is_supervised():
    X, y, yp = _data(5)
    y3 = (X.to_numpy()[:, 0] + X.to_numpy()[:, 2]) % 3
    est = SemiMIM(k=3).fit(X, y3)
    np.testing.assert_array_equal(est.ranking_, select(X, y3, "mim", 3).ranking)
    assert est.surrogate_ == "Y" and est.threshold_ is None
    with pytest.raises(ValueError, match="partial labels must be binary"):
        SemiMIM(k=3, prior=0.3).fit(X, np.where(yp == -1, -1, y3))


def test_pandas_names_and_pipeline():
    X, y, yp = _data(1)
    sel = SurrogateSelector(criterion="mrmr", k=2, prior=0.4, surrogate="auto").set_output(transform="pandas").fit(X, yp)
    out = sel.transform(X)
    assert list(out.columns) == list(sel.get_feature_names_out())
    assert set(out.columns) == {X.columns[j] for j in sel.ranking_}
    pipe = make_pipeline(SemiJMI(k=2, prior=0.4), KNeighborsClassifier(3)).fit(X, yp)
    assert pipe.predict(X).shape == (len(X),)


def test_nan_means_unlabelled():
    X, y, yp = _data(2)
    yf = np.where(yp == -1, np.nan, yp.astype(float))
    a, b = SemiJMI(k=3, prior=0.4).fit(X, yp), SemiJMI(k=3, prior=0.4).fit(X, yf)
    np.testing.assert_array_equal(a.ranking_, b.ranking_)


def test_errors():
    X, y, yp = _data(3)
    with pytest.raises(ValueError, match="prior"):
        SemiJMI(k=2).fit(X, yp)
    with pytest.raises(ValueError, match="`k`"):
        SemiJMI(k=99, prior=0.3).fit(X, yp)
    with pytest.raises(TypeError, match="discreti"):
        SemiJMI(k=2, prior=0.3).fit(X + 0.5, yp)
