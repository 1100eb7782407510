"""scikit-learn conformance of semisel.cbound.CBoundWrapper (small forests and few generations so the checks run in seconds).

The estimator keeps semisel's selector contract (`semisel.core.PartialLabelSelector`, `fit(X, y)` with -1/NaN for
unlabelled rows). Every check applies (none is expected to fail)."""
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from semisel.cbound import CBoundWrapper


def small(**kw):
    "A CBoundWrapper cheap enough for the estimator checks."
    return CBoundWrapper(n_estimators=5, n_generations=2, population_size=6, n_parents=3, random_state=0, **kw)


@parametrize_with_checks([small(), small(optimizer="cga")])
def test_sklearn_checks(estimator, check):
    check(estimator)


def partial_data(n=300, d=10, labelled=60, seed=0):
    X, y = make_classification(n_samples=n, n_features=d, n_informative=4, n_redundant=0, n_classes=3,
                               shuffle=False, class_sep=2, random_state=seed)
    yp = y.copy()
    yp[labelled:] = -1
    return X, y, yp


def test_pipeline_pandas_in_and_out():
    X, y, yp = partial_data()
    Xf = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    sel = small(n_init_features=3).set_output(transform="pandas")
    out = sel.fit(Xf, yp).transform(Xf)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == [f"f{j}" for j in np.flatnonzero(sel.get_support())]
    pipe = make_pipeline(small(n_init_features=3), RandomForestClassifier(10, random_state=0))
    pipe.fit(Xf.iloc[:60], y[:60])                  # fully labelled also works (no self-learning needed)
    assert pipe.predict(Xf).shape == (len(Xf),)


def test_nan_labels_mean_unlabelled_and_inputs_untouched():
    X, y, yp = partial_data()
    yn = yp.astype(float); yn[yn == -1] = np.nan
    X0, yn0 = X.copy(), yn.copy()
    a = small().fit(X, yp)
    b = small().fit(X, yn)
    np.testing.assert_array_equal(a.get_support(), b.get_support())
    np.testing.assert_array_equal(X, X0); np.testing.assert_array_equal(yn, yn0)
    assert a.pseudo_labels_.shape == (240,) and (a.pseudo_labels_ >= -1).all()


def test_string_classes():
    X, y, yp = partial_data()
    ys = np.array(["a", "b", "c"], dtype=object)[y]
    ys[60:] = np.nan
    sel = small().fit(X, ys)
    assert list(sel.classes_) == ["a", "b", "c"]


@pytest.mark.parametrize("kw, yfix, match", [
    (dict(n_init_features=0), None, r"n_init_features.*\[1, 10\]"),
    (dict(n_init_features=11), None, r"n_init_features.*\[1, 10\]"),
    (dict(optimizer="pso"), None, "optimizer"),
    ({}, "one_class", "two classes"),
    ({}, "none_labelled", "no labelled rows"),
    ({}, "too_few", "fewer than the 5"),
])
def test_bad_input(kw, yfix, match):
    X, y, yp = partial_data()
    if yfix == "one_class": yp = np.where(yp >= 0, 0, -1)
    if yfix == "none_labelled": yp = np.full_like(yp, -1)
    if yfix == "too_few": yp = np.full_like(yp, -1); yp[:4] = [0, 1, 2, 0]
    with pytest.raises(ValueError, match=match):
        small(**kw).fit(X, yp)


def test_nan_in_X_is_an_error():
    X, y, yp = partial_data()
    X = X.copy(); X[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        small().fit(X, yp)


def test_parallel_evaluation_same_result():
    "Fitness evaluations in joblib worker processes (n_jobs=2) give the sequential selection, scores and history."
    X, y, yp = partial_data()
    for opt in ("fsga", "cga"):
        a, b = small(optimizer=opt).fit(X, yp), small(optimizer=opt, n_jobs=2).fit(X, yp)
        np.testing.assert_array_equal(a.ranking_, b.ranking_)
        np.testing.assert_array_equal(a.scores_, b.scores_)
        pd.testing.assert_frame_equal(a.history_, b.history_)
        assert a.n_evaluations_ == b.n_evaluations_


def test_selector_contract():
    "ranking_ = the selected features by decreasing importance; scores_ = importances of the best subset, NaN outside."
    X, y, yp = partial_data()
    sel = small().fit(X, yp)
    np.testing.assert_array_equal(np.sort(sel.ranking_), np.flatnonzero(sel.support_))
    assert (np.diff(sel.scores_[sel.ranking_]) <= 0).all()
    np.testing.assert_array_equal(np.isnan(sel.scores_), ~sel.support_)
    assert sel.score_name_ == "forest importance" and sel.surrogate_ is None
    np.testing.assert_array_equal(sel.result_.subset, np.flatnonzero(sel.support_))


def test_reproducible():
    X, y, yp = partial_data()
    a, b = small().fit(X, yp), small().fit(X, yp)
    np.testing.assert_array_equal(a.get_support(), b.get_support())
    pd.testing.assert_frame_equal(a.history_, b.history_)


def test_scores_are_the_importances_of_their_own_features():
    "scores_ of the selected features = the importances of a forest fitted on the selection, feature by feature."
    X, y, yp = partial_data()
    for opt in ("fsga", "cga"):
        sel = small(optimizer=opt, n_init_features=4).fit(X, yp)
        fitness, imp, _ = sel.objective_(sel.support_)        # importances in increasing column order
        np.testing.assert_array_equal(sel.scores_[sel.support_], imp)
        assert fitness == sel.best_fitness_


def test_mislabel_cv_self_learning():
    "mislabel_cv='self_learning': the transition matrix of self-learning's pseudo-labels (row-stochastic); bad values fail."
    X, y, yp = partial_data()
    sel = small(mislabel_cv="self_learning").fit(X, yp)
    np.testing.assert_allclose(sel.transition_.sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="mislabel_cv"):
        small(mislabel_cv="oracle").fit(X, yp)


def test_patience_and_progress(capsys):
    "patience stops the GA early (the step is reported); progress writes to stderr only."
    X, y, yp = partial_data()
    sel = CBoundWrapper(n_estimators=5, n_generations=8, population_size=6, n_parents=3, random_state=0, patience=1,
                        progress=True).fit(X, yp)
    assert sel.result_.info["stop"] in ("patience", "n_generations")
    assert len(sel.history_) == sel.result_.info["stopped_at"] + 1
    out = capsys.readouterr()
    assert out.out == "" and "self-learning" in out.err and "generations" in out.err
