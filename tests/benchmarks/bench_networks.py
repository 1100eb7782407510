"""A bundled Bayesian network loaded the way a user meets it, this checkout against an older one (a script, not a
test; issue 39, item 2): each figure from fresh processes, both checkouts alternately in the same run, and the ratios.

- `network(name)` for the six bundled networks: the CPU seconds of a fresh process from its first import
  (`time.process_time()` around `from semisel.networks import network; network(name)`), the median of `--repeat`;
  beside the floor `import semisel.networks` (numpy and pandas), which the stored arrays cannot go below;
- `semisel mb --target STROKEVOLUME` (no data argument: the default network, alarm; 5,000 rows sampled), the same
  with `--pu 0.3`, and `semisel mb` alone (exit 2: the error that lists alarm's targets): the whole command's CPU
  seconds (user + system, children's rusage), the median of `--repeat`, and whether the two checkouts print the
  same output (`--json`; the error's text);
- the wall time (and CPU) of test files that sample bundled networks, each checkout running its own copy of the
  file in one pytest process (`--tests`; `--runs` each).

Every process runs in an empty folder with PYTHONPATH set to its checkout, so neither the working directory nor the
installed (editable) copy decides which package is imported.

    python tests/benchmarks/bench_networks.py --before /work/wt/bif_before [--repeat 5] [--runs 1]
        [--tests tests/test_cli_imports.py tests/test_iamb_estimator.py] [--no-network] [--no-cli]
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parents[2]
NETWORKS = ("alarm", "asia", "barley", "child", "hailfinder", "insurance")
PROBE = "import time\nt = time.process_time()\n{}\nprint(time.process_time() - t)"
CLI = "import sys\nfrom semisel.cli import console\nsys.exit(console())"


def run(cmd, checkout: Path, cwd, status: int = 0) -> tuple:
    """(CPU seconds from the OS, wall seconds, stdout + stderr) of `cmd` with PYTHONPATH=`checkout` in `cwd`; it must
    exit with `status`."""
    before, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env={**os.environ, "PYTHONPATH": str(checkout)})
    wall, after = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != status: raise RuntimeError(f"{cmd[-3:]} with {checkout} failed: {(r.stdout + r.stderr)[-800:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall, r.stdout + r.stderr


def median_pair(a, make, k: int) -> tuple:
    "Median of `k` values of `make(checkout)` for this checkout and --before, called alternately."
    now, old = [], []
    for _ in range(k):
        now.append(make(HERE))
        old.append(make(a.before))
    return float(np.median(now)), float(np.median(old))


def bench_network(a, tmp):
    rows = {}
    in_process = lambda code: lambda co: float(run([sys.executable, "-c", PROBE.format(code)], co, tmp)[2].split()[-1])
    floor = median_pair(a, in_process("import semisel.networks"), a.repeat)
    for name in NETWORKS:
        now, old = median_pair(a, in_process(f"from semisel.networks import network; network({name!r})"), a.repeat)
        rows[name] = {"before": old, "after": now, "after / before": now / old, "after - floor": now - floor[0]}
        print(f"  network({name!r}): before {old:.3f}, after {now:.3f} CPU-s", file=sys.stderr, flush=True)
    df = pd.DataFrame(rows).T
    print(f"\n`network(name)` in a fresh process, CPU seconds from its first import (median of {a.repeat}); the floor "
          f"`import semisel.networks`: {floor[0]:.3f} here, {floor[1]:.3f} before")
    print(df.round(3).to_string())
    print(f"all six: before {df.before.sum():.3f}, after {df.after.sum():.3f} CPU-s, after / before "
          f"{df.after.sum() / df.before.sum():.3f}")


def bench_cli(a, tmp):
    rows = {}
    for label, args, status in (("semisel mb --target STROKEVOLUME", ["--target", "STROKEVOLUME", "--quiet", "--json"], 0),
                                ("semisel mb --target STROKEVOLUME --pu 0.3",
                                 ["--target", "STROKEVOLUME", "--pu", "0.3", "--quiet", "--json"], 0),
                                ("semisel mb (no --target: the error listing targets)", [], 2)):
        cmd, outs = [sys.executable, "-c", CLI, "mb", *args], {}
        def cpu(co, cmd=cmd, outs=outs, status=status):
            t, _, out = run(cmd, co, tmp, status)
            outs.setdefault(co, json.loads(out) if status == 0 else out)
            return t
        for co in (HERE, a.before): cpu(co)                             # numba's kernels compiled / cached first
        now, old = median_pair(a, cpu, a.repeat)
        rows[label] = {"before": old, "after": now, "after / before": now / old, "same output": outs[HERE] == outs[a.before]}
        print(f"  {label}: before {old:.3f}, after {now:.3f} CPU-s", file=sys.stderr, flush=True)
    print(f"\n`semisel mb` (no data argument: alarm, 5,000 rows) in a fresh process, CPU seconds of the whole process "
          f"(median of {a.repeat})")
    print(pd.DataFrame(rows).T.to_string())


def bench_tests(a):
    rows = {}
    for test in a.tests:
        walls, cpus = {HERE: [], a.before: []}, {HERE: [], a.before: []}
        for _ in range(a.runs):
            for co in (HERE, a.before):
                cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test]
                t, wall, _ = run(cmd, co, co)
                walls[co].append(wall)
                cpus[co].append(t)
        med = lambda d, co: float(np.median(d[co]))
        rows[test] = {"before wall": med(walls, a.before), "after wall": med(walls, HERE),
                      "after / before": med(walls, HERE) / med(walls, a.before),
                      "before CPU": med(cpus, a.before), "after CPU": med(cpus, HERE)}
        print(f"  {test}: before {med(walls, a.before):.1f}, after {med(walls, HERE):.1f} s", file=sys.stderr, flush=True)
    df = pd.DataFrame(rows).T
    print(f"\ntest files that sample bundled networks, one pytest process each (median of {a.runs}), seconds")
    print(df.round(2).to_string())
    print(f"together: wall before {df['before wall'].sum():.1f} s, after {df['after wall'].sum():.1f} s, after / before "
          f"{df['after wall'].sum() / df['before wall'].sum():.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="an older checkout (its root: PATH/semisel/ is the package)")
    ap.add_argument("--repeat", type=int, default=5, help="fresh processes per figure (median)")
    ap.add_argument("--runs", type=int, default=1, help="pytest runs per test file and checkout (median)")
    ap.add_argument("--tests", nargs="*", default=["tests/test_cli_imports.py", "tests/test_iamb_estimator.py",
                                                   "tests/test_reliability.py"])
    ap.add_argument("--no-network", action="store_true", help="skip the `network(name)` figures")
    ap.add_argument("--no-cli", action="store_true", help="skip the `semisel mb` figures")
    a = ap.parse_args()
    a.before = a.before.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        if not a.no_network: bench_network(a, tmp)
        if not a.no_cli: bench_cli(a, tmp)
    if a.tests: bench_tests(a)


if __name__ == "__main__":
    main()
