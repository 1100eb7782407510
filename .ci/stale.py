"""Fail when a notebook's stored outputs are stale relative to its code (the book shows stored outputs).

Each notebook is re-executed in a temporary copy of nbs/ (never in place), skipping the cells nbdev_test skips (flagged
`#| slow` / `#| notest`, the closing nbdev_export cell), with the inline matplotlib backend as .ci/execute_nb.py uses;
then each executed cell's text outputs are compared with the stored ones:

- compared: streams (stdout, stderr), the text/plain of results and displays (a figure's is its size and number of
  axes), error outputs, and the number of images; not compared: image pixels, HTML (its text/plain twin is), widgets'
  model ids;
- tolerated: timings (a number with a time unit, clock times, speed ratios "20 x"), object addresses (0x...),
  progress bars (tqdm lines), file paths and line numbers in warnings, whitespace (table column widths), and float
  noise of one unit in the last printed digit (a float that changes more, an integer that changes at all, or changed
  words are stale);
- a cell with no stored output that now prints something is stale ("never run"), and so is a stored output the code no
  longer produces; cells hidden from the book (`#| hide`, `#| output: false`, `#| include: false`) are not compared.

Slow cells keep their stored outputs (re-run them with `.ci/execute_nb.py --flags slow`); a notebook whose run fails
is reported with the error. Fix a stale notebook with `python .ci/execute_nb.py nbs/X.ipynb` (then nbdev_clean).
Usage: python .ci/stale.py [--workers N] [notebook ...]  (default: every notebook under nbs/)."""
import argparse
import copy
import multiprocessing as mp
import os
import re
import shutil
import sys
import tempfile
import time
import traceback

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from htmlbook import directives  # noqa: E402  (the one parser of a cell's #| lines)

ROOT = Path(__file__).resolve().parents[1]
FLAGS = {"slow", "notest"}
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
RATIO = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?[x×](?!\s*\d)(?!\w)")      # "ratio 20 x": benchmark speed ratios
TIME = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds|min|mins|minutes|h)(?![\w])")
PROGRESS = re.compile(r"\d+%\|.*\||\d+/\d+ \[[\d:<?,\s]+|it/s\]|s/it\]")


def skipped(cell) -> bool:
    "Cells nbdev_test does not run: markdown, flagged cells, the nbdev_export cell, `#| eval: false`."
    if cell.cell_type != "code" or "nbdev_export" + "(" in cell.source: return True
    d = directives(cell.source)
    return bool(FLAGS & d.keys()) or d.get("eval") == "false"


def hidden(cell) -> bool:
    "Cells whose outputs the book does not show."
    d = directives(cell.source)
    return "hide" in d or d.get("output") == "false" or d.get("include") == "false"


def _text(v) -> str:
    return "".join(v) if isinstance(v, list) else str(v)


def normalise(text: str, tmp: str = "") -> str:
    "Text with the tolerated variation removed (see the module docstring); float noise is left to `same`."
    text = ANSI.sub("", text)
    text = "\n".join(l.rsplit("\r", 1)[-1] for l in text.replace("\r\n", "\n").split("\n"))   # last frame of a bar
    lines = [l for l in text.split("\n") if not PROGRESS.search(l)]
    text = "\n".join(lines)
    if tmp: text = text.replace(tmp, "<nbs>")
    text = re.sub(r"(?:/[\w.+-]+)+\.py:\d+:", "<file>:N:", text)              # warnings' file and line
    text = re.sub(r"<ipython-input-\d+-[0-9a-f]+>(:\d+)?", "<input>:N", text)
    text = re.sub(r'File "[^"]+", line \d+', 'File "<file>", line N', text)
    text = re.sub(r"0x[0-9a-fA-F]{4,}", "0x?", text)
    text = re.sub(r"\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b", "<clock>", text)
    return RATIO.sub("<ratio>", TIME.sub("<time>", text))


def summary(outputs, tmp: str = "") -> list[str]:
    "The comparable text of a cell's outputs, one entry per output."
    out = []
    for o in outputs or []:
        t = o.get("output_type")
        if t == "stream": out.append(f"[{o.get('name', 'stdout')}] " + normalise(_text(o.get("text", "")), tmp))
        elif t == "error": out.append(f"[error] {o.get('ename')}: {normalise(str(o.get('evalue', '')), tmp)}")
        elif t in ("execute_result", "display_data"):
            data = o.get("data", {})
            images = sum(k.startswith("image/") for k in data)
            if "text/plain" in data: out.append("[out] " + normalise(_text(data["text/plain"]), tmp))
            elif "text/markdown" in data: out.append("[md] " + normalise(_text(data["text/markdown"]), tmp))
            if images: out.append(f"[{images} image(s)]")
    return [s for s in out if s.split("] ", 1)[-1].strip() or s.endswith("image(s)]")]


def tokens(text: str) -> list:
    "Words and numbers (as their strings) of `text`, whitespace dropped."
    out = []
    for part in re.split(r"(\s+)", text):
        if not part or part.isspace(): continue
        pos = 0
        for m in NUM.finditer(part):
            if m.start() > pos: out.append(part[pos:m.start()])
            out.append(m.group(0))
            pos = m.end()
        if pos < len(part): out.append(part[pos:])
    return out


def _ulp(s: str) -> float:
    "One unit in the last printed digit of the number string `s` (0 for an integer)."
    mant, _, exp = s.lower().partition("e")
    if "." not in mant and not exp: return 0.0
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    return 10.0 ** (int(exp or 0) - decimals)


def same(a: str, b: str) -> bool:
    "True when two normalised texts agree up to whitespace and one unit in the last digit of each float."
    ta, tb = tokens(a), tokens(b)
    if len(ta) != len(tb): return False
    for x, y in zip(ta, tb):
        if x == y: continue
        if not (NUM.fullmatch(x) and NUM.fullmatch(y)): return False
        tol = max(_ulp(x), _ulp(y))
        if tol == 0 or abs(float(x) - float(y)) > 1.01 * tol: return False
    return True


def first_difference(old: list[str], new: list[str]) -> str:
    "A short description of where two output summaries differ."
    if len(old) != len(new): return f"{len(old)} stored output(s), {len(new)} now"
    for o, n in zip(old, new):
        if not same(o, n):
            to, tn = tokens(o), tokens(n)
            i = next((k for k, (x, y) in enumerate(zip(to, tn)) if x != y), min(len(to), len(tn)))
            ctx = lambda t: " ".join(t[max(0, i - 4):i + 4])[:110]
            return f"stored: ...{ctx(to)}...\n        now:    ...{ctx(tn)}..."
    return ""


def check_notebook(job) -> dict:
    "Re-execute one notebook (in the temporary copy) and compare its cells; runs in a fresh process."
    nb_path, copy_root, nbs_root = map(Path, job)
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from execnb.nbio import read_nb
    from execnb.shell import CaptureShell
    t0 = time.perf_counter()
    rel = nb_path.relative_to(nbs_root)
    work = copy_root / rel
    nb = read_nb(work)
    stored = [copy.deepcopy(c.get("outputs", [])) for c in nb.cells]

    started = [-1]

    def pre(cell):
        if skipped(cell): return True
        cell.outputs = []
        started[0] = cell.idx_
        return False

    error = None
    shell = CaptureShell(work)
    cwd = Path.cwd()
    os.chdir(work.parent)
    try: shell.run_all(nb, exc_stop=True, preproc=pre)
    except BaseException as e:
        error = f"cell {started[0]}: " + "".join(traceback.format_exception_only(type(e), e)).strip()[-600:]
    finally: os.chdir(cwd)
    tmp = str(copy_root)
    ran_until = len(nb.cells) if error is None else started[0]          # the failing cell and those after: not compared
    stale = []
    for i, c in enumerate(nb.cells):
        if skipped(c) or hidden(c): continue
        if error is not None and i >= ran_until: break
        old, new = summary(stored[i], tmp), summary(c.get("outputs", []), tmp)
        if not old and not new: continue
        if not old: why = "never run: no stored output"
        elif not new: why = "stored output no longer produced"
        elif len(old) == len(new) and all(same(o, n) for o, n in zip(old, new)): continue
        else: why = first_difference(old, new)
        first = next((l for l in c.source.splitlines() if not l.startswith("#|") and l.strip()), "")[:70]
        stale.append(f"cell {i} (id {c.get('id')}) `{first}`: {why}")
    return {"notebook": str(rel), "seconds": time.perf_counter() - t0, "stale": stale, "error": error}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("notebooks", nargs="*", type=Path)
    args = ap.parse_args()
    nbs = ROOT / "nbs"
    paths = [p.resolve() for p in args.notebooks] or sorted(
        p for p in nbs.rglob("*.ipynb") if not any(x.startswith((".", "_")) for x in p.relative_to(nbs).parts))
    with tempfile.TemporaryDirectory(prefix="semisel-stale-") as tmp:
        copy_root = Path(tmp) / "nbs"
        shutil.copytree(nbs, copy_root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        jobs = [(str(p), str(copy_root), str(nbs)) for p in paths]
        results = []
        with ProcessPoolExecutor(args.workers, mp_context=mp.get_context("spawn"), max_tasks_per_child=1) as ex:
            for r in ex.map(check_notebook, jobs):
                results.append(r)
                state = "ERROR" if r["error"] else ("STALE" if r["stale"] else "ok   ")
                print(f"{state} {r['seconds']:6.1f}s {r['notebook']}"
                      + (f" ({len(r['stale'])} cell(s))" if r["stale"] else ""), flush=True)
    bad = [r for r in results if r["stale"] or r["error"]]
    for r in bad:
        print(f"\n{r['notebook']}:")
        if r["error"]: print(f"  the run failed: {r['error']}")
        for s in r["stale"]: print(f"  {s}")
    if bad:
        print(f"\nFAIL: {len(bad)} of {len(results)} notebooks have stale outputs or failed; refresh with "
              "`python .ci/execute_nb.py nbs/X.ipynb` (slow cells: --flags slow), then nbdev_clean", file=sys.stderr)
        sys.exit(1)
    print(f"all {len(results)} notebooks' stored outputs match their code")


if __name__ == "__main__": main()
