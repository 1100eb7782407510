"""Benchmark of semisel.baselines (a script, not a test): wall and CPU seconds of each technique on Adult at the (10,90)
split (co-training also with its fold trees in 2 threads), then the Figure-3 replication (Adult, 5 splits x `--runs`
runs, all seven techniques) with joblib n_jobs=2 and a progress bar.

    OMP_NUM_THREADS=1 python tests/benchmarks/bench_baselines.py [--runs 10] [--skip-figure3]
"""
import argparse
import time

import numpy as np
import pandas as pd

from semisel.baselines import CoTraining, normalized_auc
from semisel.experiments.baselines import SPLITS, TECHNIQUES, mcar_split, run_replication
from semisel.datasets import load_dataset


def adult():
    Xtr, ytr = load_dataset("adult"); Xte, yte = load_dataset("adult", split="test")
    d = pd.get_dummies(pd.concat([Xtr, Xte]), drop_first=True, dtype=float)
    return Xtr, ytr.to_numpy(), Xte, yte.to_numpy(), (d.iloc[:len(Xtr)].to_numpy(), d.iloc[len(Xtr):].to_numpy())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--skip-figure3", action="store_true")
    a = ap.parse_args()
    Xtr, ytr, Xte, yte, (Ntr, Nte) = adult()
    yp = mcar_split(ytr, 0.10, random_state=0)
    print(f"Adult {Xtr.shape[0]} train / {Xte.shape[0]} test rows, (10,90) split: {int((yp != -1).sum())} labelled")
    print(f"{'technique':22s} {'fit+predict s':>14s} {'CPU s':>7s} {'AUC':>7s}")
    makers = {name: TECHNIQUES[name] for name in ("Supervised", "ASS1NN", "ASSCLS0", "Samp-Sel", "Reweight", "Co-train", "CC", "Probit")}
    makers["Co-train (2 threads)"] = lambda rs: CoTraining(n_jobs=2, random_state=rs)
    for name, make in makers.items():
        A, At = (Ntr, Nte) if name == "Probit" else (Xtr, Xte)
        t, c = time.perf_counter(), time.process_time()
        est = make(0).fit(A, yp)
        auc = normalized_auc(yte, est.predict_proba(At)[:, 1])
        print(f"{name:22s} {time.perf_counter() - t:14.2f} {time.process_time() - c:7.2f} {auc:7.3f}", flush=True)
    if a.skip_figure3: return
    t = time.perf_counter()
    res = run_replication({"adult": (Xtr, ytr, Xte, yte, (Ntr, Nte))}, splits=SPLITS, n_runs=a.runs, n_jobs=a.n_jobs, random_state=2)
    print(f"Figure 3 (Adult, {len(SPLITS)} splits x {a.runs} runs, n_jobs={a.n_jobs}): {time.perf_counter() - t:.1f} s")
    print(res.groupby(["split", "technique"], sort=False)["auc"].mean().unstack("technique").round(3).to_string())


if __name__ == "__main__":
    main()
