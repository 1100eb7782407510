"""Property tests of semisel.infotheory (hypothesis): identities of information theory that any correct estimator keeps."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics import mutual_info_score

from semisel.infotheory import (cond_mutual_info, cond_mutual_info_all, encode_joint, entropy, g_test, joint_entropy,
                                mutual_info, mutual_info_all)

ATOL = 1e-10


@st.composite
def columns(draw, n_cols=2, max_code=5):
    "`n_cols` integer code vectors of one common length (1..200)."
    n = draw(st.integers(1, 200))
    return [draw(arrays(np.int64, n, elements=st.integers(0, max_code))) for _ in range(n_cols)]


@settings(max_examples=200, deadline=None)
@given(columns(2))
def test_mi_nonnegative_symmetric_and_matches_sklearn(cols):
    x, y = cols
    mi = mutual_info(x, y)
    assert mi >= 0
    assert mi == pytest.approx(mutual_info(y, x), abs=ATOL)
    assert mi == pytest.approx(mutual_info_score(x, y), abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(columns(1))
def test_self_information_is_entropy(cols):
    (x,) = cols
    assert mutual_info(x, x) == pytest.approx(entropy(x), abs=ATOL)


@settings(max_examples=200, deadline=None)
@given(columns(3, max_code=3))
def test_chain_rule(cols):
    x, y, z = cols
    # I(X,Z;Y) = I(Z;Y) + I(X;Y|Z)
    assert mutual_info(encode_joint(x, z), y) == pytest.approx(mutual_info(z, y) + cond_mutual_info(x, y, z), abs=1e-9)
    # H(X,Y) = H(X) + H(Y) - I(X;Y)
    assert joint_entropy(x, y) == pytest.approx(entropy(x) + entropy(y) - mutual_info(x, y), abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(columns(3, max_code=4), st.randoms(use_true_random=False))
def test_invariance_under_relabelling(cols, rnd):
    x, y, z = cols
    perm = lambda v: np.array(rnd.sample(range(1000), 5))[v]  # injective map of codes 0..4 to sparse codes
    assert cond_mutual_info(perm(x), perm(y), perm(z)) == pytest.approx(cond_mutual_info(x, y, z), abs=ATOL)
    assert g_test(perm(x), y, z).statistic == pytest.approx(g_test(x, y, z).statistic, abs=1e-8)


@settings(max_examples=200, deadline=None)
@given(columns(3, max_code=4))
def test_conditioning_on_a_determinant_gives_zero(cols):
    x, y, z = cols
    parent = encode_joint(x, z)  # Z' = (X, Z) determines X
    assert cond_mutual_info(x, y, parent) == pytest.approx(0, abs=ATOL)
    assert cond_mutual_info(x, y, x) == pytest.approx(0, abs=ATOL)


@settings(max_examples=200, deadline=None)
@given(columns(4, max_code=6))
def test_encode_joint_is_injective_and_compact(cols):
    M = np.column_stack(cols)
    codes = encode_joint(M)
    rows = {tuple(r) for r in M}
    assert codes.min() == 0 and codes.max() == len(rows) - 1
    # injective: equal codes <=> equal rows
    first = {}
    for r, c in zip(map(tuple, M), codes):
        assert first.setdefault(c, r) == r
    assert len(first) == len(rows)


def test_encode_joint_never_overflows():
    rng = np.random.default_rng(0)
    M = rng.integers(0, 2**40, size=(500, 12))  # the product of arities is far beyond int64
    codes = encode_joint(M)
    assert len(np.unique(codes)) == len({tuple(r) for r in M})


@settings(max_examples=100, deadline=None)
@given(columns(4, max_code=3))
def test_batched_equals_one_at_a_time(cols):
    x1, x2, y, z = cols
    X = np.column_stack([x1, x2])
    np.testing.assert_allclose(cond_mutual_info_all(X, y, z), [cond_mutual_info(x1, y, z), cond_mutual_info(x2, y, z)], atol=ATOL)
    np.testing.assert_allclose(mutual_info_all(X, y), [mutual_info(x1, y), mutual_info(x2, y)], atol=ATOL)


@settings(max_examples=100, deadline=None)
@given(columns(3, max_code=3))
def test_g_is_2n_cmi(cols):
    x, y, z = cols
    res = g_test(x, y, z)
    assert res.statistic == pytest.approx(2 * len(x) * cond_mutual_info(x, y, z), abs=1e-8)
    assert 0 <= res.pvalue <= 1 and res.dof >= 1
