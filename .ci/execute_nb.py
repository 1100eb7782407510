"""Run notebooks in place so the book shows their outputs: `python .ci/execute_nb.py nbs/05_jmi.ipynb [--flags slow]`.

Cells flagged with a `tst_flags` directive (`#| slow`, `#| notest`) are skipped unless named in --flags, as nbdev_test
does; skipped cells keep whatever outputs they had (e.g. from an earlier full-scale run). Run `nbdev_clean` after."""
import argparse, os, re
from pathlib import Path

from execnb.nbio import read_nb, write_nb
from execnb.shell import CaptureShell

FLAGS = {"slow", "notest"}

def skip(cell, run_flags: set) -> bool:
    "True for markdown, the closing nbdev_export cell, and cells flagged with a flag not asked for."
    if cell.cell_type != "code" or "nbdev_export" + "(" in cell.source: return True
    flags = set(re.findall(r"^#\|\s*(\w+)\s*$", cell.source, flags=re.M)) & FLAGS
    return bool(flags - run_flags)

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("notebooks", nargs="+", type=Path)
    ap.add_argument("--flags", nargs="*", default=[], help="flagged cells to run too (e.g. slow)")
    args = ap.parse_args()
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    for fn in args.notebooks:
        nb = read_nb(fn)
        shell = CaptureShell(fn)
        cwd = Path.cwd()
        os.chdir(fn.parent)
        try: shell.run_all(nb, exc_stop=True, preproc=lambda c: skip(c, set(args.flags)))
        finally: os.chdir(cwd)
        write_nb(nb, fn)
        print(f"executed {fn}")

if __name__ == "__main__": main()
