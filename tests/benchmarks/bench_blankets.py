"""Speed of semisel.blankets against R's bnlearn 4.9 (a script, not a test): per algorithm and test, the seconds of
semisel's learner and of bnlearn's (timed inside R around each learn.mb / learn.nbr call, so R's start-up is not
counted) on the same samples in the same run, and their ratio (the target is <= 0.5). With --gadf, also semisel's
time with the calibrated "g-adf" over the papers' "g" per algorithm on the same samples (the target is <= 3).

With --against REV (a git revision of this repository, e.g. main), semisel as of REV (its package copied out of git
into a temporary folder and imported as `semisel_ref`) is timed too, alternately with the current one, on the same
samples in the same run; every blanket must be the same as the current one's (asserted). The table then gives both
ratios to bnlearn (`ratio`, now; `ratio_old`, at REV) and new / old. With --no-bnlearn (no R needed) only new / old.

    OMP_NUM_THREADS=1 python tests/benchmarks/bench_blankets.py [--networks alarm insurance] [--n 2000 5000]
        [--tests mi adf] [--algorithms iamb mmpc ...] [--repeat 3] [--gadf] [--against REV [--no-bnlearn]]
"""
import argparse
import importlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import time

import numpy as np
import pandas as pd

from semisel.blankets import ALGORITHMS, bnlearn_available, bnlearn_learn, learn_mb, learn_nbr
from semisel.networks import benchmark_targets, network, sample_network

PC = ("pc.stable", "mmpc", "si.hiton.pc", "hpc")


def reference(rev: str):
    "semisel.blankets as of git revision `rev`, imported as `semisel_ref.blankets` from a copy in a temporary folder."
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tar = subprocess.run(["git", "-C", root, "archive", rev, "semisel"], capture_output=True, check=True).stdout
    tmp = tempfile.mkdtemp(prefix="semisel_ref")
    tarfile.open(fileobj=io.BytesIO(tar)).extractall(tmp, filter="data")
    os.rename(os.path.join(tmp, "semisel"), os.path.join(tmp, "semisel_ref"))
    sys.path.insert(0, tmp)
    return importlib.import_module("semisel_ref.blankets")


def samples(a):
    "The benchmark's data: per network and n, the sample (seed 0), its declared levels and the targets."
    for name in a.networks:
        net = network(name)
        targets = benchmark_targets(net).target.tolist()
        for n in a.n:
            D = sample_network(net, n, random_state=0)
            yield name, n, D, {c: int(D[c].max()) + 1 for c in D.columns}, targets


def target_data(D, t, levels):
    "The features, the binarised target (its first state is 1) and the features' declared levels."
    X = D.drop(columns=t)
    return X, (D[t].to_numpy() == 0).astype(np.int64), [levels[c] for c in X.columns]


def against(a):
    "New against old (`--against`): best of `repeat` alternating runs per job, the same blankets asserted."
    old = reference(a.against)
    rows = []
    for name, n, D, levels, targets in samples(a):
        for test in a.tests:
            for alg in a.algorithms:
                for t in targets:
                    X, y, lev = target_data(D, t, levels)
                    kind = "learn_nbr" if alg in PC else "learn_mb"
                    secs, found = {"new": np.inf, "old": np.inf}, {}
                    for _ in range(a.repeat):
                        for who, f in (("new", globals()[kind]), ("old", getattr(old, kind))):
                            t0 = time.perf_counter()
                            found[who] = f(X, y, alg, test, 0.05, levels=lev).members
                            secs[who] = min(secs[who], time.perf_counter() - t0)
                    assert found["new"] == found["old"], (name, n, test, alg, t, found)
                    rows.append(dict(network=name, n=n, test=test, algorithm=alg, new=secs["new"], old=secs["old"]))
    df = pd.DataFrame(rows)
    tab = df.groupby(["algorithm", "test"])[["new", "old"]].sum()
    tab["ratio"] = tab.new / tab.old
    pd.set_option("display.width", 160)
    print(f"networks {a.networks}, n {a.n}: seconds summed over targets and samples, against {a.against}; "
          f"{len(df)} blankets, all the same")
    print(tab.round(3).to_string())
    print(f"\noverall ratio new / old: {df.new.sum() / df.old.sum():.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--networks", nargs="+", default=["alarm", "insurance"])
    ap.add_argument("--n", nargs="+", type=int, default=[2000, 5000])
    ap.add_argument("--tests", nargs="+", default=["mi", "adf"])
    ap.add_argument("--algorithms", nargs="+", default=[a for a in ALGORITHMS if a != "pc.stable"])
    ap.add_argument("--repeat", type=int, default=3, help="semisel runs per job (the best is kept, as timeit does)")
    ap.add_argument("--gadf", action="store_true", help='also time "g-adf" against "g" (semisel only)')
    ap.add_argument("--against", metavar="REV", help="also time semisel as of this git revision (same blankets asserted)")
    ap.add_argument("--no-bnlearn", action="store_true", help="with --against: new against old only (no R)")
    a = ap.parse_args()
    if a.against and a.no_bnlearn: return against(a)
    old = reference(a.against) if a.against else None
    if not bnlearn_available(): raise SystemExit("R with bnlearn 4.9 is needed (see ../shared/tools/bnlearn)")
    rows, gadf = [], []
    for name, n, D, levels, targets in samples(a):
        for test in a.tests:
            jobs = [(t, alg, "nbr" if alg in PC else "mb") for t in targets for alg in a.algorithms]
            R = bnlearn_learn(D, jobs, {"adf": "mi-adf"}.get(test, test), 0.05, positive={t: 0 for t in targets})
            for (t, alg, kind), r in zip(jobs, R.itertuples()):
                X, y, lev = target_data(D, t, levels)
                f = learn_mb if kind == "mb" else learn_nbr
                runs = [("semisel", f)] + ([("old", getattr(old, f.__name__))] if old else [])
                best, found = dict.fromkeys(dict(runs), np.inf), {}
                for _ in range(a.repeat):
                    for who, g in runs:                                 # alternately: the same load on both
                        t0 = time.perf_counter()
                        found[who] = g(X, y, alg, test, 0.05, levels=lev)
                        best[who] = min(best[who], time.perf_counter() - t0)
                if old: assert found["old"].members == found["semisel"].members, (name, n, test, alg, t)
                rows.append(dict(network=name, n=n, test=test, algorithm=alg, bnlearn=r.seconds, **best,
                                 same=set(found["semisel"].selected) == set(r.members)))
        if a.gadf:
            for t in targets:
                X, y, _ = target_data(D, t, levels)
                for alg in a.algorithms:
                    f = learn_mb if alg not in PC else learn_nbr
                    secs = {}
                    for test in ("g", "g-adf"):
                        secs[test] = np.inf
                        for _ in range(a.repeat):
                            t0 = time.perf_counter()
                            f(X, y, alg, test, 0.05)
                            secs[test] = min(secs[test], time.perf_counter() - t0)
                    gadf.append(dict(algorithm=alg, g=secs["g"], g_adf=secs["g-adf"]))
    df = pd.DataFrame(rows)
    tab = df.groupby(["algorithm", "test"]).agg(semisel=("semisel", "sum"), bnlearn=("bnlearn", "sum"),
                                                 same=("same", "mean"), jobs=("same", "size"),
                                                 **({"old": ("old", "sum")} if old else {}))
    tab["ratio"] = tab.semisel / tab.bnlearn
    if old: tab = tab.assign(ratio_old=tab.old / tab.bnlearn, new_old=tab.semisel / tab.old)
    pd.set_option("display.width", 160)
    print(f"networks {a.networks}, n {a.n}: seconds summed over targets and samples")
    print(tab.round(3).to_string())
    print(f"\noverall ratio semisel / bnlearn: {df.semisel.sum() / df.bnlearn.sum():.2f}")
    if old: print(f"at {a.against}: {df.old.sum() / df.bnlearn.sum():.2f}; new / old {df.semisel.sum() / df.old.sum():.2f} "
                  f"(every blanket the same as at {a.against})")
    if gadf:
        g = pd.DataFrame(gadf).groupby("algorithm")[["g", "g_adf"]].sum()
        print('\nsemisel seconds with "g-adf" and with the papers\' "g", and their ratio (the target is <= 3):')
        print(g.assign(ratio=g.g_adf / g.g).round(3).to_string())


if __name__ == "__main__":
    main()
