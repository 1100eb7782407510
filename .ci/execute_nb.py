"""Run notebooks in place so the book shows their outputs: `python .ci/execute_nb.py nbs/05_jmi.ipynb [--flags slow]`.

Cells flagged with a `tst_flags` directive (`#| slow`, `#| notest`) are skipped unless named in --flags, as nbdev_test
does; skipped cells keep whatever outputs they had (e.g. from an earlier full-scale run). A cell that runs gets exactly
the outputs of this run (none if it prints nothing).

`--only ID [ID ...]` refreshes the outputs of the named cells (ids or unique source substrings) and of no other:
the unflagged cells up to the last named one run to rebuild the state, the named cells run even if flagged, and every
other cell keeps its stored outputs (to update a figure without touching the rest of a notebook someone else edits).
A slow cell that runs also gets its record in nbs/results/ (semisel._slowcells), which Jupyter and headless runs show
when they skip it. Run `nbdev_clean` after."""
import argparse
import os
import re
from pathlib import Path

from execnb.nbio import read_nb, write_nb
from execnb.shell import CaptureShell
from nbdev.config import get_config

FLAGS = {"slow", "notest"}

def skip(cell, run_flags: set) -> bool:
    "True for markdown, the closing nbdev_export cell, and cells flagged with a flag not asked for."
    if cell.cell_type != "code" or "nbdev_export" + "(" in cell.source: return True
    flags = set(re.findall(r"^#\|\s*(\w+)\s*$", cell.source, flags=re.M)) & FLAGS
    return bool(flags - run_flags)

def find(nb, key: str) -> int:
    "Index of the cell whose id is `key`, or whose source holds `key` (exactly one)."
    hits = [i for i, c in enumerate(nb.cells) if c.get("id") == key]
    hits = hits or [i for i, c in enumerate(nb.cells) if key in c.source]
    if len(hits) != 1: raise SystemExit(f"--only {key!r}: {len(hits)} matching cells (give a cell id)")
    return hits[0]

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebooks", nargs="+", type=Path)
    ap.add_argument("--flags", nargs="*", default=[], help="flagged cells to run too (e.g. slow)")
    ap.add_argument("--only", nargs="*", default=None, help="ids of the cells whose outputs to refresh")
    args = ap.parse_args()
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    for fn in args.notebooks:
        nb = read_nb(fn)
        only = {find(nb, k) for k in args.only} if args.only else None
        stored = [c.get("outputs") for c in nb.cells]
        last = max(only) if only else len(nb.cells) - 1
        ran = set()

        def pre(cell):
            i = cell.idx_
            run = i <= last and (not skip(cell, set(args.flags)) or (only is not None and i in only))
            if run: cell.outputs, _ = [], ran.add(i)
            return not run

        shell = CaptureShell(fn)
        cwd = Path.cwd()
        os.chdir(fn.parent)
        try: shell.run_all(nb, exc_stop=True, preproc=pre)
        finally: os.chdir(cwd)
        if only is not None:
            for i, c in enumerate(nb.cells):
                if i not in only and c.cell_type == "code": c.outputs = stored[i]
        write_nb(nb, fn)
        from semisel._slowcells import is_slow_cell, write_record
        nbs = get_config().nbs_path
        for i in sorted(ran):
            c = nb.cells[i]
            if is_slow_cell(c.source):
                rel = fn.resolve().relative_to(nbs.resolve()).as_posix()
                rec = write_record(c.source, [dict(o) for o in c.outputs], notebook=rel, cell_id=c.get("id"),
                                   folder=nbs / "results")
                print(f"slow cell {c.get('id')}: record {rec.name} written")
        print(f"executed {fn}" + (f" (outputs refreshed: {len(only)} cell(s))" if only is not None else ""))

if __name__ == "__main__": main()
