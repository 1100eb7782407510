"""Run notebooks, each in its own process, and print every notebook's CPU time (user + system) beside its wall time.

Two ways to run a notebook:
- `--kernel`: through a Jupyter kernel (nbclient + ipykernel), as JupyterLab runs it: tqdm.auto's bars are widgets,
  matplotlib draws inline (MPLBACKEND is unset for the kernel), IPython's display machinery is the real one;
- otherwise `nbdev_test --path <notebook>` (execnb's in-process shell, as `nbdev_test` runs every notebook).
Both skip the cells nbdev_test skips: markdown, the closing nbdev_export cell, `#| eval: false`, and the cells flagged
with settings.ini's `tst_flags` (`slow`, `notest`) unless named in --flags.

A notebook's CPU time is that of its process and of the processes it waited for (the kernel; joblib's workers when they
are joined), from os.wait4: what the notebook costs the machine, which wall time on a loaded machine does not say.
The table is sorted by CPU, largest first; the exit status is 1 if any notebook failed (its error is printed).
Usage: python .ci/notebooks.py [--kernel] [--workers 2] [--flags slow] [--timeout S] notebook [notebook ...]."""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_in_kernel(path: Path, force: set, timeout: int) -> None:
    "Execute the cells of `path` nbdev_test would run in a fresh Jupyter kernel, from the notebook's folder."
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
    from nbdev.config import get_config
    from nbdev.frontmatter import FrontmatterProc
    from nbdev.process import NBProcessor

    flags = set(get_config().tst_flags.split()) - force
    cells = NBProcessor(path, procs=FrontmatterProc, process=True).nb.cells

    def runs(cell) -> bool:                          # nbdev.test.test_nb's `_no_eval`, negated
        if cell.cell_type != "code" or "nbdev_export" + "(" in cell.source: return False
        direc = getattr(cell, "directives_", {}) or {}
        return direc.get("eval:", [""])[0].lower() != "false" and not flags & direc.keys()

    keep = [c for c in cells if runs(c)]
    os.environ.pop("MPLBACKEND", None)               # JupyterLab's inline backend, not CI's Agg
    for attempt in (1, 2):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c.source, id=c.get("id") or f"c{i}")
                                             for i, c in enumerate(keep)])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False,
                                resources={"metadata": {"path": str(path.parent)}})
        try:
            client.execute()
            return
        except CellExecutionError as e:
            cell = next((c for c in nb.cells if any(o.get("output_type") == "error" for o in c.get("outputs", []))), None)
            sys.exit(f"{path}: cell {cell.get('id') if cell else '?'} failed in a Jupyter kernel:\n{e}")
        except (CellTimeoutError, DeadKernelError) as e:
            # A kernel that is idle while the client still waits (a reply or status message lost between them: seen once
            # in CI, both processes idle) is not the notebook's fault: one more run in a fresh kernel, said on stderr;
            # a cell that really runs past the timeout does so twice and fails.
            if attempt == 2: sys.exit(f"{path}: no reply from the Jupyter kernel within {timeout} s, twice:\n{e}")
            print(f"{path}: no reply from the kernel within {timeout} s ({type(e).__name__}); once more in a fresh "
                  "kernel", file=sys.stderr, flush=True)


def run_one(path: Path, kernel: bool, flags: str, timeout: int) -> dict:
    "Run one notebook in a child process; its status, wall and CPU seconds, and its output when it failed."
    if kernel: cmd = [sys.executable, __file__, "--one", str(path), "--flags", flags, "--timeout", str(timeout)]
    else: cmd = ["nbdev_test", "--path", str(path), "--n_workers", "0", "--flags", flags]
    with tempfile.TemporaryFile() as log:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)         # reaped here: Popen must not wait again
        wall = time.perf_counter() - t0
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    ok = proc.returncode == 0 and (kernel or "Success." in out)
    return dict(notebook=path.relative_to(ROOT / "nbs").as_posix() if path.is_relative_to(ROOT / "nbs") else str(path),
                cpu=usage.ru_utime + usage.ru_stime, wall=wall, ok=ok, out=out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebooks", nargs="+", type=Path)
    ap.add_argument("--kernel", action="store_true", help="run through a Jupyter kernel (else nbdev_test)")
    ap.add_argument("--workers", type=int, default=2, help="notebooks run at a time (default 2)")
    ap.add_argument("--flags", default="", help="tst_flags to run rather than skip (space separated)")
    ap.add_argument("--timeout", type=int, default=900,
                    help="seconds a kernel cell may take (default 900; the chapters' cells take under a minute)")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)          # the child's side of --kernel
    args = ap.parse_args()
    if args.one: return run_in_kernel(args.notebooks[0].resolve(), set(args.flags.split()), args.timeout)
    paths = [p.resolve() for p in args.notebooks]
    how = "a Jupyter kernel" if args.kernel else "nbdev_test"
    print(f"{len(paths)} notebooks through {how}, {args.workers} at a time", flush=True)
    t0 = time.perf_counter()

    def one(p):
        r = run_one(p, args.kernel, args.flags, args.timeout)
        print(f"{'ok  ' if r['ok'] else 'FAIL'} {r['cpu']:7.1f} CPU-s {r['wall']:7.1f} s  {r['notebook']}", flush=True)
        return r

    with ThreadPoolExecutor(args.workers) as pool: results = list(pool.map(one, paths))
    wall = time.perf_counter() - t0
    print(f"\n{'CPU s':>8} {'wall s':>8}  notebook ({how}; CPU = user + sys of its process and the children it waited for)")
    for r in sorted(results, key=lambda r: -r["cpu"]):
        print(f"{r['cpu']:8.1f} {r['wall']:8.1f}  {r['notebook']}{'' if r['ok'] else '  FAILED'}")
    print(f"{sum(r['cpu'] for r in results):8.1f} {wall:8.1f}  total ({len(results)} notebooks)")
    failed = [r for r in results if not r["ok"]]
    for r in failed:
        print(f"\n--- {r['notebook']} failed:\n" + re.sub(r"\x1b\[[0-9;]*m", "", r["out"])[-6000:], file=sys.stderr)
    if failed: sys.exit(f"FAIL: {len(failed)} of {len(results)} notebooks failed: "
                        + ", ".join(r["notebook"] for r in failed))


if __name__ == "__main__": main()
