"""Peak memory of FSCPU-MI's JMI term (issue 15, item 4): `MIScore(X, s, "jmi")` before and after counting the pair
tables in blocks.

Before: every pair's joint code at once, an N x D(D-1)/2 int64 matrix (N = 20,000, D = 300: 6.7 GiB). After: one
feature j at a time, its pairs counted by the core's `count_tables` against the joint code of (X_j, S), in blocks
within the `count_budget`. Both run in this process on the same data; peaks are tracemalloc's (numpy reports its
buffers to it), so the figure is the memory the computation allocates on top of the data it is given.

M1  N = 20,000, D = 60 (moderate: the old matrix is 270 MiB): old and new JMI tables (equal), their peaks,
    seconds, and the ratio old / new.
M2  N = 20,000, D = 300 (the issue's case; new only, the old one would ask for 6.7 GiB): the peak of the new table
    against the peak of `g_test_all` of the same codes against S (the issue's reference; aim: within 2x).

    python tests/benchmarks/bench_fscpu_memory.py [--n 20000] [--d 60] [--d-large 300] [--skip-large]
"""
import argparse
import time
import tracemalloc

import numpy as np

from semisel.datasets import discretize
from semisel.fscpu import MIScore
from semisel.infotheory import g_test_all, mutual_info_all

MiB = 2 ** 20


def data(n, d, seed=0):
    "Gaussian features, a surrogate S that depends on features 0-2 (about 15% ones, as labelled positives)."
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    s = (X[:, 0] + X[:, 1] - X[:, 2] + rng.normal(size=n) > 2).astype(np.int64)
    return X, s


def dense_pairs(X, s, bins=5):
    "The first version of `MIScore`'s JMI table (its code as it was): every pair's joint code at once."
    codes = np.asarray(discretize(np.asarray(X, float), bins=bins), dtype=np.int64)
    s = np.asarray(s, dtype=np.int64)
    D = codes.shape[1]
    pairs = np.zeros((D, D))
    j, l = np.triu_indices(D, 1)
    arity = codes.max(axis=0) + 1
    joint = codes[:, j] * arity[l] + codes[:, l]
    pairs[j, l] = pairs[l, j] = mutual_info_all(joint, s)
    return pairs


def peak(f, *args):
    "(result, peak MiB allocated during the call, seconds)."
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    t = time.perf_counter()
    out = f(*args)
    sec = time.perf_counter() - t
    return out, (tracemalloc.get_traced_memory()[1] - base) / MiB, sec


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--d", type=int, default=60)
    ap.add_argument("--d-large", type=int, default=300)
    ap.add_argument("--skip-large", action="store_true")
    args = ap.parse_args()
    tracemalloc.start()

    X, s = data(args.n, args.d)
    print(f"M1: N = {args.n:,}, D = {args.d}: input {X.nbytes / MiB:.1f} MiB float64, "
          f"{args.d * (args.d - 1) // 2:,} pairs")
    old, old_mib, old_s = peak(dense_pairs, X, s)
    new, new_mib, new_s = peak(lambda X, s: MIScore(X, s, "jmi").pairs, X, s)
    diff = np.abs(old - new).max()
    assert diff <= 1e-15, f"the JMI tables differ (max {diff:.3g})"
    print(f"  before (dense N x D(D-1)/2 joint codes): peak {old_mib:8.1f} MiB, {old_s:6.2f} s")
    print(f"  after  (count_tables per feature)      : peak {new_mib:8.1f} MiB, {new_s:6.2f} s")
    same = "bit-identical" if diff == 0 else f"equal to {diff:.1e}"
    print(f"  tables {same}; peak ratio before/after {old_mib / new_mib:.1f}x, time ratio {old_s / new_s:.1f}x")

    if args.skip_large: return
    del X, s, old, new
    X, s = data(args.n, args.d_large)
    codes = np.asarray(discretize(X))
    print(f"M2: N = {args.n:,}, D = {args.d_large}: input {X.nbytes / MiB:.1f} MiB float64 (the old table would ask "
          f"{args.n * args.d_large * (args.d_large - 1) // 2 * 8 / 2 ** 30:.1f} GiB for the joint codes alone)")
    _, ref_mib, ref_s = peak(g_test_all, codes, s)
    _, new_mib, new_s = peak(lambda X, s: MIScore(X, s, "jmi"), X, s)
    print(f"  g_test_all(codes, S)   : peak {ref_mib:8.1f} MiB, {ref_s:6.2f} s")
    print(f"  MIScore(X, S, 'jmi')   : peak {new_mib:8.1f} MiB, {new_s:6.2f} s "
          f"(includes discretising X; ratio to g_test_all {new_mib / ref_mib:.2f}x, aim <= 2)")


if __name__ == "__main__":
    main()
