"""Set-level error of the Markov-blanket learners (issue 42, item 9; a script, not a test). alpha is the level of each
test a learner makes, not an error rate of the set it returns: this prints, per learner, test and alpha, how many false
members the set holds, how often it holds any (the family-wise error, FWER) and their share of the set (the false
discovery proportion, FDP), on data where the truth is known:

- "null": 50 features of 3 equally likely levels, independent of a class with p(y = 1) = 0.3: every member is false;
- "5 members": the same, but 5 features (at random positions) are drawn given the class, each with I(X; Y) = 0.01
  nats (`semisel.surrogates.class_conditionals_with_mi`): the true blanket is those 5 (the others are independent of
  the class and of them), and recall is printed beside the errors.

Every learner of `semisel.blankets.ALGORITHMS` (bnlearn's; `learn_mb`) and the papers' IAMB (`semisel.iamb.iamb`, named
"iamb.papers"), each with the tests "mi", "adf" (bnlearn's) and "g-adf" (calibrated). Replicate r of size n is drawn
from the seed [42, n, r, design]: the same data for every learner. With --out the run rows are written as a CSV (gzip
by the name), which chapter 04b reads.

    OMP_NUM_THREADS=1 python tests/benchmarks/bench_set_error.py [--n 2000] [--reps 200] [--alpha 0.01 0.05 0.1]
        [--tests mi adf g-adf] [--learners gs mmpc ...] [--jobs 1] [--out rows.csv.gz]
"""
import argparse
import time

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from semisel.blankets import ALGORITHMS, learn_mb
from semisel.iamb import iamb
from semisel.surrogates import class_conditionals_with_mi, sample_given_class

FEATURES, LEVELS, P_Y, MEMBERS, MI = 50, 3, 0.3, 5, 0.01
DESIGNS = ("null", "5 members")
PAPERS = "iamb.papers"


def draw(design: str, n: int, rep: int):
    "(X as uint8 codes, y, the true members) of replicate `rep` of `design` with `n` rows."
    rng = np.random.default_rng([42, n, rep, DESIGNS.index(design)])
    y = (rng.random(n) < P_Y).astype(np.int64)
    X = rng.integers(0, LEVELS, (n, FEATURES)).astype(np.uint8)
    members = []
    if design == "5 members":
        members = sorted(rng.choice(FEATURES, MEMBERS, replace=False).tolist())
        cond = class_conditionals_with_mi(MEMBERS, LEVELS, P_Y, MI, random_state=rng)
        X[:, members] = sample_given_class(cond, np.tile(y, (MEMBERS, 1)), random_state=rng).T
    return np.asfortranarray(X), y, members


def learn(X, y, learner: str, test: str, alpha: float) -> list:
    "The set `learner` returns (column indices)."
    if learner == PAPERS: return [int(j) for j in iamb(X, y, alpha, test).selected]
    return list(learn_mb(X, y, learner, test, alpha).members)


def replicate(design: str, n: int, rep: int, learners, tests, alphas) -> list:
    "One row per (learner, test, alpha) on replicate `rep`: the set's size, its false and true members, CPU seconds."
    X, y, members = draw(design, n, rep)
    rows = []
    for learner in learners:
        for test in tests:
            for alpha in alphas:
                t0 = time.process_time()
                found = learn(X, y, learner, test, alpha)
                false = len(set(found) - set(members))
                rows.append(dict(design=design, n=n, rep=rep, learner=learner, test=test, alpha=alpha, size=len(found),
                                 false=false, true=len(found) - false, seconds=time.process_time() - t0))
    return rows


def read_rows(path) -> pd.DataFrame:
    "The run rows written by --out (the design 'null' read as text, not as pandas' missing value)."
    return pd.read_csv(path, keep_default_na=False)


def summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per design, n, learner, test and alpha: mean false members, FWER (a false member in the set), mean FDP (false
    members over the set's size, 0 for an empty set), recall of the true members, mean size and CPU seconds."""
    r = rows.assign(any_false=rows["false"] > 0, fdp=rows["false"] / rows["size"].clip(lower=1),
                    recall=np.where(rows.design == "null", np.nan, rows["true"] / MEMBERS))
    return (r.groupby(["design", "n", "learner", "test", "alpha"])
             .agg(false=("false", "mean"), fwer=("any_false", "mean"), fdp=("fdp", "mean"), recall=("recall", "mean"),
                  size=("size", "mean"), seconds=("seconds", "mean"), reps=("rep", "size")).reset_index())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, nargs="+", default=[2000])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--alpha", type=float, nargs="+", default=[0.10])
    ap.add_argument("--tests", nargs="+", default=["mi", "adf", "g-adf"])
    ap.add_argument("--learners", nargs="+", default=[*ALGORITHMS, PAPERS])
    ap.add_argument("--designs", nargs="+", default=list(DESIGNS), choices=DESIGNS)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", help="write the run rows here (CSV; gzip when the name ends in .gz)")
    a = ap.parse_args()
    t0 = time.perf_counter()
    jobs = [(d, n, r) for d in a.designs for n in a.n for r in range(a.reps)]
    rows = pd.DataFrame([row for part in Parallel(n_jobs=a.jobs)(
        delayed(replicate)(d, n, r, a.learners, a.tests, a.alpha) for d, n, r in jobs) for row in part])
    if a.out: rows.to_csv(a.out, index=False)
    table = summary(rows)
    pd.set_option("display.width", 160)
    for (design, n), t in table.groupby(["design", "n"], sort=False):
        cols = ["false", "fwer", "fdp"] + ([] if design == "null" else ["recall"]) + ["size", "seconds"]
        print(f"\n{design}: {FEATURES} features of {LEVELS} levels, n = {n}, {a.reps} replicates "
              f"(false: mean false members; fwer: share of sets with one; fdp: mean false share of the set)")
        print(t.set_index(["learner", "test", "alpha"])[cols].round(3).to_string())
    print(f"\n{len(rows)} runs, {rows.seconds.sum() / 60:.1f} CPU-min of learning, "
          f"{(time.perf_counter() - t0) / 60:.1f} min wall")


if __name__ == "__main__":
    main()
