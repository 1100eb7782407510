"""Speed of the C-bound wrapper (semisel.cbound) on the paper's synthetic data (Fig. 3 set: 100 labelled + 900 unlabelled, 20 features).

B1: self-learning with the transductive threshold + the 5-fold CV transition matrix (done once per fit).
B2: seconds per fitness evaluation (forest on the augmented set, OOB votes, corrected C-bound) for subsets of 4 features
    (FSGA's initial length floor(sqrt 20)), 8 and 10 (CGA's masks hold ~d/2); one core.
B3: one whole FSGA run, 20 generations x 40 candidates (the paper's setting), fitness evaluated in parallel (joblib,
    --n-jobs) and cached by subset; prints the wall time and how many forests were actually fitted.
Run: python tests/benchmarks/bench_cbound.py [--trees 200] [--generations 20] [--population 40] [--n-jobs 2]
(prints figures; asserts only sanity: the run improves on its first generation). Wall and CPU seconds are both printed:
on a shared machine the CPU time of an --n-jobs 1 run is the figure that does not depend on the load.)"""
import argparse
import time

import numpy as np
from sklearn.ensemble import RandomForestClassifier

from semisel.cbound import WrapperObjective, fsga, self_learning, transition_matrix
from semisel.experiments.cbound import lut_split, synthetic_data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trees", type=int, default=200)
    ap.add_argument("--generations", type=int, default=20)
    ap.add_argument("--population", type=int, default=40)
    ap.add_argument("--n-jobs", type=int, default=2)
    a = ap.parse_args()
    X, y = synthetic_data(0)
    lab, unl, _ = lut_split(y, 100, 100, random_state=0)
    forest = RandomForestClassifier(a.trees, random_state=0)

    t, c = time.perf_counter(), time.process_time()
    sl = self_learning(X[lab], y[lab], X[unl], estimator=forest)
    t_sl, c_sl = time.perf_counter() - t, time.process_time() - c
    t, c = time.perf_counter(), time.process_time()
    L = transition_matrix(X[lab], y[lab], estimator=forest, random_state=0)
    t_cv, c_cv = time.perf_counter() - t, time.process_time() - c
    print(f"B1 self-learning ({sl.labeled_iter.max()} rounds, {len(sl.X)} rows): {t_sl:6.2f} s wall, {c_sl:6.2f} s CPU;  "
          f"transition matrix (5-fold CV): {t_cv:6.2f} s wall, {c_cv:6.2f} s CPU")

    rng = np.random.default_rng(0)
    for size in (4, 8, 10):
        obj = WrapperObjective(sl.X, sl.y, ~sl.labelled, L, n_classes=3, n_estimators=a.trees, random_state=0, n_jobs=1)
        subsets = [rng.choice(20, size, replace=False) for _ in range(8)]
        t, c = time.perf_counter(), time.process_time()
        obj.evaluate(subsets)
        print(f"B2 fitness evaluation, {size:2d} features, {a.trees} trees, 1 core: {(time.perf_counter() - t) / len(subsets):6.3f} s wall, "
              f"{(time.process_time() - c) / len(subsets):6.3f} s CPU each")

    obj = WrapperObjective(sl.X, sl.y, ~sl.labelled, L, n_classes=3, n_estimators=a.trees, random_state=0, n_jobs=a.n_jobs)
    t, c = time.perf_counter(), time.process_time()
    res = fsga(obj, 20, n_generations=a.generations, population_size=a.population, random_state=0)
    t_run, c_run = time.perf_counter() - t, time.process_time() - c
    asked = a.population * (a.generations + 1)
    print(f"B3 whole FSGA run, {a.generations} generations x {a.population} candidates, {a.trees} trees, n_jobs={a.n_jobs}: "
          f"{t_run:7.1f} s wall, {c_run:7.1f} s CPU in this process  ({obj.n_evaluations} forests fitted for {asked} candidate scorings; "
          f"{t_run / obj.n_evaluations:.3f} s per fitted forest)")
    print(f"   best subset {res.subset.tolist()}  fitness {res.fitness:.4f}  removed {res.info['removed'].tolist()}")
    assert res.history.best_fitness.iloc[-1] >= res.history.best_fitness.iloc[0] - 1e-9


if __name__ == "__main__":
    main()
