"""The replications' audit rule (replications/00, semisel.experiments): a claim's outcome, a row's status, and the null
control that decides whether a comparison is evidence."""
import numpy as np
import pytest

from semisel.experiments import (LEVELS, OUTCOMES, check_record, claim_outcome, claims_table, flip_signs, null_share,
                                 row_status, shuffle_last)


@pytest.mark.parametrize("verdict,reading,kind,met,expected", [
    ("holds", "paper", "test", True, "reproduced"), ("holds", "paper", "no effect", True, "reproduced"),
    ("holds", "paper", "null", True, "reproduced"), ("holds", "ours", "test", True, "weaker"),
    ("holds", "paper", "bare", True, "weaker"), ("holds", "paper", "test", False, "weaker"),
    ("holds under its null", "paper", "null", True, "no evidence"), ("fails", "paper", "test", True, "fails"),
    (None, "paper", "test", True, "not run")])
def test_claim_outcome(verdict, reading, kind, met, expected):
    assert claim_outcome(verdict, reading, kind, met) == expected


def test_row_status_covers_every_combination():
    import itertools
    for k in range(1, 4):
        for outcomes in itertools.product(OUTCOMES, repeat=k):
            s = row_status(outcomes)
            if all(o == "reproduced" for o in outcomes): assert s == "reproduced"
            elif all(o == "not run" for o in outcomes): assert s == "missing"
            elif {"reproduced", "weaker"} & set(outcomes): assert s == "partial"
            else: assert s == "not reproduced"
    assert row_status([]) == "missing"
    with pytest.raises(ValueError, match="`kind` must be one of"): claim_outcome("holds", kind="eyeball")


def test_null_share_is_a_permutation_p_value():
    rng = np.random.default_rng(0)
    d = np.array([0.3, 0.2, 0.4, 0.1, 0.2])
    assert null_share(np.sum, d, flip_signs, 20_000) == pytest.approx(1 / 32, abs=0.004)     # one sign pattern of 32
    assert null_share(np.sum, -d, flip_signs, 2_000) > 0.95                                  # the other way: no evidence
    noise = rng.normal(size=(200, 30))                                                      # under the null the share is uniform
    shares = [null_share(np.sum, x, flip_signs, 199, random_state=i) for i, x in enumerate(noise)]
    assert abs(np.mean(np.array(shares) <= 0.10) - 0.10) < 0.05
    E = np.array([[0.1, 0.2, 0.3]] * 6)                                                      # method 0 lowest on 6 datasets
    lowest = lambda v: float((v[:, 0] < v[:, 1:].min(1)).sum())
    assert null_share(lowest, E, shuffle_last, 5_000) == pytest.approx(3 ** -6, abs=0.002)


def test_claims_table_status_and_record():
    t = claims_table([("a", "p", "o", True, 0.2), ("b", "p", "o", True, 0.02), ("c", "p", "o", False)], LEVELS["004"])
    assert t.status.tolist() == ["holds under its null", "reproduced", "NOT reproduced"]
    check_record(t, ["a", "c"])
    with pytest.raises(AssertionError, match="recorded as failing"): check_record(t, ["c"])
    assert set(LEVELS) == {"000", "001", "002", "003", "004"}
