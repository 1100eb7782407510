"""Why the default `markov_blanket` on floats ("sp-mi-cg" then; "seq-mi-cg" since chapter 04c's second amendment) costs
minutes on some arth150 targets (issue 40).

The larger grid of chapter 04c (nbs/04c_continuous_blankets.ipynb, `run_b`): arth150, normal noise, 2,000 rows, the
target binarised at its mean, 70% of the labels erased MCAR, seed 1, `markov_blanket(X, yp, prior=0.5, alpha=0.10)`
(Semi, the default learner "mmpc", no max_sx). This script runs that call on one target under a CPU cap and reports
the tests the learner asked (association tests and permutation decisions by conditioning-set size, permutations), the
decisions and CPU of each MMPC phase by the node it learns, and the CPU by function (cProfile), even when the cap
stops it. The fix is now the library's: the "sp-" and "seq-" tests screen `allsubs` (chapter 04, `CITest.screen`);
`--every-subset` runs the path before it (a permutation decision at every subset); the figures below marked
`--decide-at-max` are of the fix when it was tried here only, the library's path now. `--parity` compares the two paths on the first 12
samples of chapter 04c's grid (the members, F1 and CPU; the every-subset path twice, seeds 1 and 2, as the Monte Carlo
baseline) and appends to nbs/results/continuous_screen_parity.csv (resumable, a sample at a time).
Run (niced, one process): nice -n 10 python tests/benchmarks/diag_arth150_cost.py --target 198 --cap 300

Measured (2 shared cores, under cProfile, which slows the run):
* Target 629 (a fast one): 11 CPU-s, 1,967 association tests, 801 permutation decisions (|Z| up to 7).
* Target 198, as it is: stopped at the 417 CPU-s cap (the grid's run took 425 CPU-s), after 48,000 association tests
  (in 38,044 calls) and 43,963 permutation decisions of 100 permutations each (4.4 million permutations, 303 CPU-s in
  `_calibrate`: `_CGLaw.draw` 199 s, `_within` 84 s), |Z| mostly 4-9, up to 13; almost all without discrete strata
  (kz = 1). A 150 s run attributes them: MMPC of node '81' (a hub of degree 17, learned as `pc_of` a member in
  `_spouses`) made 13,735 decisions in its forward phase (CPC 13) and 2,657 more in the first seconds of its backward
  phase; the target's own MMPC and the other members' made under 200.
* The cause: `_Tests.allsubs` with a randomised test decides by permutation at every subset of the set found until one
  is independent. A candidate that stays dependent is decided on all 2^|CPC| subsets, in the forward phase (each
  addition's `allsubs(best, t, cpc)`) and in `_neighbours` (|CPC| x 2^(|CPC|-1)); each decision is a separate
  `ci_test_columns` call (one column, its own law, 100 permutations of 2,000 rows: about 7 ms).
* Target 198 with `--decide-at-max`: finished in 81 CPU-s, 95 decisions, F1 0.444 against the true blanket (the
  grid's stored F1 for this sample as it is: 0.444, 4 members); target 629: 2 CPU-s, 84 decisions, F1 0.556 (as it
  is: 0.444). The association tests are then the cost: 117,000 of them, 73 s in the backward phase of node '81' phase (CPC 14).
* Target 61 with `--decide-at-max` (as it is: past 17 minutes in the grid, not finished): finished in 370 CPU-s, F1
  0.500, 86 decisions but 601,000 association tests (in 491,334 calls), 341 s of them in the backward phase of node
  '570' (a hub of degree 20, CPC 16: 16 x 2^15 = 524,288 subsets, one `ci_test_columns` call each, about 0.6 ms).
  The second cause: MMPC's all-subsets search without `max_sx` around a hub, at the per-call cost of a one-column
  conditional Gaussian test in Python.
* `--parity` (6 of the 12 samples run; stopped to leave the shared CPU to chapter 04c's grid, resumable): the same
  blanket screened and deciding every subset (seed 1) on 3 of 6 samples; deciding every subset with seeds 1 and 2 on 2
  of 6: the screen moves the blanket no more than the permutations' own Monte Carlo noise does. CPU 10.7 s screened
  against 32.6 s (seed 1) in all.
* bnlearn pays the second cause too (`--nbr-vs-bnlearn 570`: the same all-float sample, "mi-g", alpha 0.10):
  bnlearn's learn.nbr with mmpc found 15 neighbours of '570' in 51 CPU-s, semisel's learn_nbr the same set in 44
  CPU-s with 325,243 tests. The all-subsets search is MMPC's (max.sx unlimited by default in both); the default's
  MMMB spouse step runs it once for every member of the target's PC, so a hub in PC(T) costs it whole.
"""
import argparse
import cProfile
import collections
import pstats
import signal
import time
import warnings

import numpy as np

from semisel import blankets, continuous
from semisel.iamb import markov_blanket
from semisel.networks import gaussian_blanket, gaussian_dataset, score_blanket
from semisel.surrogates import mcar


class Capped(Exception):
    pass


def _alarm(*_):
    raise Capped


def instrument(log):
    "Count every batch `_MixedTests` asks and every permutation law `_calibrate` draws from."
    many, decide, calib = blankets._MixedTests._many, blankets._MixedTests._decide, continuous._calibrate

    def _many(self, tests):
        for x, y, zkey in tests: log["assoc_z"][len(zkey)] += 1
        log["assoc_batches"] += 1
        return many(self, tests)

    def _decide(self, x, y, zkey):
        log["decide_z"][len(zkey)] += 1
        return decide(self, x, y, zkey)

    def _calibrate(law, live, how, n_perm, alpha, rng):
        t0 = time.process_time()
        out = calib(law, live, how, n_perm, alpha, rng)
        log["calib_calls"] += 1
        log["calib_cols"] += len(live)
        log["calib_kz"][getattr(law, "kz", None)] += 1
        log["calib_perm"] += int(np.sum(out[2]))
        log["calib_cpu"] += time.process_time() - t0
        return out

    blankets._MixedTests._many, blankets._MixedTests._decide, continuous._calibrate = _many, _decide, _calibrate

    def phase(name, f):
        "Decisions made and CPU spent inside `f`, by the node it learns and the size of the set it starts from."
        def g(E, t, nodes, *args):
            d0, c0 = sum(log["decide_z"].values()), time.process_time()
            try: return (out := f(E, t, nodes, *args))
            finally:
                size = len(nodes) if name == "backward" else len(out) if "out" in locals() else "stopped"
                log["phases"].append((name, t, size, sum(log["decide_z"].values()) - d0, time.process_time() - c0))
        return g
    blankets._mmpc_forward = phase("forward", blankets._mmpc_forward)
    blankets._neighbours = phase("backward", blankets._neighbours)


def every_subset():
    "The path before the fix: the permutation test decides at every subset `allsubs` asks (`CITest.screen` off)."
    import dataclasses
    make = blankets.make_ci
    blankets.make_ci = lambda *a, **kw: dataclasses.replace(make(*a, **kw), screen=False)


def parity(cap: float) -> None:
    """The first 12 samples of chapter 04c's larger grid (`run_b`'s call): the default with the screen (seed 1), and
    without it (seeds 1 and 2, the Monte Carlo baseline); members, F1 and CPU, to nbs/results/continuous_screen_parity.csv.
    A run past `cap` CPU-s is stopped (recorded as not finished)."""
    import dataclasses
    import resource
    import pandas as pd
    from semisel._slowcells import results_dir
    from semisel.networks import GAUSSIAN_NETWORKS, gaussian_targets
    out = results_dir() / "continuous_screen_parity.csv"
    make, rows = blankets.make_ci, (pd.read_csv(out, dtype={"target": str}, keep_default_na=False).to_dict("records")
                                    if out.exists() else [])            # resumable: a sample's three runs written together
    tg = {n: [gaussian_targets(n)[i] for i in np.unique(np.linspace(0, len(gaussian_targets(n)) - 1, 6).round().astype(int))]
          for n in GAUSSIAN_NETWORKS}
    signal.signal(signal.SIGXCPU, _alarm)
    for i in range(3):
        for name in GAUSSIAN_NETWORKS:
            target = tg[name][i]
            if any(r["network"] == name and r["target"] == target for r in rows): continue
            X, y = gaussian_dataset(name, target, 2000, random_state=1, noise="normal")
            yp, truth = mcar(y.to_numpy(), 0.3, random_state=1), gaussian_blanket(name, target)
            for path, screen, seed in (("screened", True, 1), ("every subset", False, 1), ("every subset", False, 2)):
                blankets.make_ci = lambda *a, _s=screen, **kw: dataclasses.replace(make(*a, **kw), screen=_s)
                used = resource.getrusage(resource.RUSAGE_SELF).ru_utime
                resource.setrlimit(resource.RLIMIT_CPU, (int(used) + int(cap), resource.RLIM_INFINITY))
                t0, found = time.process_time(), None
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try: found = sorted(markov_blanket(X, yp, prior=0.5, alpha=0.10, random_state=seed).selected)
                    except Capped: pass
                resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
                rows.append(dict(network=name, target=target, path=path, seed=seed, finished=found is not None,
                                 members=" ".join(found or []), cpu=round(time.process_time() - t0, 3),
                                 f_measure=round(score_blanket(found, truth).f_measure, 6) if found is not None else np.nan))
                print(rows[-1], flush=True)
            blankets.make_ci = make
            pd.DataFrame(rows).to_csv(out, index=False)


def nbr_vs_bnlearn(network: str, node: str, rows: int, seed: int, cap: int, test: str = "mi-g") -> None:
    "MMPC's neighbours of `node` (continuous, all-float sample) by bnlearn's learn.nbr and by semisel's, CPU of each."
    from semisel.blankets import bnlearn_learn, learn_nbr
    from semisel.networks import gaussian_network, sample_gaussian
    D = sample_gaussian(gaussian_network(network), rows, random_state=seed)
    R = bnlearn_learn(D, [(node, "mmpc", "nbr")], test, 0.10)
    print(f"bnlearn learn.nbr mmpc {test} of {node!r}: {len(R.members.iloc[0])} neighbours, {R.cpu.iloc[0]:.0f} CPU-s")
    t0 = time.process_time()
    r = learn_nbr(D.drop(columns=node), D[node].to_numpy(), "mmpc", test, 0.10)
    same = sorted(r.selected) == sorted(R.members.iloc[0])
    print(f"semisel learn_nbr: {len(r.selected)} neighbours ({'the same set' if same else 'a different set'}), "
          f"{r.n_tests} tests, {time.process_time() - t0:.0f} CPU-s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--network", default="arth150")
    ap.add_argument("--target", default="198")
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cap", type=int, default=300, help="CPU seconds before the run is stopped")
    ap.add_argument("--test", default=None)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--every-subset", action="store_true", help="the path before the fix (`every_subset`)")
    ap.add_argument("--parity", action="store_true", help="both paths on the grid's first 12 samples (`parity`)")
    ap.add_argument("--nbr-vs-bnlearn", metavar="NODE", help="only time MMPC's neighbours of NODE, bnlearn beside semisel")
    a = ap.parse_args()
    if a.nbr_vs_bnlearn: return nbr_vs_bnlearn(a.network, a.nbr_vs_bnlearn, a.rows, a.seed, a.cap)
    if a.parity: return parity(a.cap)
    X, y = gaussian_dataset(a.network, a.target, a.rows, random_state=a.seed, noise="normal")
    yp = mcar(y.to_numpy(), 0.3, random_state=a.seed)
    log = collections.defaultdict(int, assoc_z=collections.Counter(), decide_z=collections.Counter(),
                                  calib_kz=collections.Counter(), phases=[])
    instrument(log)
    if a.every_subset: every_subset()
    signal.signal(signal.SIGXCPU, _alarm)
    import resource
    used = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    resource.setrlimit(resource.RLIMIT_CPU, (int(used) + a.cap, resource.RLIM_INFINITY))
    prof, t0, res = cProfile.Profile(), time.process_time(), None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prof.enable()
        try: res = markov_blanket(X, yp, prior=0.5, alpha=0.10, test=a.test, random_state=a.seed)
        except Capped: pass
        finally: prof.disable()
    cpu = time.process_time() - t0
    truth = gaussian_blanket(a.network, a.target)
    f1 = score_blanket(list(res.selected), truth).f_measure if res else float("nan")
    print(f"{'every subset (before the fix)' if a.every_subset else 'screened (the library)'}: F1 against the true blanket {f1:.3f} ({truth})")
    print(f"{a.network} target {a.target}: {'finished' if res else 'STOPPED at the cap'} after {cpu:.0f} CPU-s; "
          f"blanket {sorted(res.selected) if res else None}")
    print(f"association batches {log['assoc_batches']}, association tests by |Z|: {dict(sorted(log['assoc_z'].items()))}")
    print(f"decisions by |Z|: {dict(sorted(log['decide_z'].items()))}")
    print(f"permutation calibrations {log['calib_calls']} over {log['calib_cols']} columns, {log['calib_perm']} "
          f"permutations in all, {log['calib_cpu']:.0f} CPU-s; by strata of the discrete Z: {dict(log['calib_kz'])}")
    print("MMPC phases (phase, node learned, |CPC| found / started from, decisions, CPU-s), the costliest first:")
    for row in sorted(log["phases"], key=lambda r: -r[4])[:12]: print("  ", row)
    print(f"   ... {len(log['phases'])} phases in all")
    pstats.Stats(prof).sort_stats("tottime").print_stats(a.top)


if __name__ == "__main__":
    main()
