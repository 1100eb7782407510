"""Speed of FSCPU on Spambase (the paper reports > 2 h per run), and the full-protocol replications for whoever has the hours.

Default (a few minutes): seconds per objective evaluation f(m) on the Spambase training part of §6 (3450 rows, masks of
k = 29 of 57 features drawn like the GA's first steps) for the paper's full-covariance GMM (K=10) and, as labelled
departures, a diagonal GMM and k-means; then seconds per GA step over `--steps` steps (default 20) with the memo and
one or two threads, extrapolated to a whole run of T = 3000 steps (6000 evaluations at most; the memo only helps once
θ has converged, so the extrapolation is an upper bound). Prints the load average: the machine may be shared.

    python tests/benchmarks/bench_fscpu.py [--steps 20] [--evals 5]
    python tests/benchmarks/bench_fscpu.py --table1 [--seeds 0 1 2 3 4] [--n-jobs 2]   # the paper's Table 1 protocol: days
    python tests/benchmarks/bench_fscpu.py --open-data [--n-jobs 2]                       # Table 3 protocol (T=3000, GMM)
"""
import argparse
import os
import time

import numpy as np
from sklearn.cluster import KMeans
from sklearn.mixture import GaussianMixture

from semisel.experiments.fscpu import (PAPER_TABLE1, PAPER_TABLE3, OPEN_DATA, open_data_run, open_data_split, run_table1,
                                       summarise)
from semisel.fscpu import FSCPU, ClusterObjective, repair


def per_evaluation(Xtr, labelled, clusterer, n_evals, rng):
    "Mean seconds of one f(m) on fresh random k-subsets (no memo)."
    D = Xtr.shape[1]; k = (D + 1) // 2
    obj = ClusterObjective(Xtr, labelled, clusterer, seed=0, cache=False)
    theta = np.full(D, k / D)
    masks = [repair(rng.random(D) < theta, theta, np.ones(D), k, rng) for _ in range(n_evals)]
    t, c = time.perf_counter(), time.process_time()
    vals = [obj(m) for m in masks]
    return (time.perf_counter() - t) / n_evals, (time.process_time() - c) / n_evals


def per_step(Xtr, yp, clusterer, steps, **kw):
    t, c = time.perf_counter(), time.process_time()
    est = FSCPU(n_iter=steps, clusterer=clusterer, scale=False, random_state=0, **kw).fit(Xtr, yp)
    return (time.perf_counter() - t) / steps, (time.process_time() - c) / steps, est


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--evals", type=int, default=5)
    ap.add_argument("--table1", action="store_true")
    ap.add_argument("--open-data", action="store_true")
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2, 3, 4])
    ap.add_argument("--n-jobs", type=int, default=1)
    a = ap.parse_args()
    if a.table1:
        runs = run_table1(["fscpu", "fscpu-mi", "kbest", "lasso", "rf-rfe"], seeds=a.seeds, n_iter=3000, clusterer=None, n_jobs=a.n_jobs)
        runs.drop(columns="theta").to_csv("fscpu_table1_full.csv", index=False)
        print(summarise(runs)); print(PAPER_TABLE1); return
    if a.open_data:
        import pandas as pd
        from joblib import Parallel, delayed
        rows = Parallel(n_jobs=a.n_jobs)(delayed(open_data_run)(name, m, s) for name in OPEN_DATA
                                         for m in ("fscpu", "fscpu-mi", "kbest", "lasso") for s in range(3))
        t3 = pd.DataFrame(rows); t3.to_csv("fscpu_table3_full.csv", index=False)
        print(summarise(t3, "auc", "method", "data")); print(PAPER_TABLE3); return

    print(f"load average {os.getloadavg()}  (2 cores shared: figures scale with it)")
    Xtr, yp, _, _ = open_data_split("spambase", 0)
    labelled = yp == 1
    print(f"Spambase training part: {Xtr.shape[0]} rows x {Xtr.shape[1]} features, {labelled.sum()} labelled, k = {(Xtr.shape[1] + 1) // 2}")
    rng = np.random.default_rng(0)
    clusterers = {"GMM full (paper)": None, "GMM diag (departure)": GaussianMixture(10, covariance_type="diag"),
                  "k-means (departure)": KMeans(10, n_init=1)}
    for name, c in clusterers.items():
        s, cpu = per_evaluation(Xtr, labelled, c, a.evals, rng)
        print(f"f(m), {name:22s}: {s:7.3f} s wall, {cpu:7.3f} s CPU per evaluation  -> <= {s * 6000 / 3600:6.2f} h wall "
              f"({cpu * 6000 / 3600:5.2f} h CPU) per run of T=3000 (6000 evaluations)")
    for kw in ({"cache": False}, {"cache": True}, {"cache": True, "n_jobs": 2}):
        s, cpu, est = per_step(Xtr, yp, None, a.steps, **kw)
        print(f"GA step, GMM full, {str(kw):32s}: {s:7.3f} s wall, {cpu:7.3f} s CPU per step ({est.n_evaluations_} fits in "
              f"{a.steps} steps)  -> <= {s * 3000 / 3600:6.2f} h wall per run of T=3000")


if __name__ == "__main__":
    main()
