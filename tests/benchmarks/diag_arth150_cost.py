"""Why the default `markov_blanket` on floats ("sp-mi-cg", chapter 04c) costs minutes on some arth150 targets (issue 40).

The larger grid of chapter 04c (nbs/04c_continuous_blankets.ipynb, `run_b`): arth150, normal noise, 2,000 rows, the
target binarised at its mean, 70% of the labels erased MCAR, seed 1, `markov_blanket(X, yp, prior=0.5, alpha=0.10)`
(Semi, the default learner "mmpc", no max_sx). This script runs that call on one target under a CPU cap and reports
the tests the learner asked (association tests and permutation decisions by conditioning-set size, permutations), the
decisions and CPU of each MMPC phase by the node it learns, and the CPU by function (cProfile), even when the cap
stops it. `--decide-at-max` tries a candidate fix (`decide_at_max`, here only: not in the library).
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
* bnlearn pays the second cause too (`--nbr-vs-bnlearn 570`: the same all-float sample, "mi-g", alpha 0.10):
  bnlearn's learn.nbr with mmpc found 15 neighbours of '570' in 51 CPU-s, semisel's learn_nbr the same set in 44
  CPU-s with 325,243 tests. The all-subsets search is MMPC's (max.sx unlimited by default in both); the default's
  MMMB spouse step runs it once for every member of the target's PC, so a hub in PC(T) costs it whole.
"""
import argparse
import cProfile
import collections
import itertools
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


def decide_at_max():
    """A candidate fix, tried here only (not in the library): `allsubs` with a permutation decision searches the
    subsets by the asymptotic association (the base test: cheap, batched ahead) and makes one permutation decision, at
    the first subset whose association p exceeds alpha or else at the subset of largest association p."""
    def allsubs(self, x, y, sx, fixed=(), lo=0, hi=None, assoc=False):
        if assoc or not self.ci.randomised: return ALLSUBS(self, x, y, sx, fixed, lo, hi, assoc)
        hi = len(sx) if hi is None else min(hi, len(sx))
        fixed, best, pmax = tuple(fixed), None, -1.0
        sets = [fixed] if lo == 0 else []
        sets = itertools.chain(sets, (fixed + S for k in range(max(1, lo), hi + 1) for S in itertools.combinations(sx, k)))
        for zs in sets:
            a = self.one(x, y, zs)
            if a > pmax: best, pmax = zs, a
            if a > self.alpha: break
        if best is None: return 0.0, 0.0, None
        p = self.p(x, y, best)
        return p, max(p, pmax), best if p > self.alpha else None
    blankets._Tests.allsubs = allsubs


ALLSUBS = blankets._Tests.allsubs


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
    ap.add_argument("--decide-at-max", action="store_true", help="try the candidate fix (`decide_at_max`)")
    ap.add_argument("--nbr-vs-bnlearn", metavar="NODE", help="only time MMPC's neighbours of NODE, bnlearn beside semisel")
    a = ap.parse_args()
    if a.nbr_vs_bnlearn: return nbr_vs_bnlearn(a.network, a.nbr_vs_bnlearn, a.rows, a.seed, a.cap)
    X, y = gaussian_dataset(a.network, a.target, a.rows, random_state=a.seed, noise="normal")
    yp = mcar(y.to_numpy(), 0.3, random_state=a.seed)
    log = collections.defaultdict(int, assoc_z=collections.Counter(), decide_z=collections.Counter(),
                                  calib_kz=collections.Counter(), phases=[])
    instrument(log)
    if a.decide_at_max: decide_at_max()
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
    print(f"{'candidate fix' if a.decide_at_max else 'as it is'}: F1 against the true blanket {f1:.3f} ({truth})")
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
