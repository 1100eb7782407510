"""Speed of the C-bound wrapper (issue 16): one fitness evaluation on Spambase and a whole default run on a 5,000 x 30
table, each set against a plain `RandomForestClassifier(n_estimators=100).fit` on the same data in the same run (the
machine is shared: the ratio is the figure that travels).

Default:
  E1  Spambase (4601 x 57, binary): a stratified split with 10% test and 10% of the rest labelled (`lut_split`),
      self-learning and the transition matrix as `CBoundWrapper` builds them (default forest), then seconds per fitness
      evaluation of the default `WrapperObjective` (no memo) on random subsets of 7 features (FSGA's floor(sqrt d)) and
      of 28 (CGA's masks hold about d/2); RF(100).fit on the augmented set;
  E2  a whole default run, `CBoundWrapper(random_state=0, **CLI_CBOUND).fit` -- what `semisel rank --method cbound`
      should run (CLI_CBOUND: the settings the command line passes; `--paper` runs the estimator's own defaults, the
      paper's) -- on the semi-supervised 5,000 x 30 table of `bench_fscpu.wide_table` (5 informative features 0-4,
      10% of the rows labelled): wall and CPU seconds (CPU of this process only: worker processes are not counted),
      forests fitted, generations, informative features found; RF(100).fit on the same table, fully labelled.
  --synthetic: the earlier benchmark on the paper's synthetic data (self-learning + transition matrix; fitness per
      subset size; one whole FSGA run of --generations x --population).

    python tests/benchmarks/bench_cbound.py [--evals 6] [--skip-run] [--paper] [--generations G]
    python tests/benchmarks/bench_cbound.py --synthetic [--trees 200] [--generations 20] [--population 40] [--n-jobs 2]
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_fscpu import forest_reference, timed, wide_table  # noqa: E402

from semisel.cbound import (CBoundWrapper, WrapperObjective, default_forest, fsga, self_learning,  # noqa: E402
                            transition_matrix)
from semisel.datasets import load_dataset  # noqa: E402
from semisel.experiments.cbound import lut_split, synthetic_data  # noqa: E402

# What `semisel rank --method cbound` should pass (issue 16): 100-tree forests (the authors' journal code) whose trees
# see bootstrap samples of at most 1000 rows in the search, 10 generations of 20 candidates (4 parents), stopped after
# 3 generations without a better fitness, both cores.
CLI_CBOUND = dict(n_estimators=100, max_samples=1000, n_generations=10, population_size=20, n_parents=4, patience=3,
                  n_jobs=2)


def spambase_objective(seed=0):
    "The augmented Spambase set and the default fitness, built as CBoundWrapper builds them."
    X, y = load_dataset("spambase", as_frame=False)
    X = np.asarray(X, float)
    lab, unl, _ = lut_split(y, 0.1, 0.1, random_state=seed)
    forest = default_forest(200, seed)
    (sl, t_sl, _) = timed(lambda: self_learning(X[lab], y[lab], X[unl], estimator=forest, n_classes=2, random_state=seed))
    (L, t_cv, _) = timed(lambda: transition_matrix(X[lab], y[lab], n_classes=2, estimator=forest, random_state=seed))
    obj = WrapperObjective(sl.X, sl.y, ~sl.labelled, L, n_classes=2, random_state=seed)
    obj.cache = False
    return obj, sl, t_sl, t_cv


def synthetic(a):
    "The earlier benchmark on the paper's synthetic data (Fig. 3 set)."
    X, y = synthetic_data(0)
    lab, unl, _ = lut_split(y, 100, 100, random_state=0)
    forest = default_forest(a.trees, 0)
    sl, t_sl, c_sl = timed(lambda: self_learning(X[lab], y[lab], X[unl], estimator=forest))
    L, t_cv, c_cv = timed(lambda: transition_matrix(X[lab], y[lab], estimator=forest, random_state=0))
    print(f"B1 self-learning ({sl.labeled_iter.max()} rounds, {len(sl.X)} rows): {t_sl:6.2f} s wall, {c_sl:6.2f} s CPU;  "
          f"transition matrix (5-fold CV): {t_cv:6.2f} s wall, {c_cv:6.2f} s CPU")
    rng = np.random.default_rng(0)
    for size in (4, 8, 10):
        obj = WrapperObjective(sl.X, sl.y, ~sl.labelled, L, n_classes=3, n_estimators=a.trees, random_state=0, n_jobs=1)
        subsets = [rng.choice(20, size, replace=False) for _ in range(8)]
        _, t, c = timed(lambda: obj.evaluate(subsets))
        print(f"B2 fitness evaluation, {size:2d} features, {a.trees} trees, 1 core: {t / len(subsets):6.3f} s wall, "
              f"{c / len(subsets):6.3f} s CPU each")
    obj = WrapperObjective(sl.X, sl.y, ~sl.labelled, L, n_classes=3, n_estimators=a.trees, random_state=0, n_jobs=a.n_jobs)
    res, t_run, c_run = timed(lambda: fsga(obj, 20, n_generations=a.generations, population_size=a.population,
                                           random_state=0))
    print(f"B3 whole FSGA run, {a.generations} generations x {a.population} candidates, {a.trees} trees, "
          f"n_jobs={a.n_jobs}: {t_run:7.1f} s wall, {c_run:7.1f} s CPU in this process ({obj.n_evaluations} forests "
          f"fitted for {a.population * (a.generations + 1)} candidate scorings)")
    print(f"   best subset {res.subset.tolist()}  fitness {res.fitness:.4f}  removed {res.info['removed'].tolist()}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--evals", type=int, default=6)
    ap.add_argument("--skip-run", action="store_true", help="skip E2 (the whole default run)")
    ap.add_argument("--generations", type=int, default=None, help="E2: cap the generations (default: the preset's)")
    ap.add_argument("--paper", action="store_true", help="E2 with the estimator's defaults (the paper's), not CLI_CBOUND")
    ap.add_argument("--synthetic", action="store_true")
    ap.add_argument("--trees", type=int, default=200)
    ap.add_argument("--population", type=int, default=40)
    ap.add_argument("--n-jobs", type=int, default=2)
    a = ap.parse_args()
    if a.synthetic:
        a.generations = 20 if a.generations is None else a.generations
        return synthetic(a)

    print(f"load average {os.getloadavg()}  (2 cores shared: compare the ratios to the forest fit)")
    obj, sl, t_sl, t_cv = spambase_objective()
    rf_spam = forest_reference(sl.X, sl.y)
    print(f"E1 Spambase: self-learning {t_sl:.1f} s ({len(sl.X)} rows after it), transition matrix {t_cv:.1f} s; "
          f"RF(100).fit on the augmented set {rf_spam:.3f} s")
    rng = np.random.default_rng(0)
    for size in (7, 28):
        subsets = [np.sort(rng.choice(57, size, replace=False)) for _ in range(a.evals)]
        _, t, c = timed(lambda: obj.evaluate(subsets))
        print(f"E1 fitness evaluation on Spambase, {size} features: {t / a.evals:.3f} s wall, {c / a.evals:.3f} s CPU each "
              f"-> {t / a.evals / rf_spam:.2f} x the forest fit")
    if a.skip_run: return
    X, y, yp = wide_table(pu=False)
    rf = forest_reference(X, y)
    kw = {} if a.paper else dict(CLI_CBOUND)
    if a.generations is not None: kw["n_generations"] = a.generations
    est, wall, cpu = timed(lambda: CBoundWrapper(random_state=0, **kw).fit(X, yp))
    found = set(est.ranking_.tolist()) & set(range(5))
    gens = est.result_.info.get("stopped_at", len(est.history_) - 1)
    print(f"E2 whole default run CBoundWrapper(random_state=0, **{kw}) on {X.shape[0]} x {X.shape[1]} "
          f"({(yp >= 0).sum()} labelled): {wall:.1f} s wall, {cpu:.1f} s CPU (this process), {est.n_evaluations_} "
          f"forests fitted in {gens + 1} generations; RF(100).fit {rf:.3f} s -> {wall / rf:.0f} x the forest fit")
    print(f"   selected {sorted(est.ranking_.tolist())}; informative 0-4 found {len(found)}/5, "
          f"noise selected {len(set(est.ranking_.tolist()) - set(range(5)))}; fitness {est.best_fitness_:.4f}")


if __name__ == "__main__":
    main()
