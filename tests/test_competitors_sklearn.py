"""scikit-learn conformance of the chapter-05b selectors (FWSemiFS, CLS, SemiFS, RRPC), and their Pipeline / pandas use.

The selectors take binary partial labels (1 / 0, -1 or NaN = unlabelled, read by the core's `partial_labels`);
scikit-learn's checks feed ordinary class targets, often with three classes (0/1/2), which a binary selector refuses by
design. So the checks run `_Checked*` subclasses whose only change is to map a class target to binary partial labels
first: the largest class -> 1, the others -> 0, and every third row unlabelled (-1) when both classes stay labelled.
Everything else (validation, the selection, transform, pandas) is the selectors' own code. Each check runs with `k=1`
(some checks fit a single feature) and cheap FW-SemiFS settings. Without the adapter 15 of the 48 checks fail
because they feed three-class targets; with it every check applies. The array-API check is skipped by scikit-learn
itself (once per estimator) unless SCIPY_ARRAY_API is set."""
import numpy as np
import pandas as pd
import pytest
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from semisel.competitors import CLS, RRPC, FWSemiFS, SemiFS, cls_select, fw_semifs_select, rrpc_select, semifs_select


def _binary_target(y):
    "Class target -> binary partial labels: largest class 1, others 0; every 3rd row -1 if both classes stay labelled."
    y = np.asarray(y)
    if y.ndim != 1 or not len(y):
        return y
    yb = (y == np.unique(y)[-1]).astype(int)
    yp = np.where(np.arange(len(y)) % 3 == 2, -1, yb)
    return yp if len(np.unique(yp[yp != -1])) == 2 else yb


class _BinaryTarget:
    "Mixin: fit on `_binary_target(y)`; everything else is the selector's own."
    def fit(self, X, y=None):
        return super().fit(X, None if y is None else _binary_target(y))


class _CheckedFWSemiFS(_BinaryTarget, FWSemiFS): pass
class _CheckedCLS(_BinaryTarget, CLS): pass
class _CheckedSemiFS(_BinaryTarget, SemiFS): pass
class _CheckedRRPC(_BinaryTarget, RRPC): pass


ESTIMATORS = [_CheckedFWSemiFS(k=1, n_iter=2, random_state=0), _CheckedCLS(k=1), _CheckedSemiFS(k=1), _CheckedRRPC(k=1)]

@parametrize_with_checks(ESTIMATORS)
def test_sklearn_checks(estimator, check):
    check(estimator)


def _data(seed=0, n=400, d=8):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (1.5 * X[:, 0] + X[:, 1] + rng.normal(0, 0.5, n) > 0).astype(int)
    yp = np.where(rng.random(n) < 0.3, y, -1)
    return pd.DataFrame(X, columns=[f"c{i}" for i in range(d)]), y, yp


SELECTORS = [(FWSemiFS(k=2, random_state=0), lambda X, y: fw_semifs_select(X, y, 2, random_state=0)),
             (CLS(k=2), lambda X, y: cls_select(X, y, 2)), (SemiFS(k=2), lambda X, y: semifs_select(X, y, 2)),
             (RRPC(k=2), lambda X, y: rrpc_select(X, y, 2))]


@pytest.mark.parametrize("est,fn", SELECTORS, ids=[type(s).__name__ for s, _ in SELECTORS])
def test_fitted_attributes_match_functions(est, fn):
    X, y, yp = _data()
    est.fit(X, yp)
    ref = fn(X, yp)
    np.testing.assert_array_equal(est.ranking_, ref.ranking)
    np.testing.assert_array_equal(est.scores_, ref.scores)
    assert est.score_name_ == ref.score_name and est.surrogate_ is None and est.threshold_ is None


@pytest.mark.parametrize("est", [s for s, _ in SELECTORS], ids=lambda v: type(v).__name__)
def test_pandas_names_pipeline_and_nan_labels(est):
    X, y, yp = _data(1)
    sel = est.set_output(transform="pandas").fit(X, yp)
    out = sel.transform(X)
    assert list(out.columns) == list(sel.get_feature_names_out())
    assert set(out.columns) == {X.columns[j] for j in sel.ranking_}
    yf = np.where(yp == -1, np.nan, yp.astype(float))
    np.testing.assert_array_equal(type(est)(**est.get_params()).fit(X, yf).ranking_, sel.ranking_)
    pipe = make_pipeline(type(est)(**est.get_params()), KNeighborsClassifier(3)).fit(X[yp != -1], yp[yp != -1])
    assert pipe.predict(X).shape == (len(X),)


@pytest.mark.parametrize("est", [s for s, _ in SELECTORS], ids=lambda v: type(v).__name__)
def test_inputs_not_modified_and_errors(est):
    X, y, yp = _data(2)
    Xa, ya = X.to_numpy().copy(), yp.copy()
    est.fit(Xa, ya)
    np.testing.assert_array_equal(Xa, X.to_numpy())
    np.testing.assert_array_equal(ya, yp)
    with pytest.raises(ValueError, match="`k` must be an integer in \\[1, 8\\], got 9"):
        type(est)(k=9).fit(Xa, ya)
    with pytest.raises(ValueError, match="needs labelled rows of two classes"):
        type(est)(k=2).fit(Xa, np.where(ya == 0, -1, ya))
    with pytest.raises(ValueError, match="`y` must hold 1, 0 or -1"):
        type(est)(k=2).fit(Xa, np.where(ya == 0, 2, ya))
    with pytest.raises(ValueError, match="`y` has 10 rows but `X` has 400"):
        type(est)(k=2).fit(Xa, ya[:10])
