"""Speed of semisel.iamb (chapter 04) and of its replication protocol (semisel.experiments.iamb).

B1: one IAMB run (G-test, alpha = 0.10) on a 37-node network (alarm: 36 features + target) with 5,000 rows, for each
    benchmark target; also pgmpy's forward sampler against semisel's vectorised `sample_network` for those rows.
B2: the whole Figs 9-10 protocol of Sechidis & Brown (2018) (MCAR and MAR-C; N = 2000 and 5000; 10 trials x 30
    partially labelled versions x Semi-IAMB, Listwise-IAMB, Pairwise-IAMB, plus IAMB with Y) on the shipped networks
    (alarm, insurance, child, asia), through joblib with `--jobs` workers. Aim: under 10 minutes on 2 cores.
Run: python tests/benchmarks/bench_iamb.py [--jobs 2] [--skip-protocol] [--save results.csv]"""
import argparse
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore", category=FutureWarning)

from semisel.experiments.iamb import run_protocol, summarise  # noqa: E402
from semisel.iamb import iamb  # noqa: E402
from semisel.networks import benchmark_targets, network, sample_network  # noqa: E402


def best_of(f, repeat=5):
    "Best wall time of `repeat` runs of f() and its result."
    times = []
    for _ in range(repeat):
        t = time.perf_counter(); out = f(); times.append(time.perf_counter() - t)
    return min(times), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--skip-protocol", action="store_true")
    ap.add_argument("--save", default=None)
    args = ap.parse_args()

    net = network("alarm")
    D = sample_network(net, 5000, random_state=0)
    for t in benchmark_targets(net).target:
        X, y = D.drop(columns=t), (D[t] == 0).astype(int).to_numpy()
        sec, res = best_of(lambda: iamb(X, y))
        print(f"B1 IAMB alarm (36 features x 5000 rows), target {t:13s}: {sec * 1e3:7.1f} ms  (blanket of {len(res)})")
    from pgmpy.sampling import BayesianModelSampling
    t_pg, _ = best_of(lambda: BayesianModelSampling(net.model).forward_sample(size=5000, show_progress=False, seed=0), 2)
    t_ours, _ = best_of(lambda: sample_network(net, 5000, random_state=0))
    print(f"B1 sampling alarm 5000 rows: pgmpy {t_pg:.3f} s   semisel {t_ours * 1e3:.1f} ms   ratio {t_pg / t_ours:.0f}x")

    if args.skip_protocol: return
    t0 = time.perf_counter()
    res = run_protocol(("alarm", "insurance", "child", "asia"), ("mcar", "marc"), n_jobs=args.jobs, random_state=0)
    el = time.perf_counter() - t0
    print(f"B2 Figs 9-10 protocol, 4 networks, 19 targets, {len(res)} scored blankets: {el:.1f} s with n_jobs={args.jobs} (aim < 600 s)")
    print(summarise(res).unstack("method")["mean"].round(3).to_string())
    if args.save: res.to_csv(args.save, index=False)


if __name__ == "__main__":
    main()
