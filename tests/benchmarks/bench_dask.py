"""Out-of-core ranking on dask (issue 18): Semi-JMI on a table ten times larger than the workers' memory.

A dask.distributed LocalCluster of 2 worker processes (1 thread each, `--memory` each, 512 MiB by default) ranks a
lazily generated table of uint8 codes (0..4, from a seed: every pass regenerates the same chunks; nothing is ever held
whole) with partial labels (70 % missing at random; the class depends on features 0, 1 and 2), k steps of Semi-JMI to
the end. Checked: no worker is restarted (the nanny restarts a worker that passes 95 % of its memory limit), and the
first picks are the informative features.

Rows per second per core, against the in-memory path on a slice that fits (the first `--slice` rows, loaded):
  memory  SemiJMI on the NumPy slice, one core;
  dask    SemiJMI on the same slice, lazily generated, on the cluster (2 cores);
  large   the whole lazily generated table on the cluster (2 cores).
Both dask runs regenerate the data on every pass (it is never held): `generate` is the time of one such pass over the
slice alone. Aim: large / memory >= 0.5 per core. The slice's dask answer must equal the in-memory one.
With `--store DIR` the table is generated once and written to DIR as a stack of .npy chunks (`da.to_npy_stack`,
kept for later runs), and every pass reads it from there, as a user's data would be read from disk: the rows per
second are then the engine's, not the random generator's (generating a chunk costs more than counting it).
On a shared machine the wall clock measures the neighbours too: the table also gives rows per CPU second (the
workers' and this process's CPU time, `process_time`), which does not depend on the load.
Run (long; on a shared machine): nice -n 10 python tests/benchmarks/bench_dask.py [--rows N] [--features D]
    [--memory 512MiB] [--k 5] [--slice 1000000] [--slice-only] [--store DIR]"""
import argparse
import os
import time

import numpy as np

import dask
import dask.array as da
from dask.distributed import Client, LocalCluster

from semisel.ranking import SemiJMI


def lazy_table(n, d, chunk, seed=18):
    "Codes 0..4 (uint8) and partial labels (int8: 1 / 0 / -1), generated chunk by chunk from `seed`."
    X = da.random.default_rng(seed).integers(0, 5, size=(n, d), chunks=(chunk, d), dtype=np.uint8)
    noise = da.random.default_rng(seed + 1).integers(0, 3, size=n, chunks=chunk, dtype=np.uint8)
    y = (X[:, 0] + X[:, 1] + (X[:, 2] > 2) + noise) > 5
    keep = da.random.default_rng(seed + 2).random(n, chunks=chunk) < 0.3
    return X, da.where(keep, y.astype(np.int8), np.int8(-1))


def timed(f, client=None):
    "Wall time, CPU time (this process, plus the cluster's workers when `client` is given) and f's result."
    cpu = lambda: time.process_time() + (sum(client.run(time.process_time).values()) if client else 0.0)
    t, c = time.perf_counter(), cpu()
    out = f()
    return time.perf_counter() - t, cpu() - c, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=54_000_000)
    ap.add_argument("--features", type=int, default=200)
    ap.add_argument("--memory", default="512MiB")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=131_072)
    ap.add_argument("--slice", type=int, default=1_000_000)
    ap.add_argument("--slice-only", action="store_true", help="stop after the slice (no whole-table run)")
    ap.add_argument("--store", help="write the table once to this directory (.npy chunks) and read it from there")
    a = ap.parse_args()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit=a.memory,
                           dashboard_address=None)
    client = Client(cluster)
    limit = sum(w["memory_limit"] for w in client.scheduler_info()["workers"].values())
    X, yp = lazy_table(a.rows, a.features, a.chunk)
    if a.store:
        paths = [os.path.join(a.store, f"{a.rows}x{a.features}", part) for part in ("X", "y")]
        if not all(os.path.exists(os.path.join(p, "info")) for p in paths):
            t = time.perf_counter()
            os.makedirs(os.path.dirname(paths[0]), exist_ok=True)
            da.to_npy_stack(paths[0], X)
            da.to_npy_stack(paths[1], yp)
            print(f"stored in {paths[0]}: {time.perf_counter() - t:.0f} s", flush=True)
        X, yp = (da.from_npy_stack(p, mmap_mode="r") for p in paths)
    print(f"table: {a.rows:,} rows x {a.features} uint8 codes = {X.nbytes / 2**30:.2f} GiB, "
          f"{X.numblocks[0]} chunks; workers: 2 x {a.memory} = {limit / 2**30:.2f} GiB "
          f"(table / memory = {X.nbytes / limit:.1f}); {'read from ' + a.store if a.store else 'generated on every pass'}; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)

    Xs, ys = dask.compute(X[:a.slice], yp[:a.slice], scheduler="threads")   # loaded here, not through the workers
    Xs = np.asfortranarray(Xs)
    w_mem, c_mem, mem = timed(lambda: SemiJMI(k=a.k, prior=0.4).fit(Xs, ys))
    pids = client.run(os.getpid)
    w_gen, c_gen, _ = timed(lambda: X[:a.slice].max().compute(), client)
    w_sd, c_sd, sd = timed(lambda: SemiJMI(k=a.k, prior=0.4).fit(X[:a.slice], yp[:a.slice]), client)
    assert sd.ranking_.tolist() == mem.ranking_.tolist(), (sd.ranking_, mem.ranking_)
    assert np.allclose(sd.scores_[sd.ranking_], mem.scores_[mem.ranking_], rtol=0, atol=1e-12)
    print(f"slice {a.slice:,} rows: memory {w_mem:.1f} s wall ({c_mem:.1f} s CPU); dask on the cluster {w_sd:.1f} s "
          f"({c_sd:.1f} s CPU; {'reading' if a.store else 'generating'} the slice: {w_gen:.1f} s, {c_gen:.1f} s CPU a pass); same picks "
          f"{mem.ranking_.tolist()}", flush=True)
    if a.slice_only: return

    w_big, c_big, big = timed(lambda: SemiJMI(k=a.k, prior=0.4).fit(X, yp), client)
    restarted = client.run(os.getpid) != pids
    print(f"whole table: {w_big:.0f} s wall ({c_big:.0f} s CPU); picks {big.ranking_.tolist()}, "
          f"surrogate {big.surrogate_}; "
          f"workers restarted: {restarted}; load average {os.getloadavg()[0]:.1f}", flush=True)
    assert not restarted and set(big.ranking_[:3].tolist()) == {0, 1, 2}

    per_core = {"memory": (a.slice / w_mem, a.slice / c_mem), "dask": (a.slice / w_sd / 2, a.slice / c_sd),
                "large": (a.rows / w_big / 2, a.rows / c_big)}
    print(f"{'path':>7} {'rows/s/core':>12} {'ratio':>6} {'rows/CPU s':>11} {'ratio':>6}")
    m = per_core["memory"]
    for name, (v, c) in per_core.items():
        aim = "   aim >= 0.5" if name == "large" else ""
        print(f"{name:>7} {v:>12,.0f} {v / m[0]:>6.2f} {c:>11,.0f} {c / m[1]:>6.2f}{aim}")
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
