"""The continuous blanket learners' CPU against R's bnlearn 4.9 (a script, not a test): chapter 04c's parity jobs
(cells c4c00005 / c4c00007), timed the same way, in one run: `learn_mb` / `learn_nbr` with "mi-cg" (the target
binarised at its mean: a mixture) and "mi-g" (the target continuous) on samples of the Gaussian networks, every
benchmark target and learner, beside bnlearn's `learn.mb` / `learn.nbr` on the same data (timed inside R, one Rscript
call per sample and test). Prints, per test and per learner, the CPU seconds summed and semisel / bnlearn, and whether
the sets are bnlearn's.

With `--before PATH`, the checkout at PATH (its `semisel` folder copied and imported as `semisel_before`) runs the same
calls in the same process, alternately with the current ones, so both ratios come from the same run and load; its sets
are compared with the current ones.

Run: OMP_NUM_THREADS=1 python tests/benchmarks/bench_continuous_blankets.py [--nets ecoli70:500 magic-niab:500]
     [--algorithms gs iamb ...] [--before PATH]
(defaults: ecoli70 and magic-niab at 500 rows, the 8 learners of 04c's grid; 04c's full grid adds magic-irri:1000
arth150:1000). Without R it says so and stops."""
import argparse
import importlib
import os
import shutil
import sys
import tempfile
import time

import numpy as np
import pandas as pd

from semisel.blankets import bnlearn_available, bnlearn_learn, learn_mb, learn_nbr
from semisel.networks import gaussian_means, gaussian_network, gaussian_targets, sample_gaussian

MB = ("gs", "iamb", "fast.iamb", "inter.iamb", "iamb.fdr")
LEARNERS = MB + ("mmpc", "si.hiton.pc", "hpc")                 # 04c's grid (pc.stable left out there too)


def older(path: str, tmp: str):
    "`learn_mb` and `learn_nbr` of the checkout at `path`, imported in this process as `semisel_before`."
    shutil.copytree(os.path.join(path, "semisel"), os.path.join(tmp, "semisel_before"))
    sys.path.insert(0, tmp)
    m = importlib.import_module("semisel_before.blankets")
    return m.learn_mb, m.learn_nbr


def cpu(f, *args):
    t0 = time.process_time()
    r = f(*args)
    return time.process_time() - t0, tuple(sorted(r.selected))


def sample(name: str, n: int, test: str, algorithms, before, seed: int = 0) -> list:
    "The rows of one (network, n, test): each job's CPU and set for semisel, bnlearn (and the older checkout)."
    net = gaussian_network(name)
    D, mu, targets = sample_gaussian(net, n, random_state=seed), gaussian_means(net), gaussian_targets(net)
    jobs = [(t, a, "mb" if a in MB else "nbr") for t in targets for a in algorithms]
    R = bnlearn_learn(D, jobs, test, 0.05, above={t: mu[t] for t in targets} if test == "mi-cg" else None)
    rows = []
    for (t, a, k), r in zip(jobs, R.itertuples()):
        y = (D[t] > mu[t]).astype(np.int64).to_numpy() if test == "mi-cg" else D[t].to_numpy()
        X = D.drop(columns=t)
        row = dict(network=name, n=n, test=test, algorithm=a, target=t, bnlearn=r.cpu)
        row["semisel"], found = cpu(learn_mb if k == "mb" else learn_nbr, X, y, a, test, 0.05)
        row["same"] = found == tuple(sorted(r.members))
        if before:
            row["before"], old = cpu(before[0] if k == "mb" else before[1], X, y, a, test, 0.05)
            row["same_before"] = old == found
        rows.append(row)
    return rows


def report(df: pd.DataFrame, by: str) -> pd.DataFrame:
    cols = ["semisel", "bnlearn"] + (["before"] if "before" in df else [])
    tab = df.groupby(by)[cols].sum()
    tab["semisel/bnlearn"] = tab.semisel / tab.bnlearn
    if "before" in df: tab["before/bnlearn"], tab["same_before"] = tab.before / tab.bnlearn, df.groupby(by).same_before.mean()
    tab["same_as_bnlearn"] = df.groupby(by).same.mean()
    return tab.round(3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nets", nargs="+", default=["ecoli70:500", "magic-niab:500"], help="network:rows")
    ap.add_argument("--tests", nargs="+", default=["mi-cg", "mi-g"])
    ap.add_argument("--algorithms", nargs="+", default=list(LEARNERS))
    ap.add_argument("--before", help="an older checkout (its semisel folder) to time in the same run")
    a = ap.parse_args()
    if not bnlearn_available():
        print("R with bnlearn is not available here: nothing to compare with")
        return
    before = older(a.before, tempfile.mkdtemp()) if a.before else None
    for name, n in (s.split(":") for s in a.nets[:1]):           # warm-up: numba kernels, imports, caches
        sample(name, 200, "mi-cg", ["iamb"], before)
    rows = []
    for spec in a.nets:
        name, n = spec.split(":")
        for test in a.tests:
            rows += sample(name, int(n), test, a.algorithms, before)
            done = pd.DataFrame(rows)
            print(f"{name} n={n} {test}: semisel {done.semisel.sum():.2f} s, bnlearn {done.bnlearn.sum():.2f} s"
                  + (f", before {done.before.sum():.2f} s" if before else ""), flush=True)
    df = pd.DataFrame(rows)
    pd.set_option("display.width", 200)
    print(f"\n{len(df)} jobs; CPU seconds summed (semisel warm, bnlearn timed inside R), by test:")
    print(report(df, "test").to_string())
    print("\nby test and learner:")
    print(report(df, ["test", "algorithm"]).to_string())


if __name__ == "__main__":
    main()
