"""Whether `semisel mb` prints the same bytes as an older checkout (a script, not a test): for a change that should only
move imports or costs (issue 39's cuts of a fresh process), every command of a grid is run in a fresh process with this
checkout's package and with `--before PATH`'s (PYTHONPATH=PATH), and its status, stdout and stderr compared byte for byte.

The grid: full labels, PU (--pu, and a CSV of PU labels), MCAR with a given prior, with --prior estimate and listwise;
text, --json and --csv; bundled networks sampled by --target and CSVs of a network's sample; a mixed CSV (float columns:
chapter 01b's tests, the sparse sums of a large table included); the papers' IAMB and Pairwise-IAMB.

    python tests/benchmarks/diag_cli_outputs.py --before /path/to/older/checkout
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd

from semisel.networks import network, sample_network

RUN = "import sys; from semisel.cli import main; sys.exit(main())"


def tables(folder: str) -> None:
    "The CSVs of the grid: alarm's sample (STROKEVOLUME's first state) fully, PU and MCAR labelled; two mixed tables."
    rng = np.random.default_rng(0)
    D = sample_network(network("alarm"), 2000, random_state=0)
    y = (D.STROKEVOLUME.to_numpy() == 0).astype(int)
    X = D.drop(columns="STROKEVOLUME")
    X.assign(**{"class": y}).to_csv(f"{folder}/alarm_full.csv", index=False)
    X.assign(**{"class": np.where((y == 1) & (rng.random(len(y)) < 0.3), 1, -1)}).to_csv(f"{folder}/alarm_pu.csv", index=False)
    X.assign(**{"class": np.where(rng.random(len(y)) < 0.4, y, -1)}).to_csv(f"{folder}/alarm_mcar.csv", index=False)
    for name, n, labelled in (("mixed", 3000, 1.0), ("mixed_big", 40000, 0.5)):
        x = rng.normal(size=(n, 3))
        t = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(size=n) > 0).astype(int)
        pd.DataFrame(x, columns=list("abc")).assign(e=rng.integers(0, 3, n), **{"class": np.where(
            rng.random(n) < labelled, t, -1)}).to_csv(f"{folder}/{name}.csv", index=False)


def grid() -> list:
    jobs = []
    for f in ([], ["--json"], ["--csv"]):
        jobs += [["mb", "alarm", "--target", "STROKEVOLUME", "--rows", "3000", *f],
                 ["mb", "alarm", "--target", "STROKEVOLUME", "--pu", "0.3", *f],
                 ["mb", "alarm", "--target", "STROKEVOLUME", "--mcar", "0.6", "--prior", "0.3", *f],
                 ["mb", "insurance", "--target", "PropCost", "--mcar", "0.6", "--prior", "estimate", *f],
                 ["mb", "alarm_full.csv", *f], ["mb", "alarm_pu.csv", *f], ["mb", "alarm_pu.csv", "--prior", "estimate", *f],
                 ["mb", "alarm_mcar.csv", "--prior", "0.3", *f], ["mb", "alarm_mcar.csv", "--method", "listwise", *f],
                 ["mb", "alarm_mcar.csv", "--prior", "estimate", *f],
                 ["mb", "mixed.csv", *f], ["mb", "mixed.csv", "--test", "mi-cg", "--alpha", "0.05", *f],
                 ["mb", "alarm_full.csv", "--algorithm", "iamb.papers", "--test", "g", *f]]
    return jobs + [["mb", "mixed_big.csv", "--prior", "0.4"], ["mb", "mixed_big.csv", "--method", "listwise", "--json"],
                   ["mb", "alarm_mcar.csv", "--method", "pairwise", "--json"],
                   ["mb", "child", "--target", "Disease", "--pu", "0.5", "--csv"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, metavar="PATH", help="an older checkout (its folder holds semisel/)")
    a = ap.parse_args()
    import semisel
    here = os.path.dirname(os.path.dirname(os.path.abspath(semisel.__file__)))
    same, jobs = 0, grid()
    with tempfile.TemporaryDirectory() as tmp:             # the cwd holds no semisel/: PYTHONPATH decides which one runs
        tables(tmp)
        for job in jobs:
            outs = [subprocess.run([sys.executable, "-c", RUN, *job], capture_output=True, cwd=tmp,
                                   env={**os.environ, "PYTHONPATH": path})
                    for path in (a.before, here)]
            ok = [(r.returncode, r.stdout, r.stderr) for r in outs]
            same += ok[0] == ok[1]
            print(("same " if ok[0] == ok[1] else "DIFFERENT ") + f"(status {ok[1][0]}, stdout {len(ok[1][1])} B "
                  f"{hashlib.sha1(ok[1][1]).hexdigest()[:8]}): semisel {' '.join(job)}", flush=True)
    print(f"byte-identical status, stdout and stderr: {same} of {len(jobs)} commands (before: {a.before}; now: {here})")
    return 0 if same == len(jobs) else 1


if __name__ == "__main__":
    sys.exit(main())
