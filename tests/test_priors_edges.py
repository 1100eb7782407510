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
