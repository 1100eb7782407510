"""Properties of the FSCPU building blocks (hypothesis): the exact cluster-subset search equals brute force and is invariant
to renaming clusters and permuting rows; Algorithm 1 (early stop) is never better; Repair always returns a feasible,
saturated mask; the GA update keeps θ in [ε, 1-ε]."""
import itertools

import numpy as np
from hypothesis import given, settings, strategies as st

from semisel.fscpu import best_cluster_subset, cga_update, repair


def brute(clusters, labelled):
    ids, L, best = np.unique(clusters), labelled.sum(), -1.0
    for r in range(1, len(ids) + 1):
        for S in itertools.combinations(ids, r):
            inS = np.isin(clusters, S)
            best = max(best, (inS & labelled).sum() ** 2 / (L * inS.sum()))
    return best


@st.composite
def clustered(draw):
    n = draw(st.integers(1, 60))
    K = draw(st.integers(1, 8))
    clusters = np.array(draw(st.lists(st.integers(0, K - 1), min_size=n, max_size=n)))
    labelled = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    labelled[draw(st.integers(0, n - 1))] = True
    return clusters, labelled


@settings(max_examples=200, deadline=None)
@given(clustered(), st.integers(0, 2**31 - 1))
def test_prefix_search_is_exact_and_invariant(data, seed):
    clusters, labelled = data
    res = best_cluster_subset(clusters, labelled)
    assert abs(res.score - brute(clusters, labelled)) < 1e-12
    assert 0 <= res.score <= 1
    inS = np.isin(clusters, res.clusters)
    assert abs((inS & labelled).sum() ** 2 / (labelled.sum() * inS.sum()) - res.score) < 1e-12
    perm = np.random.default_rng(seed).permutation(len(clusters))
    assert abs(best_cluster_subset(3 * clusters[perm] + 11, labelled[perm]).score - res.score) < 1e-12
    assert best_cluster_subset(clusters, labelled, "paper").score <= res.score + 1e-12


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.data())
def test_repair_feasible_and_saturated(D, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    eps = 1 / max(D, 2)
    theta = np.clip(rng.random(D), eps, 1 - eps)
    costs = rng.uniform(0.2, 3, D) if data.draw(st.booleans()) else np.ones(D)
    budget = data.draw(st.floats(float(costs.min()), float(costs.sum())))
    mask = rng.random(D) < rng.random()
    out = repair(mask, theta, costs, budget, rng)
    assert costs[out].sum() <= budget + 1e-9                       # feasible
    assert (costs[~out] > budget - costs[out].sum() - 1e-9).all()  # nothing more fits
    if np.ptp(costs) == 0: assert out.sum() == min(D, int(budget / costs[0] + 1e-9))   # equal costs: exactly floor(budget / c)
    np.testing.assert_array_equal(mask, mask.copy())               # input untouched (a new array is returned)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 40), st.integers(0, 2**31 - 1), st.floats(-1, 1), st.floats(-1, 1))
def test_update_stays_in_bounds(D, seed, fa, fb):
    rng = np.random.default_rng(seed)
    eps, eta = 1 / D, 1 / (2 * D)
    theta = np.clip(rng.random(D), eps, 1 - eps)
    ma, mb = rng.random(D) < 0.5, rng.random(D) < 0.5
    new = cga_update(theta, ma, mb, fa, fb, eta, eps)
    assert (new >= eps - 1e-15).all() and (new <= 1 - eps + 1e-15).all()
    assert (np.abs(new - theta) <= eta + 1e-12).all()
