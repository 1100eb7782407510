"""Why "sp-mi-cg" (the default continuous test then; chapter 04c's second amendment made it "seq-mi-cg") rejects more
than 0.065 of true nulls on 4 of the 12 null designs of 04c's level check (stored in
nbs/results/continuous_default_levels.csv): lognormal feature, prior 0.5, no z (0.072);
lognormal, prior 0.5, mixed z (0.066); lognormal, prior 0.2, no z (0.067); t3, prior 0.2, mixed z (0.068).

A diagnosis, not a default change: on fresh null datasets of those 4 designs (04c's `null_class_data`, N = 500), the
rejection rate at 0.05 of "sp-mi-cg" as it is (the c chi2_nu law matched to the mean and variance of 100 permutations),
of the same with 1,000 permutations (are the 100 moments too noisy?), and of "mc-mi-cg" with 999 (the permutation law
itself, exact without z: is the moment-matched shape wrong?). The per-design 99% band for a correct test over R
datasets is printed.
Run: python tests/benchmarks/diag_sp_level.py [--reps R]

Measured (1,000 datasets per design; a correct test's 99% band [0.033, 0.069]):
                       sp-mi-cg B=100  sp-mi-cg B=1000  mc-mi-cg B=999
lognormal 0.5   none            0.064            0.062           0.055
                mixed           0.051            0.046           0.047
          0.2   none            0.055            0.053           0.050
t3        0.2   mixed           0.070            0.064           0.060
Reading: on fresh data three of the four designs are within 0.065 and all within the band but one (0.070), so 04c's
four excesses (0.066-0.072) are mostly the sampling noise of 1,000 datasets around a slightly liberal rate; "sp" sits
0.004-0.010 above the permutation law it approximates, of which 1,000 permutations remove about half (the noise of 100
moments), the rest the shape of c chi2_nu on a skewed feature; given a continuous z the Freedman-Lane permutation itself
is liberal on t3 noise (0.060).
"""
import argparse

import numpy as np
import pandas as pd
from scipy import stats

from semisel.continuous import continuous_test

DESIGNS = [("lognormal", 0.5, "none"), ("lognormal", 0.5, "mixed"), ("lognormal", 0.2, "none"), ("t3", 0.2, "mixed")]
TESTS = [("sp-mi-cg", None), ("sp-mi-cg", 1000), ("mc-mi-cg", 999)]


def null_class_data(rng, n, noise, prior, z):
    "Chapter 04c's null designs: x independent of a binary class y given z (none, or mixed: g and d), both on z."
    g, d = (rng.normal(size=n) if z == "mixed" else np.zeros(n)), (rng.integers(0, 3, n) if z != "none" else np.ones(n, int))
    y = (rng.random(n) < 1 / (1 + np.exp(-(np.log(prior / (1 - prior)) + g + (d - 1) / 2)))).astype(np.int64)
    e = rng.lognormal(size=n) if noise == "lognormal" else rng.standard_t(3, n)
    return g + d / 2 + e, y, {"none": None, "mixed": pd.DataFrame({"g": g, "d": d})}[z]


def main(reps, n=500, alpha=0.05):
    rows = []
    for i, (noise, prior, z) in enumerate(DESIGNS):
        data, perm = np.random.default_rng(100 + i), np.random.default_rng(200 + i)
        hits = np.zeros(len(TESTS))
        for _ in range(reps):
            x, y, zz = null_class_data(data, n, noise, prior, z)
            hits += [continuous_test(x, y, zz, t, random_state=perm, **({} if b is None else {"n_perm": b})).pvalue <= alpha
                     for t, b in TESTS]
        rows.append(dict(noise=noise, prior=prior, z=z, **{f"{t} B={b or 100}": h / reps for (t, b), h in zip(TESTS, hits)}))
    lo, hi = stats.binom.ppf([0.005, 0.995], reps, alpha) / reps
    print(f"rejection rates at {alpha} over {reps} null datasets per design (99% band of a correct test [{lo:.3f}, {hi:.3f}]):")
    print(pd.DataFrame(rows).set_index(["noise", "prior", "z"]).round(3).to_string())


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=1000)
    main(ap.parse_args().reps)
