"""Speed of the calibrated tests of independence (chapter 01) and of IAMB with them (chapter 04).

W1: semi_iamb on ALARM (target STROKEVOLUME, 5,000 rows, PU labels: 30% of the positives labelled) with each test,
    timed against the papers' "g" in the same process (best of 3). Aim of issue 14: "smc" and "sp" within 10x of "g".
W2: one ci_test_all with "mc" and 1,000 permutations over 100 columns x 100,000 rows ("seconds, not minutes").
Run: OMP_NUM_THREADS=1 python tests/benchmarks/bench_ci_tests.py   (prints seconds and ratios; asserts nothing)."""
import time

import numpy as np

from semisel.iamb import semi_iamb
from semisel.networks import network, network_dataset
from semisel.infotheory import ci_test_all
from semisel.surrogates import pu


def best_of(f, k=3):
    times, out = [], None
    for _ in range(k):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main():
    X, y = network_dataset(network("alarm"), "STROKEVOLUME", 5000, random_state=0)
    yp = pu(y.to_numpy(), 0.3, random_state=0)
    base = None
    print("W1 semi_iamb on ALARM, 5,000 rows, PU labels")
    for test in ("g", "g-adf", "sp", "smc", "mc"):
        sec, res = best_of(lambda: semi_iamb(X, yp, None, 0.10, test=test, random_state=0), 1 if test == "mc" else 3)
        base = base or sec
        print(f"  {test:6s} {sec * 1000:8.0f} ms  {sec / base:6.1f}x g   blanket {res.selected}")
    rng = np.random.default_rng(0)
    Xb, yb = rng.integers(0, 5, (100_000, 100), dtype=np.uint8), rng.integers(0, 2, 100_000)
    Xb[:, 0] = (yb + (rng.random(100_000) < 0.4)) % 5
    sec, r = best_of(lambda: ci_test_all(Xb, yb, test="mc", n_perm=1000, random_state=0), 1)
    print(f"W2 ci_test_all mc, 1,000 permutations, 100 columns x 100,000 rows: {sec:.1f} s "
          f"(min p {r.pvalue.min():.2g}, median p {np.median(r.pvalue):.2f})")


if __name__ == "__main__":
    main()
