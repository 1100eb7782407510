"""scikit-learn conformance of `semisel.fscpu.FSCPU`, Pipeline/pandas use, and the invariance of a fixed-seed run to the
speed devices (memo, threads).

The checks run FSCPU with a cheap configuration (k-means with 2 clusters, 3 GA steps, k=1) so that each fit takes
milliseconds. They feed ordinary class targets (0/1, multi-class 0/1/2, strings), whereas FSCPU takes PU labels only
(1 = labelled positive, -1/NaN = unlabelled, read by the core's `partial_labels`; a 0 is an error unless
labelled_negatives="unlabelled", anything else is an error). So the checks run `_CheckedFSCPU`, a subclass whose only
change is to map a class target to PU labels first (the largest class -> 1, the others -> -1); everything else
(validation, the GA, transform, pandas) is FSCPU's own code.
Checks that cannot apply are listed in `EXPECTED_FAILED` with the reason."""
import numpy as np
import pandas as pd
import pytest
from sklearn.cluster import KMeans
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from semisel.experiments.fscpu import make_cluster_pu_data
from semisel.fscpu import FSCPU

class _CheckedFSCPU(FSCPU):
    "FSCPU fitted on an ordinary class target: the largest class is the labelled positive class, the rest unlabelled."
    def fit(self, X, y=None):
        if y is not None:
            y = np.asarray(y)
            y = np.where(y == np.unique(y)[-1], 1, -1) if y.ndim == 1 and len(y) else y
        return super().fit(X, y)


CHEAP = dict(n_iter=3, clusterer=KMeans(2, n_init=1), labelled_negatives="unlabelled", random_state=0)

EXPECTED_FAILED = {
    # The only check that still fails with the _CheckedFSCPU adapter (the xfail is strict: see tests/conftest.py).
    "check_fit2d_1sample": "2 clusters cannot be fitted on 1 row: FSCPU raises a ValueError naming `n_clusters` (not one of "
                           "the messages the check looks for)",
}


def _expected(est):
    return EXPECTED_FAILED


@parametrize_with_checks([_CheckedFSCPU(1, **CHEAP)], expected_failed_checks=_expected)
def test_sklearn_checks(estimator, check):
    check(estimator)


def _small(seed=0):
    return make_cluster_pu_data(True, 0.4, 4, 1, n_neg=400, n_pos=60, n_relevant=4, n_irrelevant=3, n_copies=1, random_state=seed)


def test_pandas_and_pipeline():
    d = _small()
    X = pd.DataFrame(d.X, columns=[f"f{j}" for j in range(d.X.shape[1])])
    sel = FSCPU(4, n_iter=200, clusterer=KMeans(10, n_init=1), random_state=0).set_output(transform="pandas").fit(X, d.y_partial)
    out = sel.transform(X)
    assert list(out.columns) == list(sel.get_feature_names_out()) and out.shape == (len(X), 4)
    pipe = make_pipeline(FSCPU(4, n_iter=20, clusterer=KMeans(10, n_init=1), random_state=0), LogisticRegression())
    pipe.fit(X, d.y_partial)   # y_partial (1/-1) reaches both steps; the classifier treats -1 as a class of its own
    assert pipe.predict(X).shape == (len(X),)


@pytest.mark.parametrize("seed", [0, 1])
def test_speed_devices_do_not_change_the_result(seed):
    d = _small(seed)
    runs = [FSCPU(4, n_iter=120, clusterer=KMeans(10, n_init=1), random_state=seed, **kw).fit(d.X, d.y_partial)
            for kw in ({"cache": False}, {"cache": True}, {"cache": True, "n_jobs": 2}, {"cache": False, "n_jobs": 2})]
    for r in runs[1:]:
        np.testing.assert_array_equal(r.history_["theta"], runs[0].history_["theta"])
        np.testing.assert_array_equal(r.history_["f"], runs[0].history_["f"])
        np.testing.assert_array_equal(r.support_, runs[0].support_)
    assert runs[1].n_evaluations_ <= runs[0].n_evaluations_


def test_default_gmm_deterministic_and_cached():
    d = _small(2)
    a, b = (FSCPU(4, n_iter=10, n_clusters=4, random_state=5, cache=c).fit(d.X, d.y_partial) for c in (True, False))
    np.testing.assert_array_equal(a.history_["theta"], b.history_["theta"])


def test_input_not_modified():
    d = _small(3)
    X, y = d.X.copy(), d.y_partial.copy()
    FSCPU(4, n_iter=5, clusterer=KMeans(3, n_init=1), random_state=0).fit(X, y)
    np.testing.assert_array_equal(X, d.X); np.testing.assert_array_equal(y, d.y_partial)
