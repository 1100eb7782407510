"""Peak memory of the counting tests (issue 15, item 4): memory proportional to the data, not to a dense table.

Each case runs in a fresh subprocess (`python bench_memory.py --case NAME`) that reports its own peak RSS
(getrusage(RUSAGE_SELF).ru_maxrss at exit), so cases do not share a high-water mark. The child's address space is
capped at `--limit` GiB (RLIMIT_AS), so a case that would need more fails with a MemoryError instead of starving the
machine.

M1: N = 50,000 rows, D = 1,000 features of 5 levels (int64, as `rng.integers` makes them), binary target, 30%
    labelled. `g_test_all` (the reference) against chapter 04's available-case test `pairwise_g_test_all`, each with
    and without a conditioning set z (three features jointly, 125 strata), the pairwise test by sequential permutation
    ('smc', pairwise-IAMB's default) given z, and a whole `pairwise_iamb` run (test 'g'; the 'smc' run,
    `--cases pairwise_iamb_smc`, takes most of an hour on a shared 2-core machine and is not in the default list).
    `data` is the floor: the interpreter, the imports and the data alone. Aim: pairwise within 2x of g_test_all.
M2: a conditional test of X ⊥ Y | Z with x and z of 20,000 levels each (N = 100,000 rows, binary y): the dense
    table |X|·|Y|·|Z| would hold 8e8 int64 cells (6 GiB), the observed cells are at most N. Tests 'g' (papers' and
    adjusted dof), 'g-adf' and 'mc' (199 tables), and the pairwise test with 70% of y unlabelled. The same at 2,000
    levels (a 64 MB dense table, which the code before the change could still build) for a before/after ratio.
M3 (issue 26, item 8): every test of `ci_test_all` over many columns, 50,000 x 1,000 and 5,000 x 10,000 uint8 codes
    of 5 levels (Fortran order, so the codes are used in place), binary target: the peak of the allocations made by
    the call (tracemalloc) and the peak RSS of the process, each against that of 'g', and the traced peak against the
    data's size. Aim: at most 2x 'g'. The permutation tests run with the registry's n_perm (999 for 'mc' and 'smc',
    100 for 'sp'), as a user reaches them; their work is sliced to fit `count_budget` (32 MiB by default).
Run: python tests/benchmarks/bench_memory.py [--limit 8] [--cases data,g_test_all,...]
     python tests/benchmarks/bench_memory.py --tests [--methods g,g-adf,sp] [--shapes 50000x1000,5000x10000]"""
import argparse
import resource
import subprocess
import sys
import time

import numpy as np

N, D, LEVELS, LABELLED = 50_000, 1_000, 5, 0.3
CASES = ("data", "g_test_all", "pairwise_test", "g_test_all_z", "pairwise_test_z", "pairwise_test_smc", "pairwise_iamb",
         "ci_2k_data", "ci_2k_g", "ci_2k_g_adf", "ci_20k_data", "ci_20k_g", "ci_20k_g_adj", "ci_20k_g_adf", "ci_20k_mc",
         "pairwise_20k")


def wide_data():
    "The M1 data: int64 codes, a target that depends on features 0-2, 30% labelled (-1 elsewhere)."
    rng = np.random.default_rng(0)
    X = rng.integers(0, LEVELS, (N, D))
    y = ((X[:, 0] + X[:, 1] + rng.integers(0, 3, N)) > 5).astype(np.int64)
    y_partial = np.where(rng.random(N) < LABELLED, y, -1)
    return X, y, y_partial


def level_data(n=100_000, levels=20_000):
    "The M2 data: x and z of `levels` levels each (x depends a little on y)."
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, n)
    z = rng.integers(0, levels, n)
    x = (rng.integers(0, levels, n) + y * (rng.random(n) < 0.1)) % levels
    return x, y, z


def run_case(name):
    "Run one case in this process and print what it computed (the parent measures the memory)."
    from semisel.iamb import pairwise_g_test_all, pairwise_iamb
    from semisel.infotheory import ci_test, g_test, g_test_all
    if name.startswith(("ci_", "pairwise_20k")):
        size, what = name[3:].split("_", 1) if name.startswith("ci_") else ("20k", "pairwise")
        x, y, z = level_data(levels=20_000 if size == "20k" else 2_000)
        if what == "data": return "data only"
        if what == "pairwise":
            y3 = np.where(np.random.default_rng(2).random(len(y)) < 0.7, 2, y)
            r = pairwise_g_test_all(x[:, None], y3, z)
            return f"G = {r.statistic[0]:.2f}, dof = {r.dof[0]}, p = {r.pvalue[0]:.3g}"
        if what == "g_adj": r = g_test(x, y, z, "adjusted")
        else: r = ci_test(x, y, z, {"g": "g", "g_adf": "g-adf", "mc": "mc"}[what],
                          **({"n_perm": 199, "random_state": 0} if what == "mc" else {}))
        return f"G = {r.statistic:.2f}, dof = {r.dof}, p = {r.pvalue:.3g}"
    X, y, y_partial = wide_data()
    y3 = np.where(y_partial < 0, 2, y_partial)
    z = X[:, 997:1000]
    if name == "data": return "data only"
    if name == "g_test_all": r = g_test_all(X, np.where(y_partial == 1, 1, 0))
    elif name == "g_test_all_z": r = g_test_all(X, np.where(y_partial == 1, 1, 0), z)
    elif name == "pairwise_test": r = pairwise_g_test_all(X, y3)
    elif name == "pairwise_test_z": r = pairwise_g_test_all(X, y3, z)
    elif name == "pairwise_test_smc": r = pairwise_g_test_all(X, y3, z, "smc", random_state=0)
    elif name.startswith("pairwise_iamb"):
        mb = pairwise_iamb(X, y_partial, test="smc" if name.endswith("smc") else "g", random_state=0)
        return f"blanket {list(mb.blanket)}"
    else: raise SystemExit(f"unknown case {name!r}")
    return f"{len(r.statistic)} tests, max G = {np.max(r.statistic):.1f}"


def run_test_case(shape, method):
    "M3: one test over every column, its traced peak (MiB) and seconds; the parent reads the RSS."
    import tracemalloc

    from semisel.infotheory import ci_test_all
    n, d = map(int, shape.split("x"))
    rng = np.random.default_rng(0)
    X = np.asfortranarray(rng.integers(0, 5, (n, d), dtype=np.uint8))
    y = rng.integers(0, 2, n)
    kw = {"random_state": 0} if method in ("mc", "smc", "sp") else {}
    tracemalloc.start()
    t = time.perf_counter()
    r = ci_test_all(X, y, test=method, **kw)
    sec = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return f"traced {peak:.2f} sec {sec:.2f} p0 {float(r.pvalue[0]):.4f}"


def tests_table(shapes, methods, limit_gib):
    "M3: the table of peaks per test and data size, each against 'g'."
    print(f"{'data':>12s} {'test':6s} {'traced MiB':>10s} {'x g':>6s} {'x data':>6s} {'RSS MiB':>8s} {'x g':>6s} "
          f"{'seconds':>8s}")
    for shape in shapes:
        ref, data = None, np.prod([int(v) for v in shape.split("x")]) / 2**20
        for method in methods:
            out, err, rc, _ = measure(f"{shape}:{method}", limit_gib)
            if rc:
                print(f"{shape:>12s} {method:6s} FAILED: {(err.strip().splitlines() or ['?'])[-1][:120]}", flush=True)
                continue
            first, last = out.strip().splitlines()[0].split(), out.strip().splitlines()[-1].split()
            traced, sec, rss = float(first[1]), float(first[3]), int(last[1]) / 1024
            ref = ref or (traced, rss)
            print(f"{shape:>12s} {method:6s} {traced:10.2f} {traced / ref[0]:6.2f} {traced / data:6.2f} {rss:8.0f} "
                  f"{rss / ref[1]:6.2f} {sec:8.1f}", flush=True)


def measure(name, limit_gib):
    "Peak RSS (MiB), wall time and output of `name` in a fresh subprocess."
    def cap():
        lim = int(limit_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, __file__, "--case", name], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, preexec_fn=cap)
    out, err = p.communicate()
    return out, err, p.returncode, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case")
    ap.add_argument("--limit", type=float, default=8.0, help="address-space cap of each case, GiB")
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--tests", action="store_true", help="M3: the peak of every test against 'g'")
    ap.add_argument("--methods", default="g,g-adf,chi2,sp,mc,smc")
    ap.add_argument("--shapes", default="50000x1000,5000x10000")
    args = ap.parse_args()
    if args.case:
        print(run_test_case(*args.case.split(":")) if ":" in args.case else run_case(args.case))
        print(f"maxrss_kib {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}")
        return
    if args.tests:
        tests_table(args.shapes.split(","), args.methods.split(","), args.limit)
        return
    rows = {}
    for name in args.cases.split(","):
        out, err, rc, sec = measure(name, args.limit)
        lines = out.strip().splitlines()
        if rc == 0:
            mib = int(lines[-1].split()[1]) / 1024
            rows[name] = mib
            print(f"{name:16s} peak RSS {mib:8.0f} MiB  {sec:6.1f} s   {lines[0]}", flush=True)
        else:
            last = (err.strip().splitlines() or ["?"])[-1]
            print(f"{name:16s} FAILED under a {args.limit:g} GiB cap ({sec:.1f} s): {last[:150]}", flush=True)
    if "g_test_all" in rows:
        for a, b in (("pairwise_test", "g_test_all"), ("pairwise_test_z", "g_test_all_z"),
                     ("pairwise_test_smc", "g_test_all_z"), ("pairwise_iamb", "g_test_all"),
                     ("pairwise_iamb_smc", "g_test_all")):
            if a in rows and b in rows:
                print(f"ratio {a} / {b}: {rows[a] / rows[b]:.2f}x (aim <= 2)")


if __name__ == "__main__":
    main()
