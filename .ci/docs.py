"""Process the notebooks for the docs as nbdev_docs does, without Quarto (not installable here), and fail on any error.

`nbdev_proc_nbs` would first try to install Quarto (sudo) and re-install the package; this runs the same steps after
that: the module index, nbs/nbdev.yml and nbs/sidebar.yml (generated, not committed), and nbdev's notebook processors
(show_doc rendering, directives, the cells the docs execute: every cell holding an import, an export or a show_doc)
into _proc/. Unlike proc_nbs, which stops at the first failing notebook, every notebook is processed (each in a fresh
process, as nbdev does) and all failures are reported. A stored error output (a traceback a reader would see) is a
failure too; a cell mixing imports with other code (which the docs execute in full, where the cells before it did
not run) is a warning (--strict, as .ci/book.py runs it: a failure). Slow cells are never executed here.

show_doc renders with `BookRenderer` here (nbdev's renderer, whose signatures fastcore writes): the signature as Python
writes it (the keyword-only `*` and positional-only `/` kept, no annotation guessed from a default), each parameter's
description (its numpy docstring entry or docment) kept whole as `#` comment lines under it, and the "source" link
pointing at the line that defines the symbol (nbdev's link has no line: `#LNone`). Usage: python .ci/docs.py
[--workers N] [--strict] [notebook ...]."""
import argparse
import ast
import dataclasses
import inspect
import json
import multiprocessing as mp
import re
import sys
import textwrap
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
from nbdev.showdoc import BasicMarkdownRenderer


def _fmt_anno(a) -> str:
    "An annotation as written in the code, without module paths (`DataFrame | None`, not `pandas.core...`)."
    text = (a if isinstance(a, str) else inspect.formatannotation(a)).replace("'", "")
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*)", r"\1", text)


def _fmt_default(d) -> str:
    return d.__name__ if inspect.isfunction(d) or inspect.isclass(d) else repr(d)


def _fmt_param(p: inspect.Parameter, factory: str | None = None) -> str:
    "A parameter as Python writes it (`*args`, `x: int = 1`), with functions and classes as defaults by their name."
    s = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
    if p.annotation is not p.empty: s += f": {_fmt_anno(p.annotation)}"
    if p.default is not p.empty: s += (" = " if p.annotation is not p.empty else "=") + (
        factory or _fmt_default(p.default))
    return s


def _commented(code: str, doc: str | None, width: int) -> list[str]:
    """`code` then `doc` as a comment, re-wrapped to `width` characters (paragraphs kept) on comment lines aligned under
    the first."""
    if not (doc or "").strip(): return [code]
    room = max(40, width - len(code) - 4)
    paras = [textwrap.wrap(" ".join(p.split()), room, break_on_hyphens=False, break_long_words=False)
             for p in re.split(r"\n\s*\n", doc.strip())]
    lines = [l for para in paras for l in para + [""]][:-1]
    pad = " " * len(code)
    return [f"{code}  # {lines[0]}"] + [f"{pad}  # {l}".rstrip() for l in lines[1:]]


def _defaults(sym) -> dict:
    "A dataclass's fields made by a factory, as the code that makes them (inspect shows `<factory>`)."
    if not dataclasses.is_dataclass(sym): return {}
    return {f.name: f"field(default_factory={_fmt_default(f.default_factory)})" for f in dataclasses.fields(sym)
            if f.default_factory is not dataclasses.MISSING}


def signature_text(sym, docs: dict, name: str, maxline: int = 110) -> str:
    """The signature of `sym` (`name(...)`) as show_doc displays it: valid Python, with the markers `/` and `*`, each
    parameter's description from `docs` (name -> text; 'return' for the result) as comment lines after it, the
    parameters without a description packed up to `maxline` characters."""
    sig = inspect.signature(sym, eval_str=True)
    items, prev, factories = [], None, _defaults(sym)
    for p in sig.parameters.values():
        if p.name == "self" and prev is None: continue          # a method shown from its class, as fastcore does
        if prev == p.POSITIONAL_ONLY and p.kind != p.POSITIONAL_ONLY: items.append(("/", None))
        if p.kind == p.KEYWORD_ONLY and prev not in (p.KEYWORD_ONLY, p.VAR_POSITIONAL): items.append(("*", None))
        items.append((_fmt_param(p, factories.get(p.name)), docs.get(p.name)))
        prev = p.kind
    if prev == inspect.Parameter.POSITIONAL_ONLY: items.append(("/", None))
    lines, row = [], []
    for code, doc in items:
        if row and (doc or len(", ".join(row + [code])) + 5 > maxline):
            lines.append(", ".join(row) + ",")
            row = []
        if doc: lines += _commented(code + ",", doc, maxline - 4)
        else: row.append(code)
    if row: lines.append(", ".join(row) + ",")
    ret = "" if sig.return_annotation is sig.empty or inspect.isclass(sym) else f" -> {_fmt_anno(sig.return_annotation)}"
    head = f"{'async def' if inspect.iscoroutinefunction(sym) else 'def'} {name}("
    if not lines: return "\n".join(_commented(f"{head}){ret}:", docs.get("return"), maxline))
    return "\n    ".join([head] + lines) + "\n" + "\n".join(_commented(f"){ret}:", docs.get("return"), maxline))


def _line_of(path: Path, qualname: str) -> int | None:
    "The line where the module at `path` defines `qualname` (a function, a class or a method), by its syntax tree."
    body, line = ast.parse(path.read_text(encoding="utf-8")).body, None
    for part in qualname.split("."):
        node = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and n.name == part), None)
        if node is None: return None
        body, line = node.body, node.lineno
    return line


NOTEBOOK = None           # the notebook being processed (set by `_process`): its symbols live in its module


def exported_module(nb_path) -> Path | None:
    "The file of the module the notebook at `nb_path` exports to (its `#| default_exp`), None without one."
    if nb_path is None: return None
    m = re.search(r"#\|\s*default_exp\s+([\w.]+)", Path(nb_path).read_text(encoding="utf-8"))
    return get_config().lib_path / (m.group(1).replace(".", "/") + ".py") if m else None


def source_url(sym, fullname: str) -> str | None:
    """The line that defines `sym` (`fullname`: module.qualname, or qualname for a symbol the notebook defines) in the
    repository, as a link under settings.ini's git_url (.ci/htmlbook.py points it at its offline copy of the module
    when git_url is not this clone's remote); None for a symbol from elsewhere. The docs run the notebook's export
    cells, so its own symbols are found in the module nbdev_export writes (nbdev's index), not in the cell."""
    from nbdev.doclinks import NbdevLookup
    cfg, obj = get_config(), inspect.unwrap(getattr(sym, "fget", None) or sym)
    root = cfg.config_path.resolve()
    try: path, line = Path(inspect.getsourcefile(obj)).resolve(), inspect.getsourcelines(obj)[1]
    except (TypeError, OSError): path = line = None
    if path is None or not path.is_file() or not path.is_relative_to(root):
        entry = NbdevLookup()[fullname]
        qualname, line = getattr(obj, "__qualname__", fullname.rsplit(".", 1)[-1]), None
        for path in [exported_module(NOTEBOOK)] + ([root / entry[1]] if isinstance(entry, tuple) else []):
            line = _line_of(path, qualname) if path is not None and path.is_file() else None
            if line is not None: break
        if line is None: return None
    return f"{cfg.git_url.rstrip('/')}/blob/{cfg.branch}/{path.relative_to(root).as_posix()}#L{line}"


class BookRenderer(BasicMarkdownRenderer):
    "nbdev's show_doc renderer with `signature_text`'s signature and `source_url`'s link."
    def _repr_markdown_(self):
        try: sig = signature_text(self.sym, {k: v.get("docment") for k, v in self.dm.dm.items()},
                                  getattr(self.sym, "__name__", self.nm))
        except (TypeError, ValueError): sig = str(self.dm)         # no signature Python can show: fastcore's text
        src = source_url(self.sym, self.fn)
        doc = "---\n\n" + (f'[source]({src}){{target="_blank" style="float:right; font-size:smaller"}}\n\n' if src else "")
        doc += f"{'#' * self.title_level} {self.nm}\n\n```python\n\n{sig}\n\n```"
        if self.docs: doc += "\n\n" + re.sub(r"^(\s*)(.+)", r"\1*\2*", self.docs, count=1)   # as fastcore
        return doc


def _process(job):
    """Run nbdev's docs processors on one notebook; returns (notebook, seconds, error text or None, sources of the
    cells nbdev warns about: imports mixed with other code, which the docs execute in full)."""
    import nbdev.serve_drv
    import nbdev.showdoc
    nbdev.showdoc.BasicMarkdownRenderer = BookRenderer       # show_doc's default renderer, in this process
    global NOTEBOOK
    NOTEBOOK = job[0]
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
                             "all of it (hoist the imports to the notebook's hidden import cell, or, where the import is "
                             f"what a reader should see, split them into a cell holding only imports): {first}")
    n = sum(Path(job[1]).exists() for job in jobs)          # this run's outputs (a partial run keeps the others)
    print(f"processed {n} of {len(jobs)} notebooks into {cache}")
    if notes: print("\n".join(["", f"WARNING: {len(notes)} cell(s) executed in full by the docs:"] + notes))
    if args.strict: failures += notes
    if failures:
        print("\n".join(["", f"FAIL: {len(failures)} problem(s):"] + failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__": main()
