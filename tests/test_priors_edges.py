"""estimate_prior at its edges (issue 42, item 10): too few bootstrap replicates, and PU samples too small to cross-fit.

On main before the fix, `estimate_prior(n_boot=1)` returned an interval that excluded its own estimate, and samples with
enough labelled positives but few unlabelled rows passed the size check and failed inside scikit-learn (or TIcE) with
its own message."""
import numpy as np
import pytest

from semisel.priors import PU_CHOICES, estimate_prior


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(0)
    y = (rng.random(400) < 0.4).astype(int)
    X = rng.normal(size=(400, 3)) + 1.5 * y[:, None]
    return X, np.where(y.astype(bool) & (rng.random(400) < 0.4), 1, -1)


@pytest.mark.parametrize("n_boot", [1, 2, 39])
@pytest.mark.parametrize("interval", ["percentile", "bounds"])
def test_too_few_replicates_are_refused(table, n_boot, interval):
    X, yp = table
    with pytest.raises(ValueError, match=rf"`n_boot`={n_boot} is too few for a 95% {interval} interval.*at least 40"):
        estimate_prior(X, yp, n_boot=n_boot, interval=interval, random_state=0)
    # the minimum follows the level: 2 / (1 - level) replicates
    with pytest.raises(ValueError, match="at least 20"):
        estimate_prior(X, yp, n_boot=10, level=0.9, interval=interval, random_state=0)


def test_no_replicates_give_the_bounds_or_an_error(table):
    X, yp = table
    r = estimate_prior(X, yp, n_boot=0, interval="bounds", random_state=0)
    assert r.low == pytest.approx((yp == 1).mean()) and r.low <= r.estimate <= r.high < 1
    with pytest.raises(ValueError, match="at least 40"):
        estimate_prior(X, yp, n_boot=0, interval="percentile", random_state=0)


@pytest.mark.parametrize("method", PU_CHOICES)
@pytest.mark.parametrize("interval", ["percentile", "bounds"])
def test_the_interval_holds_its_estimate(table, method, interval):
    X, yp = table
    r = estimate_prior(X, yp, method=method, n_boot=40, interval=interval, random_state=1)
    assert r.low <= r.estimate <= r.high, r


@pytest.mark.parametrize("method", PU_CHOICES)
@pytest.mark.parametrize("p, m", [(10, 1), (10, 2), (12, 3), (10, 9), (9, 50)])
def test_tiny_samples_fail_early_with_one_line(method, p, m):
    rng = np.random.default_rng(0)
    X, yp = rng.normal(size=(p + m, 2)), np.r_[np.ones(p), -np.ones(m)]
    with pytest.raises(ValueError) as e:
        estimate_prior(X, yp, method=method, n_boot=40, random_state=0)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"`y_partial` has {p} labelled positive(s) and {m} unlabelled row(s)"), msg
    assert "at least 10 of each" in msg and "`n_folds`" in msg


def test_the_smallest_sample_that_passes_runs(table):
    rng = np.random.default_rng(0)
    X, yp = rng.normal(size=(20, 2)), np.r_[np.ones(10), -np.ones(10)]
    for method in PU_CHOICES:
        r = estimate_prior(X, yp, method=method, n_boot=40, random_state=0)
        # the estimate is a usable prior (< 1); the interval's upper end may be 1: 10 unlabelled rows cannot rule out
        # that every one of them is positive (the bounds of chapter 02b)
        assert 0.5 <= r.low <= r.estimate <= r.high <= 1 and r.estimate < 1, (method, r)


# ---- the default interval's promise (chapter 02b, issue 39 item 4), over replicates of simulated PU tables whose truth we
# know: where an anchor set exists the 95% interval covers at about its level; where the classes overlap everywhere the
# prior is only bounded, and a draw called bounded gets the interval [labelled share, U], which holds the truth.

def _pu_table(seed, kind, n=800, prior=0.35, c=0.4):
    """A PU table and its true prior. "anchor": Gaussian, the positives shifted by 3 on two of three features, the
    negatives kept below 1.5 on the first (so x0 > 1.5, most of the positives, holds positives only). "flat": positives
    uniform on [0, 2] and negatives on [-1, 1] in feature 0, two noise features (x0 > 1 holds half the positives, and
    p(y=1|x) is flat there). "overlap": Gaussian, the positives shifted by 1 on two features (no region free of
    negatives: the prior is only bounded)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prior
    if kind == "flat": X = np.c_[np.where(y, rng.uniform(0, 2, n), rng.uniform(-1, 1, n)), rng.normal(size=(n, 2))]
    else: X = rng.normal(size=(n, 3)) + np.outer(y, [3.0, 3.0, 0.0] if kind == "anchor" else [1.0, 1.0, 0.0])
    while kind == "anchor" and (bad := ~y & (X[:, 0] > 1.5)).any(): X[bad, 0] = rng.normal(size=bad.sum())
    yp = np.where(y & (rng.random(n) < c), 1, -1)
    return X, yp, y.mean()


def _replicates(kind, reps):
    out = []
    for seed in range(reps):
        X, yp, truth = _pu_table(seed, kind)
        r = estimate_prior(X, yp, random_state=seed)
        out.append((r.low, r.estimate, r.high, r.identified, truth, (yp == 1).mean()))
    return np.array(out, dtype=float).T


def _slack(reps, level=0.95):
    "Three binomial standard errors of a coverage rate at `level` over `reps` replicates."
    return 3 * np.sqrt(level * (1 - level) / reps)


def _check_identified(kind, reps=40):
    low, est, high, identified, truth, share = _replicates(kind, reps)
    covered = (low <= truth) & (truth <= high)
    assert covered.mean() >= 0.95 - _slack(reps), (covered.mean(), np.c_[low, est, high, truth][~covered])
    # not vacuous: the anchor diagnostic calls most of them identified (its rank test rejects a pure bin at its level,
    # ANCHOR_LEVEL), and where it does the point is close to the truth (chapter 02b's goal: MAE <= 0.05)
    ident = identified.astype(bool)
    assert ident.mean() >= 0.5, ident.mean()
    assert np.abs(est - truth)[ident].mean() <= 0.05, np.abs(est - truth)[ident].mean()


def test_identified_prior_interval_covers_at_its_level():
    _check_identified("anchor")


@pytest.mark.xfail(strict=True, reason="known limit of the default (found by this test): where p(y=1|x) is flat on the "
                   "anchor set and noise features are present, the default trees' cross-fitted scores rank the anchor's "
                   "rows by noise, BBE's top bin takes in negatives, and the estimate overshoots (coverage 0.825 over "
                   "these 40 draws; MAE 0.13 over 20 draws of 3,000 rows) while the rank test passes")
def test_identified_prior_interval_covers_at_its_level_on_a_flat_anchor():
    _check_identified("flat")


def test_bounded_prior_interval_runs_from_the_labelled_share_and_holds_the_truth():
    reps = 30
    low, est, high, identified, truth, share = _replicates("overlap", reps)
    bounded = ~identified.astype(bool)
    assert bounded.sum() >= 5, bounded.sum()                          # the overlap is seen on some draws at least
    np.testing.assert_allclose(low[bounded], share[bounded])           # bounded: the lower end is the labelled share
    assert ((low <= est) & (est <= high)).all()
    # U bounds the largest prior the data allow, which here lies above the truth: the upper end holds it on every draw
    # called bounded, and at about its level over all draws (those called identified included)
    assert (truth[bounded] <= high[bounded]).all(), np.c_[high, truth][bounded]
    assert (truth <= high).mean() >= 0.95 - _slack(reps)
