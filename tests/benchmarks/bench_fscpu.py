"""Speed of FSCPU (issue 16): one objective evaluation on Spambase and a whole default run on a 5,000 x 30 table, each
set against a plain `RandomForestClassifier(n_estimators=100).fit` on the same data in the same run (the machine is
shared: the ratio is the figure that travels).

Default (minutes):
  E1  seconds per objective evaluation f(m) on the Spambase training part of §6 (3450 rows, masks of k = 29 of 57
      features drawn like the GA's first steps, no memo), with the estimator's default clusterer and settings;
  E2  a whole default run, `FSCPU(10, random_state=0, **CLI_FSCPU).fit` -- what `semisel rank --method fscpu` should
      run (CLI_FSCPU: the settings the command line passes; `--paper` runs the estimator's own defaults, the paper's)
      -- on the positive-unlabelled 5,000 x 30 table of `wide_table` (5 informative features 0-4; 10% of the
      positives labelled): wall and CPU seconds, objective fits, GA steps, informative features found;
  RF  `RandomForestClassifier(100).fit` on the same tables (fully labelled), same process, one core.

    python tests/benchmarks/bench_fscpu.py [--evals 5] [--skip-run] [--paper]
    python tests/benchmarks/bench_fscpu.py --table1 [--seeds 0 1 2 3 4] [--n-jobs 2]   # the paper's Table 1 protocol
    python tests/benchmarks/bench_fscpu.py --open-data [--n-jobs 2]                       # Table 3 protocol (T=3000, GMM)
"""
import argparse
import os
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier

from semisel.experiments.fscpu import (PAPER_TABLE1, PAPER_TABLE3, OPEN_DATA, open_data_run, open_data_split, run_table1,
                                       summarise)
from semisel.fscpu import FSCPU, ClusterObjective, default_clusterer, repair

# What `semisel rank --method fscpu` should pass (issue 16): both cores for a step's two mixtures, and early stopping
# once theta has converged or the best f has not improved for 300 steps (T = 3000 at most, the paper's).
CLI_FSCPU = dict(n_jobs=2, patience=300)


def wide_table(n=5000, d=30, informative=5, labelled=0.1, pu=True, seed=0):
    """The issue's table: `make_classification` (binary, features 0..informative-1 informative, the rest noise) and partial
    labels: PU (a fraction `labelled` of the positives labelled 1, the rest -1) or semi-supervised (a fraction `labelled`
    of all rows keeps its class, the rest -1)."""
    X, y = make_classification(n_samples=n, n_features=d, n_informative=informative, n_redundant=0, n_repeated=0,
                               n_classes=2, shuffle=False, random_state=seed)
    rng = np.random.default_rng(seed)
    yp = np.full(n, -1)
    if pu:
        pos = np.flatnonzero(y == 1)
        yp[rng.choice(pos, int(round(labelled * len(pos))), replace=False)] = 1
    else:
        lab = rng.choice(n, int(round(labelled * n)), replace=False)
        yp[lab] = y[lab]
    return X, y, yp


def timed(fn):
    "(result, wall seconds, CPU seconds of this process) of fn()."
    t, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t, time.process_time() - c


def forest_reference(X, y, repeats=3):
    "Median wall seconds of RandomForestClassifier(n_estimators=100).fit(X, y) (one core)."
    return float(np.median([timed(lambda: RandomForestClassifier(n_estimators=100).fit(X, y))[1] for _ in range(repeats)]))


def per_evaluation(Xtr, labelled, n_evals, rng):
    "Mean wall and CPU seconds of one f(m) on fresh random k-subsets (no memo), the default clusterer."
    D = Xtr.shape[1]
    k = (D + 1) // 2
    obj = ClusterObjective(Xtr, labelled, default_clusterer(), seed=0, cache=False)
    theta = np.full(D, k / D)
    masks = [repair(rng.random(D) < theta, theta, np.ones(D), k, rng) for _ in range(n_evals)]
    _, wall, cpu = timed(lambda: [obj(m) for m in masks])
    return wall / n_evals, cpu / n_evals


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--evals", type=int, default=5)
    ap.add_argument("--skip-run", action="store_true", help="skip E2 (the whole default run)")
    ap.add_argument("--paper", action="store_true", help="E2 with the estimator's defaults (the paper's), not CLI_FSCPU")
    ap.add_argument("--table1", action="store_true")
    ap.add_argument("--open-data", action="store_true")
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2, 3, 4])
    ap.add_argument("--n-jobs", type=int, default=1)
    a = ap.parse_args()
    if a.table1:
        runs = run_table1(["fscpu", "fscpu-mi", "kbest", "lasso", "rf-rfe"], seeds=a.seeds, n_iter=3000, clusterer=None,
                          n_jobs=a.n_jobs)
        runs.drop(columns="theta").to_csv("fscpu_table1_full.csv", index=False)
        print(summarise(runs)); print(PAPER_TABLE1); return
    if a.open_data:
        import pandas as pd
        from joblib import Parallel, delayed
        rows = Parallel(n_jobs=a.n_jobs)(delayed(open_data_run)(name, m, s) for name in OPEN_DATA
                                         for m in ("fscpu", "fscpu-mi", "kbest", "lasso") for s in range(3))
        t3 = pd.DataFrame(rows); t3.to_csv("fscpu_table3_full.csv", index=False)
        print(summarise(t3, "auc", "method", "data")); print(PAPER_TABLE3); return

    print(f"load average {os.getloadavg()}  (2 cores shared: compare the ratios to the forest fit)")
    Xtr, yp, _, _ = open_data_split("spambase", 0)
    labelled = yp == 1
    rf_spam = forest_reference(Xtr, labelled.astype(int))
    s, cpu = per_evaluation(Xtr, labelled, a.evals, np.random.default_rng(0))
    print(f"E1 f(m) on Spambase ({Xtr.shape[0]} x {Xtr.shape[1]}, masks of {(Xtr.shape[1] + 1) // 2}, default clusterer): "
          f"{s:.3f} s wall, {cpu:.3f} s CPU per evaluation; RF(100).fit on the same table {rf_spam:.3f} s "
          f"-> {s / rf_spam:.2f} x the forest fit")
    if a.skip_run: return
    X, y, yp = wide_table(pu=True)
    rf = forest_reference(X, y)
    kw = {} if a.paper else CLI_FSCPU
    est, wall, cpu = timed(lambda: FSCPU(10, random_state=0, **kw).fit(X, yp))
    found = sorted(set(est.ranking_[:5].tolist()) & set(range(5)))
    steps = getattr(est, "n_steps_", est.n_iter)
    print(f"E2 whole default run FSCPU(10, random_state=0, **{kw}) on {X.shape[0]} x {X.shape[1]} PU "
          f"({(yp == 1).sum()} labelled): {wall:.1f} s wall, {cpu:.1f} s CPU, {est.n_evaluations_} objective fits in "
          f"{steps} steps; RF(100).fit {rf:.3f} s -> {wall / rf:.0f} x the forest fit")
    print(f"   ranking {est.ranking_.tolist()}  theta {np.round(est.scores_[est.ranking_], 3).tolist()}")
    print(f"   informative features 0-4 in the top 5: {found} ({len(found)}/5); "
          f"in the selection: {len(set(est.ranking_.tolist()) & set(range(5)))}/5")


if __name__ == "__main__":
    main()
