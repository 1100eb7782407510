"""Process the notebooks for the docs as nbdev_docs does, without Quarto (not installable here), and fail on any error.

`nbdev_proc_nbs` would first try to install Quarto (sudo) and re-install the package; this runs the same steps after
that: the module index, nbs/nbdev.yml and nbs/sidebar.yml (generated, not committed), and nbdev's notebook processors
(show_doc rendering, directives, the cells the docs execute: every cell holding an import, an export or a show_doc)
into _proc/. Unlike proc_nbs, which stops at the first failing notebook, every notebook is processed (each in a fresh
process, as nbdev does) and all failures are reported. A stored error output (a traceback a reader would see) is a
failure too; a cell mixing imports with other code (which the docs execute in full) is a warning (--strict: a
failure). Slow cells are never executed here. Usage: python .ci/docs.py [--workers N] [--strict] [notebook ...]."""
import argparse
import ast
import json
import multiprocessing as mp
import re
import sys
import time
import traceback
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from shutil import rmtree

from nbdev.config import get_config
from nbdev.doclinks import _build_modidx, nbglob
from nbdev.quarto import nbdev_sidebar, refresh_quarto_yml
from nbdev.serve import _proc_file


def _process(job):
    """Run nbdev's docs processors on one notebook; returns (notebook, seconds, error text or None, sources of the
    cells nbdev warns about: imports mixed with other code, which the docs execute in full)."""
    import nbdev.serve_drv
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            nbdev.serve_drv.main(job)
            err = None
        except BaseException:
            err = traceback.format_exc(limit=-3)
    mixed = [str(w.message).split("---\n", 1)[-1].rsplit("\n---", 1)[0] for w in caught
             if str(w.message).startswith("Found cells containing imports and other code")]
    return str(job[0]), time.perf_counter() - t0, err, mixed


def _strip_directives(source: str) -> str:
    return "\n".join(l for l in source.splitlines() if not l.startswith("#|")).strip()


def _mixed_cell(nb_path, source: str):
    "(index, cell) of the code cell of the notebook at `nb_path` whose source without directives is `source`."
    cells = json.loads(Path(nb_path).read_text())["cells"]
    return next(((i, c) for i, c in enumerate(cells) if _strip_directives("".join(c["source"])) == source.strip()),
                (None, {}))


def stored_errors(nb_path: Path) -> list[str]:
    "Cells of the notebook at `nb_path` whose stored outputs include an error (a traceback shown to readers)."
    cells = json.loads(nb_path.read_text())["cells"]
    return [f"{nb_path}: cell {i} (id {c.get('id')}) stores an error output: "
            f"{o.get('ename')}: {str(o.get('evalue'))[:200]}"
            for i, c in enumerate(cells) for o in c.get("outputs", []) if o.get("output_type") == "error"]


def flagged_executed(nb_path: Path) -> list[str]:
    """Cells flagged with a test flag (`#| slow`, `#| notest`) that the docs would execute anyway: nbdev runs every
    cell holding an import, an export or a show_doc, whatever its flags, so a slow cell with an import runs in full."""
    flags = set(get_config().get("tst_flags", "").split())
    out = []
    for i, c in enumerate(json.loads(nb_path.read_text())["cells"]):
        s = "".join(c["source"])
        cell_flags = flags & set(re.findall(r"^#\|\s*(\w+)\s*$", s, flags=re.M))
        if c["cell_type"] != "code" or not cell_flags: continue
        try: tree = ast.parse("\n".join(l for l in s.splitlines() if not l.lstrip().startswith(("%", "!"))))
        except SyntaxError: continue
        if any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree)) or "show_doc(" in s:
            out.append(f"{nb_path}: cell {i} (id {c.get('id')}) is flagged {' '.join(sorted(cell_flags))} but holds an "
                       "import, so the docs would execute it (move the import to the hidden import cell)")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--strict", action="store_true", help="fail on the warnings too")
    ap.add_argument("notebooks", nargs="*", type=Path, help="only these (default: every notebook under nbs/)")
    args = ap.parse_args()
    cfg = get_config()
    nbs, cache = cfg.nbs_path, cfg.config_path / "_proc"
    refresh_quarto_yml()
    _build_modidx()
    nbdev_sidebar.__wrapped__(path=nbs)
    files = nbglob(nbs, func=Path, file_glob="", file_re="")
    for extra in ("_quarto.yml", "_brand.yml"):
        if (nbs / extra).exists(): files.append(nbs / extra)
    if args.notebooks:
        wanted = {p.resolve() for p in args.notebooks}
        files = [f for f in files if f.suffix != ".ipynb" or f.resolve() in wanted]
    if cache.exists() and not args.notebooks: rmtree(cache)          # a full run starts afresh; a partial one updates
    cache.mkdir(parents=True, exist_ok=True)
    for f in files: (cache / f.relative_to(nbs)).unlink(missing_ok=True)      # processed again, whatever its age
    jobs = [j for j in (_proc_file(f, cache=cache, path=nbs) for f in files) if j is not None]
    if not jobs: sys.exit("no notebook to process")
    failures = [e for src, *_ in jobs for e in stored_errors(src) + flagged_executed(src)]
    notes = []
    with ProcessPoolExecutor(args.workers, mp_context=mp.get_context("spawn"), max_tasks_per_child=1) as ex:
        for src, secs, err, mixed in ex.map(_process, jobs):
            print(f"{'FAIL' if err else 'ok  '} {secs:6.1f}s {Path(src).relative_to(nbs)}", flush=True)
            if err: failures.append(f"{src}: nbdev's docs processing failed:\n{err}")
            for m in mixed:
                i, cell = _mixed_cell(src, m)
                if re.search(r"^#\|\s*hide\s*$", "".join(cell.get("source", "")), flags=re.M): continue  # setup cells
                first = m.strip().splitlines()[0][:90]
                notes.append(f"{src}: cell {i} (id {cell.get('id')}) mixes imports with other code, so the docs run "
                             f"all of it (hoist the imports to the hidden import cell): {first}")
    n = len(list(cache.rglob("*.ipynb")))
    print(f"processed {n} of {len(jobs)} notebooks into {cache}")
    if notes: print("\n".join(["", f"WARNING: {len(notes)} cell(s) executed in full by the docs:"] + notes))
    if args.strict: failures += notes
    if failures:
        print("\n".join(["", f"FAIL: {len(failures)} problem(s):"] + failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__": main()
