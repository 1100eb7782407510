"""Speed of the full-scale replication of Sechidis & Brown (2018) Figs 3 and 4 with semisel.experiments.surrogates.

W1: every panel of Fig 3 (a, b) and Fig 4 (a-d), R = 1000 datasets per effect size, 11 effect sizes per panel,
    every method (Y, D_L, Y0, Y1): 6 x 11 x 1000 x 4 = 264,000 G-tests, single process (n_jobs=1). Target: < 60 s.
W2: the same amount of work done the naive way for ONE panel and ONE effect size with R = 1000: a Python loop over
    datasets calling semisel.infotheory.g_test per method (what one would write without the batched count),
    extrapolated to the 66 panel-effects of W1, to show what batching buys.
Run: OMP_NUM_THREADS=1 python tests/benchmarks/bench_surrogates.py   (prints seconds; asserts nothing but sanity)."""
import time

import numpy as np

from semisel.infotheory import g_test
from semisel.experiments.surrogates import PAPER_PANELS, replicate_figures
from semisel.surrogates import (class_conditionals_with_mi, labelled_only, marc_mask, sample_given_class,
                                surrogate_labels)


def naive_one_effect(R=1000, seed=0):
    "Python-level loop: one dataset and four g_test calls at a time (panel 4b, I = 0.01)."
    cfg = PAPER_PANELS["4b"]
    rng = np.random.default_rng(seed)
    acc = np.zeros(4)
    for _ in range(R):
        cond = class_conditionals_with_mi(1, cfg["arity"], cfg["p_y"], 0.01, rng)
        y = (rng.random((1, cfg["n"])) < cfg["p_y"]).astype(np.int64)
        x = sample_given_class(cond, y, rng)[0].astype(np.int64)
        s = marc_mask(y, cfg["p_labelled"], cfg["p_pos_given_labelled"], mode="bernoulli", p_y=cfg["p_y"], random_state=rng)[0]
        yp = np.where(s, y[0], -1)
        targets = [(x, y[0]), labelled_only(x, yp), (x, surrogate_labels(yp, 0)), (x, surrogate_labels(yp, 1))]
        acc += [g_test(a, b).pvalue > 0.1 for a, b in targets]
    return acc / R


def main():
    t = time.perf_counter()
    res = replicate_figures(repetitions=1000, random_state=0)
    t_full = time.perf_counter() - t
    n_tests = sum(r.size for r in res.values()) * 1000
    assert all(abs(1 - r.loc[0.0] - 0.1).max() < 0.05 for r in res.values())
    print(f"W1 full Fig 3 + Fig 4 replication (R=1000, 6 panels x 11 effects x 4 methods = {n_tests:,} G-tests): {t_full:.2f} s")
    t = time.perf_counter()
    naive_one_effect(R=200)
    t_naive = (time.perf_counter() - t) * 5 * 66
    print(f"W2 naive per-dataset loop, extrapolated to the same work: {t_naive:.0f} s  (batched is {t_naive / t_full:.0f}x faster)")


if __name__ == "__main__": main()
