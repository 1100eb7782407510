"""The cost of the calibrated "g-adf" against bnlearn's "mi-adf" ("adf") per learner and blanket (a script, not a test;
issue 39: no blanket should cost more than a small multiple of the same learner with "adf"). For each network, target
(the first `--targets` of `benchmark_targets`, binarised), labelling (full labels; PU, 30% of the positives labelled,
learned on Y0 as `markov_blanket` does) and alpha: the CPU seconds and the number of tests of every learner with "adf"
and with "g-adf", their ratios, and the largest single blanket's. With `--against REV`, "g-adf" as of the git revision
REV too (its package copied out of git, as in bench_blankets.py), on the same samples, every blanket asserted the same.

    OMP_NUM_THREADS=1 python tests/benchmarks/bench_gadf.py [--networks pigs andes alarm] [--n 5000] [--targets 3]
        [--alpha 0.05 0.10] [--algorithms mmpc ...] [--against main]
"""
import argparse
import os
import sys
import time

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_entry import load, targets_of  # noqa: E402  (the networks and targets of the entry-point benchmark)

from semisel.blankets import ALGORITHMS, learn_mb  # noqa: E402
from semisel.networks import sample_network  # noqa: E402
from semisel.surrogates import pu  # noqa: E402


def run(f, X, y, alg, test, alpha, levels):
    "CPU seconds and the blanket of one run."
    t0 = time.process_time()
    b = f(X, y, alg, test, alpha, levels=levels)
    return time.process_time() - t0, b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--networks", nargs="+", default=["pigs", "andes", "alarm"])
    ap.add_argument("--n", nargs="+", type=int, default=[5000])
    ap.add_argument("--targets", type=int, default=3)
    ap.add_argument("--only", nargs="+", help="these targets (of any network) instead of the first --targets")
    ap.add_argument("--alpha", nargs="+", type=float, default=[0.05, 0.10])
    ap.add_argument("--labellings", nargs="+", default=["full", "pu"], choices=["full", "pu"])
    ap.add_argument("--algorithms", nargs="+", default=[a for a in ALGORITHMS if a != "pc.stable"])
    ap.add_argument("--against", metavar="REV", help='also "g-adf" as of this git revision (same blankets asserted)')
    a = ap.parse_args()
    old = None
    if a.against:
        from bench_blankets import reference
        old = reference(a.against).learn_mb
    rows, warm = [], sample_network(load(a.networks[0]), 300, random_state=1)
    for alg in a.algorithms:                      # numba's kernels loaded (or compiled) before any timing
        for f, tests in ((learn_mb, ("adf", "g-adf")), (old, ("g-adf",))):
            for test in tests:
                if f: f(warm.iloc[:, 1:], (warm.iloc[:, 0] == 0).astype(int), alg, test, 0.05)
    for name in a.networks:
        net = load(name)
        for n in a.n:
            D = sample_network(net, n, random_state=0)
            for target in ([t for t in net.nodes if t in a.only] if a.only else targets_of(net, a.targets)):
                X, y = D.drop(columns=target), (D[target].to_numpy() == 0).astype(np.int64)
                levels = (X.max() + 1).tolist()
                for labelling in a.labellings:
                    yy = y if labelling == "full" else (pu(y, 0.3, random_state=1) == 1).astype(np.int64)   # Y0
                    for alpha in a.alpha:
                        for alg in a.algorithms:
                            t_adf, adf = run(learn_mb, X, yy, alg, "adf", alpha, levels)
                            t_gadf, gadf = run(learn_mb, X, yy, alg, "g-adf", alpha, levels)
                            row = dict(network=name, n=n, target=target, labelling=labelling, alpha=alpha, algorithm=alg,
                                       adf=t_adf, gadf=t_gadf, tests_adf=adf.n_tests, tests_gadf=gadf.n_tests,
                                       size_adf=len(adf), size_gadf=len(gadf))
                            if old:
                                row["gadf_old"], was = run(old, X, yy, alg, "g-adf", alpha, levels)
                                assert was.members == gadf.members, (name, target, labelling, alpha, alg)
                            rows.append(row)
                print(f"  {name} n={n} {target}: {len(rows)} rows", file=sys.stderr, flush=True)
    df = pd.DataFrame(rows)
    pd.set_option("display.width", 200)
    cols = ["adf", "gadf"] + (["gadf_old"] if old else [])
    tab = df.groupby("algorithm")[cols + ["tests_adf", "tests_gadf"]].sum()
    tab["gadf/adf"] = tab.gadf / tab.adf
    tab["tests gadf/adf"] = tab.tests_gadf / tab.tests_adf
    tab["worst gadf/adf"] = df.assign(r=df.gadf / df.adf.clip(lower=1e-3)).groupby("algorithm").r.max()
    tab["slowest gadf"] = df.groupby("algorithm").gadf.max()
    if old:
        tab["old/new"] = tab.gadf_old / tab.gadf
        tab["slowest gadf_old"] = df.groupby("algorithm").gadf_old.max()
    print(f"networks {a.networks}, n {a.n}, {a.targets} targets, alpha {a.alpha}, {a.labellings}: CPU seconds and tests "
          f"summed over {len(df) // len(a.algorithms)} blankets per learner" + (f"; gadf_old: g-adf at {a.against}, "
                                                                              "the same blankets" if old else ""))
    print(tab.round(3).to_string())
    by = df.groupby(["network", "labelling", "alpha"])[cols].sum()
    print("\nper network, labelling and alpha (seconds summed over learners and targets):")
    print(by.assign(**{"gadf/adf": by.gadf / by.adf}).round(3).to_string())
    worst = df.sort_values("gadf", ascending=False).head(8)
    print("\nthe slowest blankets with g-adf:")
    print(worst[["network", "target", "labelling", "alpha", "algorithm", "adf", "gadf"] + (["gadf_old"] if old else [])
                + ["tests_adf", "tests_gadf", "size_adf", "size_gadf"]].round(3).to_string(index=False))
    print(f"\noverall g-adf / adf: {df.gadf.sum() / df.adf.sum():.1f} (tests {df.tests_gadf.sum() / df.tests_adf.sum():.1f})"
          + (f"; g-adf old / new: {df.gadf_old.sum() / df.gadf.sum():.1f}" if old else ""))


if __name__ == "__main__":
    main()
