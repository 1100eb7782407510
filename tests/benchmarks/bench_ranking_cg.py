"""Speed of chapter 05's conditional-Gaussian ranker (estimator="cg", the MI of normal scores from sufficient statistics)
against the binned path and the kNN ranker, as ratios against reference runs in the same process (CPU time of this
process, the best of `--repeat` runs; wall times beside).

The rankers as a user meets them: `semi_select` with its defaults (JMI, the rule "labelled"), k = 10, on the book's
datasets of measurements (every column a float), with 25% of the labels kept at random (MCAR: the labelled rows, D_L)
and with 30% of the positives labelled (PU: every row, Y0). Three paths: "counts" = 5 equal-width bins, counted (the
binning included: `discretize(X, 5)`), "cg" = estimator="cg", "knn" = estimator="knn" (chapter 01c, KNN_NEIGHBORS).
Printed per dataset and labelling: the CPU seconds of each and the ratios cg / counts and knn / counts.
Run: python tests/benchmarks/bench_ranking_cg.py [--quick] [--repeat R]   (--quick: waveform and ionosphere)"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mi import best  # noqa: E402

from semisel.datasets import discretize, load_dataset  # noqa: E402
from semisel.ranking import semi_select  # noqa: E402
from semisel.surrogates import mcar, pu  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    names = ("waveform", "ionosphere") if a.quick else ("waveform", "spambase", "ionosphere", "landsat", "musk2")
    paths = ("counts", "cg", "knn")
    print("semi_select(X, y_partial, 'jmi', 10) CPU seconds (best of", a.repeat, "runs) and ratios against counts")
    print(f"{'dataset':11s} {'labels':6s} " + " ".join(f"{p + ' s':>9s}" for p in paths) + f" {'cg/counts':>10s}"
          + (f" {'knn/counts':>11s}" if "knn" in paths else "") + f" {'cg wall s':>10s}")
    for name in names:
        X, y = load_dataset(name)
        X, y = X.astype(float), np.asarray(y)
        for lab, yp in (("MCAR", mcar(y, 0.25, random_state=0)), ("PU", pu(y, 0.3, random_state=0))):
            run = {"counts": lambda: semi_select(discretize(X, 5), yp, "jmi", 10),
                   "cg": lambda: semi_select(X, yp, "jmi", 10, estimator="cg"),
                   "knn": lambda: semi_select(X, yp, "jmi", 10, estimator="knn")}
            t = {p: best(run[p], a.repeat if p != "knn" else 1) for p in paths}
            line = f"{name:11s} {lab:6s} " + " ".join(f"{t[p][0]:9.3f}" for p in paths)
            line += f" {t['cg'][0] / t['counts'][0]:10.1f}"
            if "knn" in paths: line += f" {t['knn'][0] / t['counts'][0]:11.0f}"
            print(line + f" {t['cg'][1]:10.3f}", flush=True)


if __name__ == "__main__":
    main()
