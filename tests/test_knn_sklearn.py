"""The kNN estimators of chapter 01c against scikit-learn, and the chapter-05 selectors on continuous columns as
scikit-learn estimators.

`mutual_info_classif` scales, jitters from a legacy RandomState and computes Ross's estimate; fed the same jittered data
(scikit-learn's preprocessing reproduced, ours off with noise=0), semisel's estimate is equal to rounding, on data with
ties, small classes, several classes and several k. The selectors without `discretize` estimate float columns by kNN
(estimator "auto"), so scikit-learn's checks, which feed floats, run them on that path."""
import numpy as np
import pytest
from sklearn.feature_selection import mutual_info_classif, mutual_info_regression
from sklearn.preprocessing import scale
from sklearn.utils.estimator_checks import parametrize_with_checks

from semisel.knn import knn_mutual_info_all
from semisel.ranking import MINT, SemiJMI, SemiMIM, SurrogateSelector


def _jitter(A, rs):
    "scikit-learn's preprocessing of continuous columns in `_estimate_mi`: scale, then 1e-10 jitter from `rs`."
    As = scale(np.asarray(A, dtype=np.float64), with_mean=False)
    if As.ndim == 1: return As + 1e-10 * max(1, np.abs(As).mean()) * rs.standard_normal(len(As))
    return As + 1e-10 * np.maximum(1, np.abs(As).mean(0)) * rs.standard_normal(As.shape)


@pytest.mark.parametrize("seed", range(6))
def test_ross_equals_mutual_info_classif(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 800))
    X = rng.normal(size=(n, 5))
    X[:, 1] = np.round(X[:, 1])                                     # ties
    X[:, 2] = np.where(rng.random(n) < 0.7, 0.0, X[:, 2])           # a point mass at 0 (a word frequency)
    y = rng.integers(0, 2 + seed % 3, n)
    y[0] = y.max() + 1                                              # a class of one row: left out by both
    for k in (1, 3, 7):
        ref = mutual_info_classif(X, y, n_neighbors=k, random_state=seed)
        ours = knn_mutual_info_all(_jitter(X, np.random.RandomState(seed)), y, n_neighbors=k, noise=0)
        np.testing.assert_allclose(np.maximum(ours, 0), ref, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_ksg_equals_mutual_info_regression(seed):
    rng = np.random.default_rng(10 + seed)
    n = int(rng.integers(50, 600))
    X = rng.normal(size=(n, 3))
    t = X[:, 0] + np.sin(3 * X[:, 1]) + rng.normal(size=n)
    rs = np.random.RandomState(seed)
    Xj, tj = _jitter(X, rs), _jitter(t, rs)                         # X's jitter first, then the target's, as scikit-learn
    for k in (2, 3, 6):
        ref = mutual_info_regression(X, t, n_neighbors=k, random_state=seed)
        np.testing.assert_allclose(np.maximum(knn_mutual_info_all(Xj, tj, n_neighbors=k, noise=0), 0), ref, atol=1e-12)


ESTIMATORS = [SemiJMI(k=1), SemiMIM(k=1), MINT(k=1), SurrogateSelector(criterion="cmim", k=1),
              SemiJMI(k=1, estimator="knn")]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_checks_on_the_knn_path(estimator, check):
    check(estimator)
