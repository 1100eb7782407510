"""Property tests of semisel.surrogates: label validation, surrogates, threshold and simulators (hypothesis)."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from semisel.surrogates import (UNLABELLED, check_partial_labels, surrogate_labels, labelled_only, switching_threshold,
                                choose_surrogate, mcar, marc, pu, sample_with_mi)

labels = st.lists(st.sampled_from([1, 0, -1]), min_size=1, max_size=60).filter(lambda v: any(x != -1 for x in v))


@given(labels)
def test_counts_and_surrogates(v):
    y = np.array(v)
    c = check_partial_labels(y)
    assert (c.p, c.n, c.m) == ((y == 1).sum(), (y == 0).sum(), (y == -1).sum())
    y0, y1 = surrogate_labels(y, 0), surrogate_labels(y, 1)
    assert y0.sum() == c.p and (1 - y1).sum() == c.n
    assert set(np.unique(y0)) <= {0, 1}
    np.testing.assert_array_equal(y, np.array(v))            # input untouched


@given(labels)
def test_threshold_matches_definition_3(v):
    c = check_partial_labels(v)
    N = c.p + c.n + c.m
    q0, q1 = c.p / N, c.n / N
    phi = switching_threshold(v)
    assert 0 <= phi <= 1
    if 0 < q0 and 0 < q1:
        assert phi == pytest.approx(1 / (1 + np.sqrt((1 - q0) * q1 / (q0 * (1 - q1)))), rel=1e-12)


@given(labels, st.floats(0.001, 0.999))
def test_choice_follows_threshold(v, prior):
    ch = choose_surrogate(v, prior)
    assert ch.surrogate == ("Y0" if prior < ch.threshold else "Y1")
    np.testing.assert_array_equal(ch.labels, surrogate_labels(v, ch.fill))


def test_labelled_only_types():
    X = pd.DataFrame({"a": [1, 2, 3]})
    X_l, y_l = labelled_only(X, [1, -1, 0])
    assert isinstance(X_l, pd.DataFrame) and list(y_l) == [1, 0]
    x_l, _ = labelled_only(np.array([5, 6, 7]), [np.nan, 1, 0])
    assert list(x_l) == [6, 7]


@pytest.mark.parametrize("mode", ["exact", "bernoulli"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), pl=st.floats(0.1, 0.9))
def test_simulators_hide_only(mode, seed, pl):
    y = (np.random.default_rng(seed).random(400) < 0.4).astype(int)
    for yp in (mcar(y, pl, mode=mode, random_state=seed), pu(y, pl, mode=mode, random_state=seed)):
        keep = yp != UNLABELLED
        np.testing.assert_array_equal(yp[keep], y[keep])
    assert (pu(y, pl, mode=mode, random_state=seed) != 0).all()


def test_marc_counts_exact():
    y = np.r_[np.ones(200, int), np.zeros(800, int)]
    c = check_partial_labels(marc(y, 0.2, 0.25, random_state=0))
    assert (c.p, c.n, c.m) == (50, 150, 800)


@settings(max_examples=30, deadline=None)
@given(arity=st.integers(2, 8), p_y=st.floats(0.05, 0.95), frac=st.floats(0, 1), seed=st.integers(0, 999))
def test_sample_with_mi_hits_target(arity, p_y, frac, seed):
    h = -(p_y * np.log(p_y) + (1 - p_y) * np.log(1 - p_y))
    _, _, tab = sample_with_mi(5, arity, p_y, frac * h, random_state=seed)
    assert abs(tab.mi - frac * h) < 1e-6
