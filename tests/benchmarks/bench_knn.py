"""Speed of chapter 01c's kNN estimators and test and of chapter 05's rankers on continuous features, as ratios against
reference runs in the same process (CPU time of this process, the best of `--repeat` runs: fairer than wall time on a
shared machine; wall times are printed beside).

B1 rankers: JMI and MIM selecting k = 10 features of the book's datasets with continuous features (spambase,
   waveform, landsat, musk2, ionosphere; every numeric column continuous: estimator="knn", the default KNN_NEIGHBORS neighbours) against the
   binned path (5 equal-width bins, counted: `discretize=5`): ratio kNN / binned.
B2 estimator against tigramite (a benchmark-only package), on spambase:
   (a) the continuous CMI I(X_k; X_m | X_j) of every candidate X_k (X_j, X_m the two most relevant columns), which
       tigramite's CMIknn computes equally (chapter 01c): semisel's batched `knn_mutual_info_all` against CMIknn's
       `get_dependence_measure` per candidate (transform 'standardize', knn 3, one worker);
   (b) JMI's term I(X_k; Y | X_j) with the discrete class Y, against tigramite's CMIknnMixed (estimator 'MSinf', the
       infinite-distance cell rule of chapter 01c, knn 3 'global', one worker), per candidate; the largest difference
       between the two estimates is printed (their conventions for small cells and ties differ slightly).
B3 the test on 2,000 rows of spambase: `knn_ci_test_all` of 4 columns given 2 (199 local permutations, k = 10% of the
   rows, k_perm 5) against tigramite's CMIknn `run_test_raw` per column with the same settings (permute 'X').
Run: python tests/benchmarks/bench_knn.py [--quick] [--repeat R]   (--quick: B1 on spambase and ionosphere only)"""
import argparse
import time

import numpy as np

from semisel.datasets import discretize, load_dataset
from semisel.continuous import MixedData
from semisel.knn import knn_ci_test_all, knn_mutual_info_all
from semisel.ranking import KNN_NEIGHBORS, select


def best(f, repeat):
    "Best CPU time and best wall time of `repeat` runs of f, and f's result."
    cpu, wall = [], []
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        out = f()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return min(cpu), min(wall), out


def b1(names, repeat):
    print(f"B1  ranking k=10 features: kNN (estimator='knn', {KNN_NEIGHBORS} neighbours) against 5 equal-width bins, counted")
    print(f"    {'dataset':11s} {'rows x cols':>12s} {'criterion':9s} {'kNN CPU s':>10s} {'binned CPU s':>13s} {'ratio':>8s}"
          f" {'kNN wall s':>11s}")
    for name in names:
        X, y = load_dataset(name)
        X = X.astype(float)
        for crit in ("jmi", "mim"):
            ck, wk, _ = best(lambda: select(X, y, crit, 10, estimator="knn"), repeat)
            cb, _, _ = best(lambda: select(discretize(X, 5), y, crit, 10), repeat)    # the binning included
            print(f"    {name:11s} {f'{X.shape[0]} x {X.shape[1]}':>12s} {crit:9s} {ck:10.3f} {cb:13.4f} {ck / cb:8.0f}"
                  f" {wk:11.3f}")


def b2(repeat):
    from tigramite.independence_tests.cmiknn import CMIknn
    from tigramite.independence_tests.cmiknn_mixed import CMIknnMixed
    X, y = load_dataset("spambase")
    A = X.to_numpy(np.float64)
    M = MixedData(A, jitter=1e-10)
    rel = knn_mutual_info_all(M, y.to_numpy())
    j, m = np.argsort(rel)[::-1][:2]
    cand = np.array([c for c in range(A.shape[1]) if c not in (j, m)])
    print(f"B2  spambase ({A.shape[0]} rows), {len(cand)} candidates against the picks x{j} (and x{m})")
    ours_c, ours_w, ours = best(lambda: knn_mutual_info_all(M.take(cand), M.take(m), M.take(j)), repeat)
    ref = CMIknn(knn=3, transform="standardize", workers=1)
    xyz = np.array([0, 1, 2])
    theirs_c, theirs_w, _ = best(lambda: [ref.get_dependence_measure(np.vstack([A[:, c], A[:, m], A[:, j]]), xyz)
                                          for c in cand], repeat)
    print(f"    (a) I(X_k; X_m | X_j), continuous: semisel {ours_c:.2f} s CPU, tigramite CMIknn {theirs_c:.2f} s CPU: "
          f"ratio {ours_c / theirs_c:.3f} (wall {ours_w:.2f} s against {theirs_w:.2f} s)")
    yv = y.to_numpy()
    ours_c, ours_w, ours = best(lambda: knn_mutual_info_all(M.take(cand), yv, M.take(j)), repeat)
    mixed = CMIknnMixed(knn=3, knn_type="global", estimator="MSinf", transform="standardize", workers=1)
    dtype = np.array([[0] * A.shape[0], [1] * A.shape[0], [0] * A.shape[0]])
    run = lambda: np.array([mixed.get_dependence_measure(np.vstack([A[:, c], yv, A[:, j]]), xyz, data_type=dtype)
                            for c in cand])
    theirs_c, theirs_w, theirs = best(run, repeat)
    print(f"    (b) I(X_k; Y | X_j), Y the class: semisel {ours_c:.2f} s CPU, tigramite CMIknnMixed (MSinf) "
          f"{theirs_c:.2f} s CPU: ratio {ours_c / theirs_c:.3f} (wall {ours_w:.2f} s against {theirs_w:.2f} s); largest "
          f"difference of the estimates {np.abs(ours - theirs).max():.3g} nats (median {np.median(np.abs(ours - theirs)):.2g})")


def b3(repeat):
    from tigramite.independence_tests.cmiknn import CMIknn
    X, y = load_dataset("spambase")
    A = X.to_numpy(np.float64)[:2000]
    yv = y.to_numpy()[:2000].astype(float)
    cols, z = [0, 5, 10, 20], A[:, [51, 52]]
    ours_c, ours_w, _ = best(lambda: knn_ci_test_all(A[:, cols], yv, z, n_perm=199, n_neighbors=0.1, random_state=0),
                             repeat)
    ref = CMIknn(knn=0.1, shuffle_neighbors=5, sig_samples=199, transform="standardize", permute="X", workers=1, seed=0)
    theirs_c, theirs_w, _ = best(lambda: [ref.run_test_raw(A[:, [c]], yv[:, None], z) for c in cols], repeat)
    print(f"B3  the test, 2000 rows, 4 columns given 2, 199 permutations, k = 200: semisel {ours_c:.1f} s CPU, tigramite "
          f"CMIknn {theirs_c:.1f} s CPU: ratio {ours_c / theirs_c:.3f} (wall {ours_w:.1f} s against {theirs_w:.1f} s)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    b1(["spambase", "ionosphere"] if a.quick else ["spambase", "waveform", "landsat", "musk2", "ionosphere"], a.repeat)
    try:
        import tigramite  # noqa: F401
    except ImportError:
        print("tigramite is not installed: B2 and B3 skipped (pip install tigramite)")
    else:
        b2(a.repeat)
        b3(1)
