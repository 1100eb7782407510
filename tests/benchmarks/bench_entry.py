"""The public entry points against R's bnlearn 4.9 (a script, not a test): the CPU seconds of `markov_blanket`,
`SemiIAMB().fit` and of the learner alone (`learn_mb` on the target the entry point made) beside bnlearn's on the same
samples in the same run, and their ratios (issue 39's target: the entry points at <= 0.5x bnlearn).

The grid: networks (bundled ones by name; pgmpy's example networks, e.g. water, win95pts, hepar2, andes, pigs, compiled
from its BIF files), N, the first `--targets` targets of `benchmark_targets` (binarised: first state positive) and
four labellings, each given to bnlearn as a bnlearn user can:

- full: every label (bnlearn: all rows);
- mcar-semi / mcar-listwise: 70% of the labels erased completely at random, `method` "semi" (on all rows, the true
  prior) and "listwise" (bnlearn and listwise: the labelled rows alone);
- pu: 30% of the positives labelled (`method` "semi": the surrogate Y0, unlabelled as negative; bnlearn the same target).

Each algorithm with each test ("adf" is bnlearn's "mi-adf"; "g-adf" and "g-williams" have no bnlearn twin: they are
compared with bnlearn's "mi-adf"). bnlearn is timed inside R (CPU around each `learn.mb` / `learn.nbr` call, R's start-up not counted); a
parents-and-children learner's blanket is its PC set plus the spouses found through each member, so bnlearn's time for
it is `learn.nbr` of the target plus `learn.nbr` of each member bnlearn found (what a bnlearn user runs for that blanket).
semisel's calls are warm (a warm-up call first); each row is one call of each, alternately (`--calls K`: the median of
K calls of each, and of K runs of bnlearn's).

With `--continuous`, the grid's samples are chapter 04c's parity samples instead (`--nets`, default 04c's `SIZES`:
ecoli70 and magic-niab at 500 rows, magic-irri and arth150 at 1,000; "NAME-cg:N" is the network's conditional Gaussian
form, `cg_network`, whose roots are discrete: a mixed table): every `gaussian_targets` node (the first `--targets`),
binarised at its mean (prior 1/2), the float (and discrete) columns as they come; bnlearn runs "mi-cg" on the same rows
(`--tests mi-cg`; "mi-g" needs a float target, which `markov_blanket`'s binary class is not). Its sets must equal
bnlearn's where both learn the same target on the same rows with the same test (full, mcar-listwise, pu, all-float
features: column `same_bn`; a blanket learner's set against `learn.mb`, a PC learner's PC set, `learn_nbr`, against
`learn.nbr`; with discrete features mi-cg of two discrete columns given continuous ones is not bnlearn's, chapter 01b).
The test "default" is each tool's default: semisel's `markov_blanket(X, y)` (the defaults for the
data: `choose_algorithm`, `resolve_test`, `resolve_alpha`; the labelling's method and prior) against bnlearn's default
test (test NULL: "mi-cg" on this data) and level (0.05) for each learner (one row per bnlearn learner, the same semisel call on each); column `asymptotic`:
the same call with the default test's asymptotic form (`test_spec(...).statistic`), what its permutations cost. `--out PATH` keeps
the rows (CSV).

With `--cli`, `semisel mb` in a subprocess (a fresh process, the way a user meets it: Python's start, the imports, the
CSV, numba's compiled kernels loaded) on the first target of each network, N and labelling, against a fresh `Rscript`
that loads bnlearn, reads the same CSV and runs `learn.mb` / `learn.nbr` (their CPU from the OS, children's rusage;
summed by algorithm, network, N and network x N: give several --n to see where the fixed costs fade);
with `--before PATH`, also the same command on an older checkout (PYTHONPATH=PATH), in the same run, and whether its
output is the same. In the warm grid, `--before PATH` also times that checkout's `markov_blanket` and `SemiIAMB().fit`
in the same process (its package copied and imported as `semisel_before`), beside the current ones on each row.
With `--floors`, the fixed costs of fresh processes (Python; numpy; numba with one kernel loaded from its cache; pandas;
scikit-learn's BaseEstimator; `import semisel.iamb`; `semisel --help`; Rscript loading bnlearn): the least a fresh
`semisel mb` can cost with what it imports. With `--first`, the first and second `markov_blanket` call in a fresh Python process (the first pays numba's compile or
cache load).

Before `--cli` and `--floors` time anything, semisel's package (and `--before`'s) is byte-compiled (`compileall`), as
`pip install` leaves an installed package and as R leaves an installed one: where the environment sets
PYTHONDONTWRITEBYTECODE (a sandbox may), an uncompiled package would be compiled from its source in every fresh process,
about 0.1 CPU-s of semisel's modules that no user pays. `--source` removes their bytecode instead, to time that case.

    OMP_NUM_THREADS=1 python tests/benchmarks/bench_entry.py --continuous [--nets ecoli70:500 ...] [--targets 3]
        [--tests mi-cg default] [--out PATH]
    OMP_NUM_THREADS=1 python tests/benchmarks/bench_entry.py [--networks alarm insurance child hailfinder water ...]
        [--n 2000 5000] [--targets 2] [--labellings full mcar-semi mcar-listwise pu] [--algorithms iamb mmpc ...]
        [--tests mi adf g-adf] [--alpha 0.05] [--pairs mmpc:0.01 hpc:0.05] [--calls K] [--before PATH] [--cli] [--first]
        [--floors] [--no-grid] [--source]

With `--pairs ALG:ALPHA ...`, the warm grid runs each learner at its own level (instead of `--algorithms` at `--alpha`),
one after the other in this run (bnlearn's twin at the same level), and prints each pair's semisel CPU against the
first pair's: what a default that changes learner and level costs a user against the one before it.
"""
import argparse
import compileall
import functools
import gc
import importlib
import gzip
import json
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings

import numpy as np
import pandas as pd

from semisel.blankets import ALGORITHMS, BNLEARN_LIB, bnlearn_available, bnlearn_learn, learn_mb, learn_nbr
from semisel.infotheory import test_spec
from semisel.iamb import SemiIAMB, choose_algorithm, markov_blanket, resolve_alpha, resolve_test
from semisel.networks import (benchmark_targets, cg_network, compile_network, exact_prior, gaussian_means,
                              gaussian_network, gaussian_targets, network, sample_gaussian, sample_network)
from semisel.surrogates import mcar, pu

PC = ("pc.stable", "mmpc", "si.hiton.pc", "hpc")
LABELLINGS = ("full", "mcar-semi", "mcar-listwise", "pu")
BN_TEST = {"adf": "mi-adf", "g-adf": "mi-adf", "g-williams": "mi-adf", "default": None}   # None: bnlearn's default
CONTINUOUS = ("ecoli70:500", "magic-niab:500", "magic-irri:1000", "arth150:1000")   # chapter 04c's parity grid (SIZES)


@functools.lru_cache(None)
def load(name: str):
    "A bundled network, or one of pgmpy's example networks compiled from its BIF file."
    try: return network(name)
    except ValueError: pass
    import pgmpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.readwrite import BIFReader
        path = os.path.join(os.path.dirname(pgmpy.__file__), "utils", "example_models", f"{name}.bif.gz")
        with gzip.open(path, "rt") as f: return compile_network(BIFReader(string=f.read()).get_model(), name)


def targets_of(net, k: int) -> list:
    "The first k of `benchmark_targets` (the papers' rule; any prior when no node passes its 0.15)."
    t = benchmark_targets(net)
    return (t if len(t) else benchmark_targets(net, min_prior=0.0)).target.tolist()[:k]


def labelled(y, labelling: str):
    "The partial labels of a labelling, the `method` semisel runs and the rows and class bnlearn gets."
    if labelling == "full": return y, "semi", np.ones(len(y), bool), y
    if labelling.startswith("mcar"):
        yl = mcar(y, 0.3, random_state=0)
        return yl, labelling[5:], yl >= 0, np.where(yl >= 0, yl, 0)
    yl = pu(y, 0.3, random_state=1)
    return yl, "semi", np.ones(len(y), bool), (yl == 1).astype(int)


def cpu(f, *args, **kw):
    """The CPU seconds of one call (every thread of this process) and its result. A full collection first: the
    benchmark's own heap (eight compiled networks, two checkouts) would otherwise make the collector's full passes land
    on whichever call happens to trigger one (0.1-0.2 s each), swamping the differences measured."""
    gc.collect()
    t0 = time.process_time()
    out = f(*args, **kw)
    return time.process_time() - t0, out


def timed(k: int, f, *args, **kw):
    "The median CPU seconds of `k` calls (`cpu`) and the last call's result."
    runs = [cpu(f, *args, **kw) for _ in range(k)]
    return float(np.median([t for t, _ in runs])), runs[-1][1]


def surrogate_target(res, yl, method):
    "The target `markov_blanket` learned on (rows, class), read off its result: Y0 / Y1 / the labelled rows."
    if method == "listwise": return yl >= 0, yl[yl >= 0]
    return np.ones(len(yl), bool), np.where(yl >= 0, yl, 1 if res.surrogate == "Y1" else 0)


def bnlearn_times(frame, target, algorithms, test, alpha) -> tuple[dict, dict]:
    """bnlearn's CPU seconds for the blanket of `target` by each algorithm, in two Rscript calls: `learn.mb`, or for a
    PC learner `learn.nbr` of the target and then of each member it found; and the set of the first call (the
    blanket, or the PC set) by algorithm."""
    kind = lambda alg: "nbr" if alg in PC else "mb"
    r = bnlearn_learn(frame, [(target, alg, kind(alg)) for alg in algorithms], BN_TEST.get(test, test), alpha)
    secs, found = dict(zip(r.algorithm, r.cpu if "cpu" in r else r.seconds)), dict(zip(r.algorithm, r.members))
    more = [(m, alg, "nbr") for alg, k, members in zip(r.algorithm, r.kind, r.members) if k == "nbr" for m in members]
    if more:
        r = bnlearn_learn(frame, more, BN_TEST.get(test, test), alpha)
        for alg, s in zip(r.algorithm, r.cpu if "cpu" in r else r.seconds): secs[alg] += s
    return secs, found


def samples(a):
    """The grid's samples: (network, n, target, X, y, prior, levels). Discrete: `sample_network`, `--n`, the target's
    first state positive, its exact prior and every column's levels over all rows (the entry points declare them, listwise
    too). `--continuous`: 04c's parity samples (`sample_gaussian`, seed 0), the target binarised at its mean; prior 1/2
    (a node of a linear Gaussian network is normal: its mean is its median), levels as the data say (None)."""
    if a.continuous:
        for spec in a.nets:
            name, n = spec.rsplit(":", 1)
            net = cg_network(name[:-3]) if name.endswith("-cg") else gaussian_network(name)
            D, mu = sample_gaussian(net, int(n), random_state=0), gaussian_means(net)
            for target in gaussian_targets(net)[:a.targets]:
                yield name, int(n), target, D.drop(columns=target), (D[target] > mu[target]).to_numpy(np.int64), 0.5, None
        return
    for name in a.networks:
        net = load(name)
        for n in a.n:
            D = sample_network(net, n, random_state=0)
            for target in targets_of(net, a.targets):
                X = D.drop(columns=target)
                yield name, n, target, X, (D[target].to_numpy() == 0).astype(np.int64), exact_prior(net, target), \
                    (X.max() + 1).tolist()


def older(path: str, tmp: str):
    """`markov_blanket` and `SemiIAMB` of the checkout whose package folder is `path`/semisel, imported in this process
    as `semisel_before` (the package imports itself relatively; numba compiles its kernels for the copy once)."""
    shutil.copytree(os.path.join(path, "semisel"), os.path.join(tmp, "semisel_before"))
    sys.path.insert(0, tmp)
    m = importlib.import_module("semisel_before.iamb")      # (its `SemiIAMB` is looked up as semisel.estimators': the
    return m.markov_blanket, importlib.import_module("semisel_before.estimators").SemiIAMB   # current one, not the copy's)


def same_result(old, new, rtol: float = 0.0) -> bool:
    """Two `MarkovBlanket`s (of two checkouts: two classes) hold the same values, the trace's tests included; with
    `rtol`, their floats (p-values, statistics) equal to that tolerance, relative or absolute (continuous tests: the same
    sums in another order differ by rounding, and a statistic near 0 is a difference of log-likelihoods of hundreds)."""
    eq = lambda a, b: (a == b or np.isclose(a, b, rtol=rtol, atol=rtol, equal_nan=True)
                       if rtol and isinstance(a, float) and isinstance(b, float) else a == b)
    same = lambda a, b: (a.keys() == b.keys() and all(eq(a[k], b[k]) for k in a) if isinstance(a, dict) and
                         isinstance(b, dict) else eq(a, b))
    fields = ("blanket", "names", "pvalues", "n", "alpha", "surrogate", "threshold")
    return (all(same(getattr(old, f), getattr(new, f)) for f in fields) and len(old.trace) == len(new.trace)
            and all(len(r) == len(q) and all(eq(a, b) for a, b in zip(tuple(r), tuple(q)))
                    for r, q in zip(old.trace, new.trace)))


def run(a):
    "The warm grid: one row per (network, n, target, labelling, algorithm, test)."
    rows, warm = [], set()
    if a.before: old_mb, old_est = older(a.before, tempfile.mkdtemp())

    def entry(X, yl, kw, alg, test, levels):
        """The CPU seconds of `markov_blanket`, `SemiIAMB().fit` and `learn_mb` on the target `markov_blanket` made
        (the same learner, test and level), warm, and the result (the blanket and its rows and target)."""
        learner = (alg, test, resolve_alpha(kw.get("alpha"), X)) if test != "default" else \
            (choose_algorithm(None, "semi", X), resolve_test(None, X), resolve_alpha(None, X))
        if (alg, test, kw["method"]) not in warm:                              # warm: numba's kernels loaded
            warm.add((alg, test, kw["method"]))
            res = markov_blanket(X, yl, **kw)
            if a.before: old_mb(X, yl, **kw), old_est(**kw).fit(X, yl)
            learn_mb(X[surrogate_target(res, yl, kw["method"])[0]], surrogate_target(res, yl, kw["method"])[1],
                     *learner, levels=levels, random_state=kw.get("random_state"))
        t_mb, res = timed(a.calls, markov_blanket, X, yl, **kw)
        t_fit, est = timed(a.calls, lambda: SemiIAMB(**kw).fit(X, yl))
        rws, tgt = surrogate_target(res, yl, kw["method"])
        t_learn, learned = timed(a.calls, learn_mb, X[rws], tgt, *learner, levels=levels,
                                 random_state=kw.get("random_state"))
        assert set(est.get_feature_names_out()) == set(res.selected)
        out = dict(same=set(learned.members) == set(res.blanket), learner=t_learn, markov_blanket=t_mb, SemiIAMB=t_fit)
        if test == "default":                  # the same call with the default test's asymptotic form: its permutations' cost
            out["asymptotic"] = timed(a.calls, markov_blanket, X, yl, **kw, test=test_spec(learner[1]).statistic)[0]
        if a.before:                                                           # the older checkout's, after the current
            t_omb, ores = timed(a.calls, old_mb, X, yl, **kw)
            t_ofit, oest = timed(a.calls, lambda: old_est(**kw).fit(X, yl))
            rtol = 1e-9 if a.continuous else 0.0
            out.update(before_mb=t_omb, before_fit=t_ofit, same_before=same_result(ores, res, rtol) and (
                np.allclose(oest.pvalues_, est.pvalues_, rtol=rtol, atol=rtol, equal_nan=True)
                and np.allclose(oest.scores_, est.scores_, rtol=rtol, atol=rtol, equal_nan=True)))
        return out, res, rws, tgt

    for name, n, target, X, y, prior, levels in samples(a):
        floats = a.continuous and all(d.kind == "f" for d in X.dtypes)    # discrete features: mi-cg differs (01b)
        for labelling in a.labellings:
            yl, method, keep, cls = labelled(y, labelling)
            frame = pd.concat([X[keep], pd.Series(cls[keep], X.index[keep], name=target)], axis=1)
            for test in a.tests:
                alpha = 0.05 if test == "default" else a.alpha                  # bnlearn's default level
                bns = [bnlearn_times(frame, target, a.algorithms, test, alpha) for _ in range(a.calls)]
                bn, bn_found = {alg: float(np.median([b[0][alg] for b in bns])) for alg in a.algorithms}, bns[-1][1]
                base = dict(prior=prior if labelling == "mcar-semi" else None, method=method)
                if test == "default":        # one semisel call (seeded, to compare its sets), beside each bnlearn learner
                    kw = dict(base, random_state=0)
                    out = entry(X, yl, kw, "default", test, levels)[0]
                for alg in a.algorithms:
                    if test != "default":
                        kw = dict(base, alpha=a.alpha, test=test, algorithm=alg)
                        out, res, rws, tgt = entry(X, yl, kw, alg, test, levels)
                    row = dict(network=name, n=n, target=target, labelling=labelling, algorithm=alg, test=test,
                               **out, bnlearn=bn[alg])
                    if floats and test != "default" and labelling != "mcar-semi":   # the same rows, target and test
                        mine = (res.selected if alg not in PC else   # a PC learner: its PC set against learn.nbr's
                                learn_nbr(X[rws], tgt, alg, test, a.alpha, levels=levels).selected)
                        row["same_bn"] = set(mine) == set(bn_found[alg])
                    rows.append(row)
        print(f"  {name} n={n} {target}: {len(rows)} rows", file=sys.stderr, flush=True)
    return pd.DataFrame(rows)


def report(df, by):
    "Seconds summed over `by` groups and the ratios to bnlearn (and the older checkout's, with --before)."
    timed = [c for c in ("learner", "markov_blanket", "SemiIAMB", "before_mb", "before_fit") if c in df]
    tab = df.groupby(by)[timed + ["bnlearn"]].sum()
    for c in timed: tab[f"{c}/bn"] = tab[c] / tab.bnlearn
    tab["markov_blanket/learner"] = tab.markov_blanket / tab.learner
    tab["jobs"], tab["same"] = df.groupby(by).size(), df.groupby(by).same.mean()
    if "same_bn" in df: tab["same_bn"] = df.groupby(by).same_bn.mean()          # NaN: not comparable (mcar-semi)
    if "same_before" in df: tab["same_before"] = df.groupby(by).same_before.mean()
    return tab


_R_FRESH = textwrap.dedent("""
    a <- commandArgs(TRUE); .libPaths(c(a[4], .libPaths()))
    suppressMessages(library(bnlearn))
    d <- read.csv(a[1], check.names = FALSE)
    d <- d[!is.na(d[[a[2]]]), ]
    for (v in names(d)) d[[v]] <- factor(d[[v]], levels = 0:max(d[[v]]))
    d <- d[, c(setdiff(names(d), a[2]), a[2])]
    if (a[3] %in% c("gs", "iamb", "fast.iamb", "inter.iamb", "iamb.fdr")) {
      r <- learn.mb(d, node = a[2], method = a[3], test = a[5], alpha = as.numeric(a[6]))
    } else {
      r <- learn.nbr(d, node = a[2], method = a[3], test = a[5], alpha = as.numeric(a[6]))
      for (m in r) learn.nbr(d, node = m, method = a[3], test = a[5], alpha = as.numeric(a[6]))
    }
    """)


def bytecode(a) -> str:
    """semisel's package as this run times it: byte-compiled (`compileall`, as an install leaves it), or with `--source`
    its bytecode removed (each fresh process compiles the modules it imports, where PYTHONDONTWRITEBYTECODE is set);
    the same for `--before`'s package. Returns a line that says which."""
    import semisel
    folders = [pathlib.Path(semisel.__file__).parent] + ([pathlib.Path(a.before) / "semisel"] if a.before else [])
    for folder in folders:
        if a.source:
            for f in folder.rglob("__pycache__/*.pyc"): f.unlink()
        elif not compileall.compile_dir(str(folder), quiet=1):
            raise RuntimeError(f"cannot byte-compile {folder}")
    return (f"semisel's modules {'from source (bytecode removed)' if a.source else 'byte-compiled (compileall)'}: "
            f"{', '.join(map(str, folders))}; PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}")


def child_cpu(cmd, **kw):
    "The CPU seconds (user + system) of a subprocess, from the OS."
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode: raise RuntimeError(f"{cmd[:3]} failed: {r.stderr[-800:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, r.stdout


def run_cli(a):
    "`semisel mb` and a fresh Rscript on the first target of each network, N and labelling."
    rows = []
    semisel = [sys.executable, "-c", "import sys; from semisel.cli import main; sys.exit(main())"] if a.module else ["semisel"]
    with tempfile.TemporaryDirectory() as tmp:
        rfile = os.path.join(tmp, "fresh.R")
        with open(rfile, "w") as f: f.write(_R_FRESH)
        for name in a.networks:
            net = load(name)
            if not targets_of(net, 1):
                print(f"  cli {name}: no benchmark target, skipped", file=sys.stderr, flush=True)
                continue
            for n in a.n:
                D = sample_network(net, n, random_state=0)
                target = targets_of(net, 1)[0]
                X, y = D.drop(columns=target).copy(), (D[target].to_numpy() == 0).astype(np.int64)   # one block
                prior = exact_prior(net, target)
                for labelling in a.labellings:                                     # points declare them (listwise too)
                    yl, method, keep, cls = labelled(y, labelling)
                    ours, theirs = os.path.join(tmp, "ours.csv"), os.path.join(tmp, "bn.csv")
                    X.assign(**{"class": pd.array(np.where(yl >= 0, yl, -1))}).to_csv(ours, index=False)
                    X[keep].assign(**{target: cls[keep]}).to_csv(theirs, index=False)
                    for test in a.tests:
                        for alg in a.algorithms:
                            cmd = semisel + ["mb", ours, "--label", "class", "--method", method, "--test", test,
                                             "--algorithm", alg, "--alpha", str(a.alpha), "--quiet", "--json"]
                            if labelling.startswith("mcar") and method == "semi": cmd += ["--prior", f"{prior:.6f}"]
                            if not rows:                                # untimed: a new checkout's first run compiles
                                child_cpu(cmd, cwd=tmp)                 # its kernels into the cache (once per install)
                                if a.before: child_cpu(cmd, env={**os.environ, "PYTHONPATH": a.before}, cwd=tmp)
                            t_cli, out = child_cpu(cmd, cwd=tmp)      # python -c: the package, not the cwd's copy
                            t_r, _ = child_cpu(["Rscript", rfile, theirs, target, alg, BNLEARN_LIB,
                                                BN_TEST.get(test, test), str(a.alpha)])
                            row = dict(network=name, n=n, labelling=labelling, algorithm=alg, test=test,
                                       semisel_mb=t_cli, Rscript=t_r, members=len(json.loads(out)["rows"]))
                            if a.before:                                # the same command on an older checkout
                                t_old, old = child_cpu(cmd, env={**os.environ, "PYTHONPATH": a.before}, cwd=tmp)
                                row.update(before=t_old, same=json.loads(old) == json.loads(out))
                            rows.append(row)
                so_far = {k: round(sum(r[k] for r in rows), 3) for k in ("semisel_mb", "Rscript", "before") if k in rows[-1]}
                print(f"  cli {name} n={n}: {len(rows)} rows, CPU-s so far {so_far}", file=sys.stderr, flush=True)
    df = pd.DataFrame(rows)
    print(f"\n`semisel mb` in a fresh process against a fresh Rscript (load bnlearn, read the CSV, learn), CPU seconds "
          f"summed over networks {a.networks}, n {a.n}, labellings {a.labellings} ({len(df)} calls of each):")
    cols = ["semisel_mb", "Rscript"] + (["before"] if a.before else [])
    for by in (["algorithm", "test"], ["network"], ["n"], ["network", "n"]):   # by n: where the fixed costs fade
        tab = df.groupby(by)[cols].sum()
        tab["ratio"] = tab.semisel_mb / tab.Rscript
        if a.before: tab["before/Rscript"], tab["same"] = tab.before / tab.Rscript, df.groupby(by).same.mean()
        print(tab.round(3).to_string())
    print(f"overall semisel mb / Rscript: {df.semisel_mb.sum() / df.Rscript.sum():.2f} "
          f"(per call: semisel mb {df.semisel_mb.mean():.3f}, Rscript {df.Rscript.mean():.3f} CPU-s)")
    if a.before:
        print(f"overall before ({a.before}) / Rscript: {df.before.sum() / df.Rscript.sum():.2f} (per call "
              f"{df.before.mean():.3f} CPU-s); the same output as before in {df.same.sum()} of {len(df)} calls")


_KERNEL = textwrap.dedent("""
    import numba, numpy as np
    @numba.njit(cache=True, nogil=True)
    def total(x):
        s = 0
        for i in range(x.shape[0]): s += x[i]
        return s
    """)


_FLOOR = ("import gc; gc.set_threshold(20_000, 10, 10)\n"          # the console's collector (semisel.cli.console)
          "import numpy as np, pandas as pd, scipy.special, kernel\n{}"
          "pd.read_csv(__import__('io').StringIO('a,b\\n0,1\\n')); kernel.total(np.arange(3)); gc.freeze()")
_BASES = "import sklearn.base, sklearn.feature_selection\n"


def run_floors(a):
    """The fixed costs a fresh process pays, each the median CPU seconds (children's rusage) of `--repeat` fresh
    processes: Python, numpy, numba, numpy with scipy.linalg (which numba's first cached kernel imports: its BLAS check)
    and with scipy.special on top (the chi-square tail of the tests, which shares scipy.linalg's array-API layer),
    numba with one kernel loaded from its cache (the least a compiled kernel costs), pandas, scikit-learn's
    BaseEstimator, `import semisel.iamb`, `semisel --help`, and R with bnlearn loaded. The two
    floors are what `semisel mb` cannot go below with the console's collector: numpy, pandas (a CSV read), scipy.special
    and one cached numba kernel, without and with scikit-learn's BaseEstimator and SelectorMixin (SemiIAMB's bases,
    which load scipy.stats)."""
    def median(cmd, **kw):
        return float(np.median([child_cpu(cmd, **kw)[0] for _ in range(a.repeat)]))
    py, old = sys.executable, {**os.environ, "PYTHONPATH": a.before or ""}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "kernel.py"), "w") as f: f.write(_KERNEL)
        child_cpu([py, "-c", "import kernel, numpy as np; kernel.total(np.arange(3))"], cwd=tmp)    # compiled, cached
        rows = [("python -c pass", median([py, "-c", "pass"])),
                ("import numpy", median([py, "-c", "import numpy"])),
                ("import numba", median([py, "-c", "import numba"])),
                ("numpy + scipy.linalg (numba's BLAS check)", median([py, "-c", "import numpy, scipy.linalg.cython_blas"])),
                ("numpy + scipy.linalg + scipy.special", median([py, "-c", "import numpy, scipy.linalg.cython_blas, "
                                                                 "scipy.special"])),
                ("numba + one cached kernel", median([py, "-c", "import kernel, numpy as np; kernel.total(np.arange(3))"],
                                                     cwd=tmp)),
                ("import pandas", median([py, "-c", "import pandas"])),
                ("import sklearn.base", median([py, "-c", "import sklearn.base"])),
                ("floor without scikit-learn", median([py, "-c", _FLOOR.format("")], cwd=tmp)),
                ("floor with SemiIAMB's bases", median([py, "-c", _FLOOR.format(_BASES)], cwd=tmp)),
                ("import semisel.iamb", median([py, "-c", "import semisel.iamb"], cwd=tmp)),   # not the cwd's semisel
                ("semisel --help", median(["semisel", "--help"])),
                *([("import semisel.iamb, --before", median([py, "-c", "import semisel.iamb"], env=old, cwd=tmp)),
                   ("semisel --help, --before", median(["semisel", "--help"], env=old))] if a.before else []),
                ("Rscript: library(bnlearn)", median(["Rscript", "-e", f".libPaths(c('{BNLEARN_LIB}', .libPaths())); "
                                                      "suppressMessages(library(bnlearn))"]))]
    print(f"\nFixed costs of a fresh process, median CPU seconds of {a.repeat}:")
    print(pd.DataFrame(rows, columns=["process", "cpu"]).round(3).to_string(index=False))


_FIRST = textwrap.dedent("""
    import time, sys
    t0 = time.process_time()
    import numpy as np
    from semisel.iamb import markov_blanket
    from semisel.networks import network, sample_network
    t1 = time.process_time()
    D = sample_network(network("alarm"), 5000, random_state=0)
    X, y = D.drop(columns="STROKEVOLUME"), (D.STROKEVOLUME.to_numpy() == 0).astype(int)
    t2 = time.process_time()
    markov_blanket(X, y, algorithm=sys.argv[1], test=sys.argv[2])
    t3 = time.process_time()
    markov_blanket(X, y, algorithm=sys.argv[1], test=sys.argv[2])
    t4 = time.process_time()
    print(t1 - t0, t3 - t2, t4 - t3)
    """)


def run_first(a):
    "The first and the second `markov_blanket` call in fresh processes (alarm, N 5000, STROKEVOLUME, full labels)."
    rows = []
    for test in a.tests:
        for alg in a.algorithms:
            out = subprocess.run([sys.executable, "-c", _FIRST, alg, test], capture_output=True, text=True, check=True)
            imp, first, second = map(float, out.stdout.split())
            rows.append(dict(algorithm=alg, test=test, imports=imp, first_call=first, second_call=second,
                             first_over_second=first / max(second, 1e-9)))
    print("\nA fresh process (alarm, N 5000, STROKEVOLUME, full labels), CPU seconds: the imports of semisel.iamb, "
          "the first markov_blanket call and the second:")
    print(pd.DataFrame(rows).round(3).to_string(index=False))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--networks", nargs="+", default=["alarm", "insurance", "child", "hailfinder", "water", "hepar2",
                                                      "win95pts", "andes", "pigs"])
    ap.add_argument("--n", nargs="+", type=int, default=[2000, 5000])
    ap.add_argument("--targets", type=int, default=None, help="targets per network (the first of benchmark_targets; "
                    "default 2; with --continuous the first of gaussian_targets, default all)")
    ap.add_argument("--continuous", action="store_true", help="the grid on chapter 04c's continuous samples (--nets)")
    ap.add_argument("--nets", nargs="+", default=list(CONTINUOUS), help="--continuous: network:rows (NAME-cg: mixed)")
    ap.add_argument("--out", metavar="PATH", help="grid: also write its rows to this CSV")
    ap.add_argument("--labellings", nargs="+", default=list(LABELLINGS), choices=LABELLINGS)
    ap.add_argument("--algorithms", nargs="+", default=[a for a in ALGORITHMS if a != "pc.stable"])
    ap.add_argument("--tests", nargs="+", default=None, help="default mi adf; with --continuous mi-cg default ("
                    "'default': each tool's default test, learner and level)")
    ap.add_argument("--alpha", type=float, default=0.05, help="bnlearn's default level")
    ap.add_argument("--pairs", nargs="+", metavar="ALG:ALPHA", help="grid: each learner at its own level, in this run "
                    "(instead of --algorithms at --alpha), and each pair's semisel CPU against the first's")
    ap.add_argument("--calls", type=int, default=1, help="grid: time each call this many times and sum the medians "
                    "(bnlearn's too: its Rscript runs repeated); one call's time is at the mercy of a spike of the machine")
    ap.add_argument("--cli", action="store_true", help="also `semisel mb` against a fresh Rscript")
    ap.add_argument("--module", action="store_true", help="run the command as python -c '...semisel.cli.main()' (not the console script)")
    ap.add_argument("--first", action="store_true", help="also the first call in a fresh process")
    ap.add_argument("--no-grid", action="store_true", help="skip the warm grid")
    ap.add_argument("--floors", action="store_true", help="also the fixed costs of fresh processes (Python, numpy, numba, "
                    "pandas, scikit-learn, semisel, R with bnlearn)")
    ap.add_argument("--before", metavar="PATH", help="with --cli: also run each command with PYTHONPATH=PATH (an older "
                    "checkout's package folder, e.g. from git archive) and compare its CPU and its output; with "
                    "--floors: also its import semisel.iamb and semisel --help; in the grid: also its markov_blanket "
                    "and SemiIAMB.fit, in this process")
    ap.add_argument("--repeat", type=int, default=5, help="fresh processes per figure of --floors")
    ap.add_argument("--source", action="store_true", help="--cli, --floors: semisel's bytecode removed, not compiled (see "
                    "the docstring)")
    a = ap.parse_args()
    a.tests = a.tests or (["mi-cg", "default"] if a.continuous else ["mi", "adf"])
    a.targets = a.targets or (None if a.continuous else 2)
    if not bnlearn_available(): raise SystemExit("R with bnlearn 4.9 is needed (see ../shared/tools/bnlearn)")
    pd.set_option("display.width", 180)
    if not a.no_grid:
        pairs = [(alg, float(alpha)) for alg, alpha in (p.split(":") for p in a.pairs)] if a.pairs else []
        parts = []
        for alg, alpha in pairs:
            a.algorithms, a.alpha = [alg], alpha
            parts.append(run(a).assign(alpha=alpha))
        df = pd.concat(parts, ignore_index=True) if pairs else run(a)
        if a.out: df.to_csv(a.out, index=False)
        where = f"samples {a.nets}" if a.continuous else f"networks {a.networks}, n {a.n}"
        print(f"{where}, {a.targets or 'all'} targets each, " + (f"pairs {a.pairs}" if pairs else f"alpha {a.alpha}")
              + ": CPU seconds summed, warm calls"
              + (f" (each the median of {a.calls} calls, bnlearn's of {a.calls} Rscript runs)" if a.calls > 1 else ""))
        pair = ["algorithm", "alpha"] if pairs else []
        print(report(df, ["algorithm", "test"] + pair[1:]).round(3).to_string())
        for by in (["test", "labelling"], ["test", "network"]) if a.continuous else (["labelling"], ["network"]):
            print()
            print(report(df, pair + by).round(3).to_string())
        if pairs:
            tot = df.groupby(pair, sort=False)[["learner", "markov_blanket", "SemiIAMB", "bnlearn"]].sum()
            first = tot.iloc[0]
            print(f"\neach pair / {pairs[0][0]} at {pairs[0][1]}, semisel's CPU: "
                  + "; ".join(f"{alg} at {alpha}: markov_blanket {r.markov_blanket / first.markov_blanket:.2f}x, SemiIAMB.fit "
                              f"{r.SemiIAMB / first.SemiIAMB:.2f}x, learner {r.learner / first.learner:.2f}x (bnlearn's own "
                              f"{r.bnlearn / first.bnlearn:.2f}x)" for (alg, alpha), r in tot.iloc[1:].iterrows()))
            for (alg, alpha), r in tot.iterrows():
                print(f"{alg} at {alpha} / bnlearn's {alg} at {alpha}: learner {r.learner / r.bnlearn:.2f}, markov_blanket "
                      f"{r.markov_blanket / r.bnlearn:.2f}, SemiIAMB.fit {r.SemiIAMB / r.bnlearn:.2f}")
        for test, part in [] if pairs else df.groupby("test", sort=False):          # (pairs: their own lines above)
            tot = part[["learner", "markov_blanket", "SemiIAMB", "bnlearn"]].sum()
            print(f"\n{test}: overall / bnlearn" + (" (each tool's default; bnlearn: the mean over its learners)"
                                                     if test == "default" else "") +
                  f": learner {tot.learner / tot.bnlearn:.2f}, markov_blanket {tot.markov_blanket / tot.bnlearn:.2f}, "
                  f"SemiIAMB.fit {tot.SemiIAMB / tot.bnlearn:.2f}; markov_blanket / learner "
                  f"{tot.markov_blanket / tot.learner:.2f} ({len(part)} blankets"
                  + (f"; the same sets as bnlearn's in {int(part.same_bn.sum())} of {int(part.same_bn.notna().sum())}"
                     if "same_bn" in part and part.same_bn.notna().any() else "")
                  + (f"; the default test's asymptotic form: markov_blanket {part.asymptotic.sum() / tot.bnlearn:.2f}"
                     if "asymptotic" in part and part.asymptotic.notna().any() else "") + ")")
        if a.before:
            tot = df[["bnlearn"]].sum()
            print(f"before ({a.before}) / bnlearn: markov_blanket {df.before_mb.sum() / tot.bnlearn:.2f}, SemiIAMB.fit "
                  f"{df.before_fit.sum() / tot.bnlearn:.2f}; the same results (result, pvalues_, scores_) in "
                  f"{df.same_before.sum()} of {len(df)}")
    if a.cli or a.floors: print(bytecode(a))
    if a.cli: run_cli(a)
    if a.first: run_first(a)
    if a.floors: run_floors(a)


if __name__ == "__main__":
    main()
