"""Deterministic relations in the blanket learners (issue 42, item 8): a duplicated column and a copy of the target.

A test of X given a set that determines X (or the target) is vacuous: G = 0 whatever the data say. pc.stable then
separates both copies of a duplicated column from the target (each given the other), and everything from a target that
a column determines; bnlearn 4.9 does the same (asserted where R and bnlearn are installed) and documents nothing of it.
semisel says so: a warning names the columns separated by such tests. Learners that add one feature at a time keep one
copy."""
import warnings

import numpy as np
import pandas as pd
import pytest

from semisel.blankets import bnlearn_available, bnlearn_learn, learn_mb, learn_nbr
from semisel.iamb import markov_blanket


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    n = 2000
    y = rng.integers(0, 2, n)
    noisy = lambda: np.where(rng.random(n) < .8, y, 1 - y)
    X = pd.DataFrame({"a": noisy(), "b": noisy(), **{f"n{i}": rng.integers(0, 3, n) for i in range(6)}})
    yp = np.where(rng.random(n) < .5, y, -1)
    copy = X.assign(c=np.where(y == 1, 2 * rng.integers(0, 2, n), 1), yc=y)   # c determines y, yc is y
    return X, y, yp, copy


def caught(f):
    "The result of f() and the messages of the warnings it gave."
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = f()
    return out, [str(x.message) for x in w]


def test_duplicated_column_is_named(data):
    X, y, yp, _ = data
    res, msgs = caught(lambda: markov_blanket(X.assign(a2=X.a), yp, prior=.5, algorithm="pc.stable"))
    assert "a" not in res.selected and "a2" not in res.selected          # both copies dropped, as bnlearn does
    assert any("pc.stable separated ['a', 'a2']" in m and "vacuous" in m for m in msgs), msgs
    assert "a" in markov_blanket(X.assign(a2=X.a), yp, prior=.5, algorithm="mmpc").selected   # one at a time: kept
    _, msgs = caught(lambda: markov_blanket(X, yp, prior=.5, algorithm="pc.stable"))
    assert not any("vacuous" in m for m in msgs)                          # no deterministic relation: no warning


def test_copy_of_the_target_is_named(data):
    X, y, yp, copy = data
    res, msgs = caught(lambda: learn_mb(copy, y, "pc.stable", "adf"))
    assert res.selected == []                                             # every test given c or yc is vacuous
    assert any("'c', 'yc'" in m for m in msgs), msgs
    _, msgs = caught(lambda: learn_nbr(copy, y, "pc.stable", "adf"))
    assert any("vacuous" in m for m in msgs), msgs


@pytest.mark.skipif(not bnlearn_available(), reason="R with bnlearn 4.9 is not available")
def test_bnlearn_does_the_same(data):
    X, y, _, copy = data
    for frame in (X.assign(a2=X.a), copy):
        for alg, kind in (("pc.stable", "nbr"), ("mmpc", "nbr"), ("iamb", "mb")):
            theirs = bnlearn_learn(frame.assign(T=y), [("T", alg, kind)], "mi-adf", 0.05).members[0]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ours = (learn_mb if kind == "mb" else learn_nbr)(frame, y, alg, "adf", 0.05)
            assert set(ours.selected) == set(theirs), (alg, list(frame.columns)[-2:])
