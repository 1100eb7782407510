"""The compiled count kernels (chapter 00's `tally`, chapter 01's `bn_g_tests`): a user's first call, and the numpy
alternative (a script, not a test).

First call (the default): `semisel.iamb.markov_blanket` timed in fresh processes, its first call against its later
(warm) calls in the same process: the ratio first / warm is 1 when the first call pays nothing extra. Each process
imports semisel.iamb (timed), then either makes its data with `semisel.networks.network_dataset` (timed: the user's
own work while the kernels warm up) or, with --at-once, reads data made before the import and calls at once; then
calls `markov_blanket` `--calls` times on the same data. Two kinds of process: "new install" (numba's cache folders
empty: NUMBA_CACHE_DIR and HOME point to new temporary folders, as after `pip install`) and "next process" (the
cache the first one left). With --against REV (a git revision, e.g. main), semisel as of REV (its package copied out
of git into a temporary folder) runs the same way, alternately, on the same data.

--numpy: the blanket learners (`learn_mb` / `learn_nbr`, every algorithm but pc.stable, tests "mi", "adf" and
"g-adf", the networks' benchmark targets, seed-0 samples of --n rows) with the compiled kernels and with numpy-only
kernels defined here (the tables of a batch of tests by one `np.bincount` over their stacked joint codes, in blocks
bounded by the count budget; G from those tables), best of --repeat alternating runs each, the same blankets
asserted: the measurement behind chapter 00's choice to keep the kernels compiled.

    OMP_NUM_THREADS=1 python tests/benchmarks/bench_kernels.py [--network alarm] [--target TPR] [--n 5000]
        [--erase 0.7] [--repeat 3] [--at-once] [--against REV]
    OMP_NUM_THREADS=1 python tests/benchmarks/bench_kernels.py --numpy [--networks alarm insurance] [--n 2000]
"""
import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time

import numpy as np
import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHILD = r"""
import json, sys, time
import numpy as np
net, target, n, erase, calls, at_once = sys.argv[1:7]
n, erase, calls = int(n), float(erase), int(calls)
if at_once == "1":
    import pandas as pd
    data = np.load(sys.argv[7], allow_pickle=False)
    X, y, prior = pd.DataFrame(data["X"], columns=list(data["names"])), data["y"], float(data["prior"])
t0 = time.perf_counter()
from semisel.iamb import markov_blanket
t_import = time.perf_counter() - t0
t0 = time.perf_counter()
if at_once != "1":
    from semisel.networks import exact_prior, network_dataset
    X, y = network_dataset(net, target, n, random_state=0)
    y = np.where(np.random.default_rng(1).random(n) < erase, -1, y)          # labels erased completely at random
    prior = exact_prior(net, target)
t_data = time.perf_counter() - t0
secs, sets = [], []
for _ in range(calls):
    t0 = time.perf_counter()
    sets.append(markov_blanket(X, y, prior=prior).selected)
    secs.append(time.perf_counter() - t0)
assert all(s == sets[0] for s in sets)
print(json.dumps(dict(import_=t_import, data=t_data, first=secs[0], warm=min(secs[1:]), blanket=sets[0])))
"""


def package(rev: str | None) -> str:
    "A folder holding semisel: this checkout, or the package as of git revision `rev` copied into a temporary folder."
    if rev is None: return ROOT
    tar = subprocess.run(["git", "-C", ROOT, "archive", rev, "semisel"], capture_output=True, check=True).stdout
    tmp = tempfile.mkdtemp(prefix="semisel_rev")
    tarfile.open(fileobj=io.BytesIO(tar)).extractall(tmp, filter="data")
    return tmp


def first_calls(a):
    "The first-call table: fresh processes per version and kind, the median of --repeat."
    data = None
    if a.at_once:                                    # the data, made before the processes import semisel
        from semisel.networks import exact_prior, network_dataset
        X, y = network_dataset(a.network, a.target, a.n, random_state=0)
        y = np.where(np.random.default_rng(1).random(a.n) < a.erase, -1, y)
        data = os.path.join(tempfile.mkdtemp(), "data.npz")
        np.savez(data, X=X.to_numpy(), names=np.array(X.columns, dtype=str), y=y,
                 prior=exact_prior(a.network, a.target))
    versions = {"now": package(None)} | ({a.against: package(a.against)} if a.against else {})
    rows = []
    for rep in range(a.repeat):
        for who, path in versions.items():                     # alternately: the same load on both
            home = tempfile.mkdtemp(prefix="semisel_home")     # empty caches: numba's, in-tree for REV, and semisel's
            env = dict(os.environ, PYTHONPATH=path, HOME=home, NUMBA_CACHE_DIR=os.path.join(home, "numba"))
            env.pop("XDG_CACHE_HOME", None)
            if path != ROOT: subprocess.run(["find", path, "-name", "*.nb[ic]", "-delete"], check=True)
            for kind in ("new install", "next process"):
                out = subprocess.run([sys.executable, "-c", CHILD, a.network, a.target, str(a.n), str(a.erase),
                                      str(a.calls), "1" if a.at_once else "0", data or ""],
                                     capture_output=True, text=True, env=env, cwd=home)
                if out.returncode: raise SystemExit(out.stderr)
                r = json.loads(out.stdout.strip().splitlines()[-1])
                rows.append(dict(version=who, kind=kind, rep=rep, import_s=r["import_"], data_s=r["data"],
                                 first_s=r["first"], warm_s=r["warm"], blanket=tuple(r["blanket"])))
    df = pd.DataFrame(rows)
    assert df.blanket.nunique() == 1, df.blanket.unique()
    tab = df.groupby(["version", "kind"], sort=False)[["import_s", "data_s", "first_s", "warm_s"]].median()
    tab["first/warm"] = tab.first_s / tab.warm_s
    tab["import+first"] = tab.import_s + tab.first_s
    pd.set_option("display.width", 160)
    how = "the data read before the import, the call at once" if a.at_once else "the data made after the import"
    print(f"markov_blanket on {a.network} (target {a.target}, n {a.n}, {a.erase:.0%} of labels erased; {how}), "
          f"median of {a.repeat} fresh processes per row; blanket {list(df.blanket[0])} in every call")
    print(tab.round(3).to_string())


# --- numpy-only kernels (the alternative measured by --numpy) ---------------------------------------------------------
SLICE, BUDGET = 1 << 20, 1 << 22          # codes per bincount, cells per block (32 MiB of int64)


def _count(D, t, Z, KX, KY, KZ):
    "Tables (len(t), KX*KY*KZ) of the tests t, the (y, z) codes made once per distinct (y row, strata row)."
    J, cells = len(t), KX * KY * KZ
    top = J * cells
    dt = np.uint16 if top <= 1 << 16 else np.uint32 if top <= 1 << 32 else np.int64
    if J == 1:
        c = np.multiply(D[t[0, 0]], KY * KZ, dtype=np.intp)
        c += np.multiply(D[t[0, 1]], KZ, dtype=np.intp)
        c += Z[t[0, 2]]
        return np.bincount(c, minlength=cells)[None]
    pairs, inv = np.unique(t[:, 1] * len(Z) + t[:, 2], return_inverse=True)
    W = np.multiply(D[pairs // len(Z)], KZ, dtype=dt)
    W += Z[pairs % len(Z)].astype(dt, copy=False)
    c = np.multiply(D[t[:, 0]], KY * KZ, dtype=dt)
    c += W[inv.ravel()] if len(pairs) > 1 else W
    c += np.arange(0, top, cells, dtype=dt)[:, None]
    return np.bincount(c.ravel(), minlength=top).reshape(J, cells)


def np_tables_of_tests(D, tests, Z, levels):
    "core.tables_of_tests without numba."
    tests, levels = np.atleast_2d(np.asarray(tests, np.int64)), np.atleast_2d(np.asarray(levels, np.int64))
    KX, KY, KZ = (int(v) for v in levels.max(0))
    out = np.empty((len(tests), KX * KY * KZ), np.int64)
    per = max(1, min(SLICE // max(D.shape[1], 1), BUDGET // (KX * KY * KZ)))
    for s in range(0, len(tests), per): out[s:s + per] = _count(D, tests[s:s + per], Z, KX, KY, KZ)
    return out.reshape(len(tests), KX, KY, KZ)


def _blocks(levels, n, order):
    "Runs of the tests `order` (sorted by size) whose padded tables and codes fit the budgets, with their padding."
    out, start, mx = [], 0, np.zeros(3, np.int64)
    per_codes = max(1, SLICE // max(n, 1))
    for i in range(len(order)):
        grown = np.maximum(mx, levels[order[i]])
        if i > start and ((i - start + 1) * int(grown.prod()) > BUDGET or i - start + 1 > per_codes):
            out.append((order[start:i], mx))
            start, mx = i, levels[order[i]].copy()
        else: mx = grown
    if len(order): out.append((order[start:], mx))
    return out


def np_bn_g_tests(D, tests, Z, levels):
    "infotheory.bn_g_tests without numba."
    from semisel.infotheory import _CELLS, _klogk, bn_g
    tests, levels = np.asarray(tests, np.int64).reshape(-1, 3), np.asarray(levels, np.int64).reshape(-1, 3)
    L, J = _klogk(Z.shape[1]), len(tests)
    G, df = np.full(J, np.nan), np.full(J, np.nan)
    cells = levels.prod(1)
    ok = np.flatnonzero(cells <= _CELLS)
    for b, (KX, KY, KZ) in _blocks(levels, D.shape[1], ok[np.argsort(cells[ok], kind="stable")]):
        KX, KY, KZ = int(KX), int(KY), int(KZ)
        T = _count(D, tests[b], Z, KX, KY, KZ).reshape(len(b), KX, KY, KZ)
        oxz, oyz = T.sum(2), T.sum(1)
        g = (L[T].reshape(len(b), -1).sum(1) - L[oxz].reshape(len(b), -1).sum(1) - L[oyz].reshape(len(b), -1).sum(1)
             + L[oxz.sum(1)].sum(1))
        G[b] = np.maximum(2.0 * g, 0.0)
        df[b] = (np.maximum((oxz > 0).sum(1) - 1, 0) * np.maximum((oyz > 0).sum(1) - 1, 0)).sum(1)
    for j in np.flatnonzero(np.isnan(G)):
        (x, y, s), (kx, ky, kz) = tests[j], levels[j]
        G[j], df[j] = (v[0] for v in bn_g(D[x][None], [kx], D[y].astype(np.int64) * kz + Z[s], ky, kz, True))
    return G, df


def numpy_kernels(a):
    "The learners with the compiled kernels and with the numpy ones, on the same samples."
    import semisel.blankets as bl
    from semisel.blankets import ALGORITHMS, learn_mb, learn_nbr
    from semisel.networks import benchmark_targets, network, sample_network
    kernels = {"compiled": (bl.tables_of_tests, bl.bn_g_tests), "numpy": (np_tables_of_tests, np_bn_g_tests)}
    rows = []
    for name in a.networks:
        net = network(name)
        targets = benchmark_targets(net).target.tolist()
        for n in a.n:
            D = sample_network(net, n, random_state=0)
            levels = {c: int(D[c].max()) + 1 for c in D.columns}
            for test in ("mi", "adf", "g-adf"):
                for alg in [g for g in ALGORITHMS if g != "pc.stable"]:
                    for t in targets:
                        X = D.drop(columns=t)
                        y, lev = (D[t].to_numpy() == 0).astype(np.int64), [levels[c] for c in X.columns]
                        f = learn_nbr if alg in ("mmpc", "si.hiton.pc", "hpc") else learn_mb
                        best, found = dict.fromkeys(kernels, np.inf), {}
                        for _ in range(a.repeat):
                            for who, (tables, g_tests) in kernels.items():
                                bl.tables_of_tests, bl.bn_g_tests = tables, g_tests
                                t0 = time.perf_counter()
                                found[who] = f(X, y, alg, test, 0.05, levels=lev).members
                                best[who] = min(best[who], time.perf_counter() - t0)
                        bl.tables_of_tests, bl.bn_g_tests = kernels["compiled"]
                        assert found["numpy"] == found["compiled"], (name, n, test, alg, t)
                        rows.append(dict(network=name, n=n, test=test, algorithm=alg, **best))
    df = pd.DataFrame(rows)
    pd.set_option("display.width", 160)
    print(f"networks {a.networks}, n {a.n}: the learners' seconds summed over targets, compiled and numpy kernels "
          f"({len(df)} runs, every blanket the same)")
    for key in ("test", "algorithm"):
        tab = df.groupby(key)[["compiled", "numpy"]].sum()
        print(tab.assign(ratio=tab.numpy / tab.compiled).round(3).to_string(), end="\n\n")
    print(f"overall ratio numpy / compiled: {df.numpy.sum() / df.compiled.sum():.2f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--network", default="alarm")
    ap.add_argument("--target", default="TPR")
    ap.add_argument("--n", nargs="+", type=int, default=None, help="rows (default 5000; --numpy: 2000)")
    ap.add_argument("--erase", type=float, default=0.7, help="share of labels erased (MCAR)")
    ap.add_argument("--calls", type=int, default=4, help="calls per process (the first, then the warm ones)")
    ap.add_argument("--repeat", type=int, default=3, help="fresh processes per kind (--numpy: runs per learner)")
    ap.add_argument("--at-once", action="store_true", help="call right after the import (data read before it)")
    ap.add_argument("--against", metavar="REV", help="also run semisel as of this git revision")
    ap.add_argument("--numpy", action="store_true", help="the learners with numpy-only kernels against the compiled")
    ap.add_argument("--networks", nargs="+", default=["alarm", "insurance"], help="--numpy: the networks")
    a = ap.parse_args()
    if a.numpy:
        a.n = a.n or [2000]
        return numpy_kernels(a)
    a.n = (a.n or [5000])[0]
    first_calls(a)


if __name__ == "__main__": main()
