"""Cost of `semisel mi`'s continuous default (issue 40) against its binned path (`--bins 5`), as ratios in the same
process (CPU time of this process, the best of `--repeat` runs; wall times beside), on every bundled dataset with float
columns, all rows labelled (a label of more than two classes binarised: its first class against the rest):

M1 the MI alone: chapter 01c's kNN estimate of every column (`knn_mutual_info_all` on a jittered `MixedData`, the
   rankers' KNN_NEIGHBORS neighbours) against 5 equal-width bins counted (`discretize` + `mutual_info_all`, the binning
   included). The rule of the change: the kNN MI is `mi`'s default if this ratio is within a few times (<= 5) on the
   bundled datasets.
M2 the whole table as the command computes it (`semisel.cli.mi_table`): the kNN MI and its test of a continuous
   feature (MARGINAL_TEST, "ns-mi-cg", chapter 01b; `--test ns-mi-cg`: the command's default bins the float columns as
   the rankers do since issue 40's rankers rule) against the binned MI and "g-adf".
Run: python tests/benchmarks/bench_mi.py [--repeat R] [--names spambase waveform ...]"""
import argparse
import time

import numpy as np

from semisel.cli import Input, mi_table
from semisel.continuous import MixedData
from semisel.core import CodeMatrix
from semisel.datasets import discretize, list_datasets, load_dataset
from semisel.infotheory import mutual_info_all
from semisel.knn import knn_mutual_info_all
from semisel.ranking import KNN_NEIGHBORS


def best(f, repeat):
    "Best CPU time and best wall time of `repeat` runs of f."
    cpu, wall = [], []
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        f()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return min(cpu), min(wall)


def main(names, repeat):
    print(f"{'dataset':11s} {'rows x cols':>12s} {'M1 kNN s':>9s} {'M1 bins s':>9s} {'M1 ratio':>8s}"
          f" {'M2 kNN s':>9s} {'M2 bins s':>9s} {'M2 ratio':>8s}")
    ratios = []
    for name in names:
        X, y = load_dataset(name)
        if not any(t.kind == "f" for t in X.dtypes): continue
        if X.isna().any().any(): X = X.fillna(X.median())            # the continuous path needs finite values
        yv = np.asarray(y)
        if len(np.unique(yv)) > 2: yv = (yv == np.unique(yv)[0]).astype(np.int64)
        k1, _ = best(lambda: knn_mutual_info_all(MixedData(X, jitter=1e-10), yv, n_neighbors=KNN_NEIGHBORS), repeat)
        b1, _ = best(lambda: mutual_info_all(CodeMatrix(discretize(X, bins=5)), yv), repeat)
        inp = Input(X, yv, name)
        k2, _ = best(lambda: mi_table(inp, test="ns-mi-cg"), repeat)
        b2, _ = best(lambda: mi_table(inp, bins=5), repeat)
        ratios.append(k1 / b1)
        print(f"{name:11s} {f'{X.shape[0]} x {X.shape[1]}':>12s} {k1:9.3f} {b1:9.3f} {k1 / b1:8.1f} {k2:9.3f} {b2:9.3f}"
              f" {k2 / b2:8.1f}")
    print(f"M1 ratio kNN / binned: median {np.median(ratios):.1f}, largest {max(ratios):.1f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--names", nargs="*", default=None)
    a = ap.parse_args()
    main(a.names or list_datasets(), a.repeat)
