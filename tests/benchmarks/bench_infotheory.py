"""Speed of semisel.infotheory against the same work done by scikit-learn, measured in one process.

W1: mutual_info_all of 100 features (codes 0..4) with a binary class over 500,000 rows, vs a loop of
    sklearn.metrics.mutual_info_score.
W2: one mutual_info over 1,000,000 rows, vs mutual_info_score.
W3: 1,000 calls of cond_mutual_info(x, y, z), z the joint of 3 columns, over 5,000 rows; reference: the same CMI
    computed by sklearn as the sum over strata  sum_z p(z) I(X;Y|Z=z)  (what one would write without semisel).
Run: python tests/benchmarks/bench_infotheory.py   (prints seconds and ratios; asserts only that the answers agree)."""
import time

import numpy as np
from sklearn.metrics import mutual_info_score

from semisel.infotheory import cond_mutual_info, encode_joint, mutual_info, mutual_info_all


def best_of(f, repeat=3):
    "Best wall time of `repeat` runs of f() and its result."
    times = []
    for _ in range(repeat):
        t = time.perf_counter(); out = f(); times.append(time.perf_counter() - t)
    return min(times), out


def sklearn_cmi(x, y, z):
    zc = encode_joint(z)
    return sum((zc == s).mean() * mutual_info_score(x[zc == s], y[zc == s]) for s in np.unique(zc))


def main():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 5, size=(500_000, 100))
    y = rng.integers(0, 2, 500_000)
    t_ours, ours = best_of(lambda: mutual_info_all(X, y))
    t_ref, ref = best_of(lambda: np.array([mutual_info_score(X[:, j], y) for j in range(X.shape[1])]), repeat=1)
    np.testing.assert_allclose(ours, ref, atol=1e-12)
    print(f"W1 mutual_info_all 100 x 500k : semisel {t_ours:7.3f} s   sklearn loop {t_ref:7.3f} s   ratio {t_ref / t_ours:6.1f}x  (aim >= 20x)")

    x1, y1 = rng.integers(0, 5, 1_000_000), rng.integers(0, 2, 1_000_000)
    t_ours, ours = best_of(lambda: mutual_info(x1, y1))
    t_ref, ref = best_of(lambda: mutual_info_score(x1, y1))
    assert abs(ours - ref) < 1e-12
    print(f"W2 mutual_info 1M rows        : semisel {t_ours:7.3f} s   sklearn      {t_ref:7.3f} s   ratio {t_ref / t_ours:6.1f}x")

    D = rng.integers(0, 3, size=(5_000, 40))
    triples = [tuple(rng.choice(40, 5, replace=False)) for _ in range(1_000)]
    t_ours, ours = best_of(lambda: [cond_mutual_info(D[:, a], D[:, b], D[:, list(c)]) for a, b, *c in triples])
    sub = triples[:50]
    t_ref, ref = best_of(lambda: [sklearn_cmi(D[:, a], D[:, b], D[:, list(c)]) for a, b, *c in sub], repeat=1)
    np.testing.assert_allclose(ours[:50], ref, atol=1e-12)
    t_ref *= len(triples) / len(sub)
    print(f"W3 1000 x cond_mutual_info 5k : semisel {t_ours:7.3f} s   sklearn strata {t_ref:7.3f} s (extrapolated from 50)   ratio {t_ref / t_ours:6.1f}x"
          f"   ({1e3 * t_ours / len(triples):.3f} ms per call)")


if __name__ == "__main__":
    main()
