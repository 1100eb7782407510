"""What `--prior estimate` costs where it cannot change the answer (a script, not a test; issue 43 item 5): `semisel mb`
on positive-unlabelled labels picks the surrogate Y0 whatever the prior, so the estimate is skipped (a note says so).
Each command runs in a fresh process, the way a user meets it; its wall time and CPU seconds (the child's rusage) are
printed with the ratio to the same command without a prior, in the same run. With `--before PATH` the same commands
also run on an older checkout (PYTHONPATH=PATH), in the same run.

    python tests/benchmarks/bench_prior_skip.py [--repeats 3] [--before /path/to/old/checkout]
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

COMMAND = ["mb", "alarm", "--target", "STROKEVOLUME", "--pu", "0.3"]


def run(extra: list, pythonpath: str | None) -> tuple[float, float]:
    """Wall and CPU seconds of one `semisel` command in a fresh process (run from the temporary folder, so that the
    checkout `pythonpath` names, or the installed semisel, is what it imports)."""
    env = dict(os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {}))
    before, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run([sys.executable, "-c", "import sys; from semisel.cli import main; sys.exit(main())", *COMMAND, *extra],
                   env=env, check=True, capture_output=True, cwd=tempfile.gettempdir())   # not this checkout's folder
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - t0, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--before", help="an older checkout to run the same commands on (PYTHONPATH)")
    a = ap.parse_args()
    print(f"semisel {' '.join(COMMAND)}; load average {os.getloadavg()[0]:.1f}")
    for where, path in (("this checkout", None), *((("before: " + a.before, a.before),) if a.before else ())):
        for _ in range(a.repeats):
            w0, c0 = run([], path)
            w1, c1 = run(["--prior", "estimate"], path)
            print(f"{where}: no prior {w0:5.2f} s wall, {c0:5.2f} CPU-s; --prior estimate {w1:5.2f} s wall, {c1:5.2f} CPU-s "
                  f"(x{w1 / w0:.2f} wall, x{c1 / c0:.2f} CPU)")


if __name__ == "__main__":
    main()
