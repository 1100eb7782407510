"""Speed of chapter 01b's continuous and mixed tests, batched over 50 columns of 5,000 rows.

W1: a continuous feature against a binary class ("mi-cg" family), without z and given a mixed z (2 continuous, 1
    three-level column); W2: continuous x against continuous y given 3 continuous columns ("zf", "mi-g", "cor" and
    bnlearn's permutation scheme, 999 permutations).
Each semisel test (`continuous_test_all`, one call for the 50 columns, best of 3) is timed against, in the same run:
  - bnlearn 4.9 in R, timed inside R: its public `ci.test` called once per column, and its internal batched
    `indep.test` (the learners' call, vectorised over x in C), with the same number of permutations;
  - the binned path of chapters 01-05: `semisel.datasets.discretize` (5 equal-width bins) + chapter 01's "g-adf".
Ratios above 1 mean semisel is faster. Run: OMP_NUM_THREADS=1 python tests/benchmarks/bench_continuous.py
(prints milliseconds and ratios; asserts nothing; skips bnlearn's columns without R)."""
import json
import os
import subprocess
import tempfile
import time

import numpy as np
import pandas as pd

from semisel.blankets import BNLEARN_LIB, bnlearn_available
from semisel.continuous import continuous_test_all
from semisel.datasets import discretize
from semisel.infotheory import ci_test_all

N, J, B = 5000, 50, 999


def best_of(f, k=3):
    times = []
    for _ in range(k):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def data(seed=0):
    rng = np.random.default_rng(seed)
    g = rng.normal(size=(N, 3))
    d = rng.integers(0, 3, N)
    cls = (rng.random(N) < 1 / (1 + np.exp(-(g[:, 0] + (d - 1) / 2)))).astype(np.int64)
    X = g[:, :1] + 0.5 * d[:, None] + rng.standard_t(5, (N, J))
    X[:, 0] += 0.3 * cls
    w = g @ [0.5, 1.0, -0.5] + 0.1 * X[:, 0] + rng.normal(size=N)
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(J)])
    frame["cls"], frame["w"], frame["d"] = cls, w, d
    for k in range(3): frame[f"g{k}"] = g[:, k]
    return frame


WORK = [  # (workload, semisel test, bnlearn test or None, y, z columns)
    ("W1 class", "mi-cg", "mi-cg", "cls", []),
    ("W1 class", "ns-mi-cg", None, "cls", []),
    ("W1 class", "sp-mi-cg", None, "cls", []),
    ("W1 class", "mc-mi-cg", None, "cls", []),
    ("W1 class | g0 g1 d", "mi-cg", "mi-cg", "cls", ["g0", "g1", "d"]),
    ("W1 class | g0 g1 d", "ns-mi-cg", None, "cls", ["g0", "g1", "d"]),
    ("W1 class | g0 g1 d", "sp-mi-cg", None, "cls", ["g0", "g1", "d"]),
    ("W1 class | g0 g1 d", "mc-mi-cg", None, "cls", ["g0", "g1", "d"]),
    ("W2 w | g0 g1 g2", "zf", "zf", "w", ["g0", "g1", "g2"]),
    ("W2 w | g0 g1 g2", "mi-g", "mi-g", "w", ["g0", "g1", "g2"]),
    ("W2 w | g0 g1 g2", "cor", "cor", "w", ["g0", "g1", "g2"]),
    ("W2 w | g0 g1 g2", "mc-zf", "mc-zf", "w", ["g0", "g1", "g2"]),
]


def bnlearn_times(frame):
    "Seconds of bnlearn's ci.test loop and of its batched indep.test, per workload with a bnlearn test, timed in R."
    jobs = [dict(test=t, y=y, z=z, B=B if t.startswith("mc-") else None) for _, _, t, y, z in WORK if t]
    with tempfile.TemporaryDirectory() as tmp:
        csv, spec, out = (os.path.join(tmp, f) for f in ("data.csv", "spec.json", "out.json"))
        frame.to_csv(csv, index=False, float_format="%.17g")
        with open(spec, "w") as f: json.dump(dict(csv=csv, J=J, jobs=jobs), f)
        script = f"""
.libPaths(c("{BNLEARN_LIB}", .libPaths())); suppressMessages(library(bnlearn)); library(jsonlite)
spec = fromJSON("{spec}", simplifyVector = FALSE)
d = read.csv(spec$csv); d$cls = factor(d$cls, levels = 0:1); d$d = factor(d$d, levels = 0:2)
xs = paste0("x", 0:(spec$J - 1))
out = list()
for (job in spec$jobs) {{
  z = unlist(job$z); if (is.null(z)) z = character(0)
  B = if (is.null(job$B)) NULL else job$B
  cols = c(xs, job$y, z)
  dd = bnlearn:::check.data(d[, cols], allow.missing = TRUE)
  loop = system.time(for (x in xs) ci.test(x, job$y, z, data = d[, cols], test = job$test, B = B))[["elapsed"]]
  batched = system.time(bnlearn:::indep.test(xs, job$y, z, data = dd, test = job$test,
                                             B = if (is.null(B)) 0L else B, alpha = 1))[["elapsed"]]
  out[[length(out) + 1]] = list(loop = loop, batched = batched)
}}
write(toJSON(out, auto_unbox = TRUE, digits = NA), "{out}")
"""
        r = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True)
        if r.returncode: raise RuntimeError(r.stderr[-2000:])
        with open(out) as f: return json.load(f)


def main():
    frame = data()
    X = frame[[f"x{j}" for j in range(J)]]
    R = iter(bnlearn_times(frame)) if bnlearn_available() else None
    print(f"{J} columns x {N:,} rows; permutation tests with {B} permutations (times in ms; ratio = other / semisel)")
    print(f"{'workload':22s} {'test':9s} {'semisel':>9s} {'ci.test loop':>13s} {'ratio':>7s} {'indep.test':>11s} {'ratio':>7s}"
          f" {'binned g-adf':>13s} {'ratio':>7s}")
    for work, test, bn, y, z in WORK:
        zf = frame[z] if z else None
        ours = best_of(lambda: continuous_test_all(X, frame[y], zf, test, random_state=0), 1 if test.startswith("mc") else 3)
        cells = [f"{work:22s} {test:9s} {ours * 1000:9.0f}"]
        if bn and R is not None:
            t = next(R)
            cells.append(f"{t['loop'] * 1000:13.0f} {t['loop'] / ours:7.1f} {t['batched'] * 1000:11.0f} {t['batched'] / ours:7.1f}")
        else: cells.append(f"{'':13s} {'':7s} {'':11s} {'':7s}")
        if frame[y].dtype.kind in "iu":
            binned = best_of(lambda: ci_test_all(discretize(X), frame[y], discretize(zf) if z else None, "g-adf"))
            cells.append(f"{binned * 1000:13.0f} {binned / ours:7.2f}")
        print(" ".join(cells))


if __name__ == "__main__":
    main()
