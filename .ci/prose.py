"""Every number the prose cites is read from an output beside it (issue 28, item 6).

For each notebook in nbs/ and nbs/replications/, the figures stated in its markdown cells must appear in the same
notebook's *support*: its stored outputs (text, HTML, markdown; images ignored), the records in nbs/results/ of its
slow cells, or a code cell's source (a constant the code sets, a paper's value typed into a table).

What counts as a cited figure (everything else, integers without a unit included, is not checked):
- a decimal: `0.724`, `.818`, `12.3`, `3.2×`, `3.2x` (not `1e-5`, nor a number glued to letters: `x0.5`, `0.5mm`);
- a percentage: `72%`, `4.5 %`;
- a time: a number with a unit of time: `46 CPU-min`, `5 min`, `2.3 s`, `120 ms`, `1 h`, `3 hours`.
Not cited figures: numbers in links' targets, URLs and HTML tags, and decimals right after a word that numbers a
thing (`Table 4.2`, `Fig. 3.1`, `§5.2.1`, `Eq. 2.3`, `Prop. 4.2`, `Theorem 3.1`, `version 2.4`, a package's version
`nbdev 2.4.14`, `bnlearn (4.9`) or with two dots (`2.4.14`). Ranges such as `0.5–2 s` carry their unit to the first
number. A paper's values are kept out by being typed into the code (a table, an assertion); those the prose alone
quotes go in ALLOW below, as do hand-worked examples whose steps no cell prints.

Support for a cited figure x written with d decimals (a support value v is any number in the support, sign ignored):
- a decimal or a time: |v - x| ≤ half a unit of x's last digit (0.7236 supports 0.724, .72 and 0.7; 46.3 supports 46),
  or v is a percentage whose fraction rounds to x (72.4% supports 0.724);
- a percentage p%: 100·v rounds to p (0.7236 supports 72% and 72.4%), or v itself rounds to p (an output's "72.4%");
- a time in unit u: also any time in the support converted to u (an output's "2760 s" supports "46 min").

ALLOW lists the genuine exceptions: (notebook, figure as written, why). Usage: python .ci/prose.py [--check] [nb ...]
(without --check: list the offenders per notebook with their context; --check: the same, exit 1 if any).
The support is the whole notebook, not only the cells beside the prose, so a figure can pass by matching an unrelated
number elsewhere in it: the check catches figures no output shows at all (measured elsewhere, derived by hand, copied
from another chapter or an older run), not a figure misread from the wrong output."""
import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / "nbs"

# (notebook relative to nbs/, figure exactly as written in the prose, why it needs no output)
ALLOW: list[tuple[str, str, str]] = [
    ("00b_networks.ipynb", "6.2", "the 2015 paper's Table 1 (insurance's mean blanket size), beside ours"),
    ("00b_networks.ipynb", "0.32", "the 2015 paper's Table 1 (insurance's mean prior), beside ours"),
    ("02_surrogates.ipynb", "0.125", "the paper's worked numbers (§3.3); the test beside types them as 125 of 1000 rows"),
    *[("05b_competitors.ipynb", x, "hand-worked arithmetic on the example's data typed in the code; the test beside "
       "asserts its end, 7.2010125 / 7.9257875") for x in ("2.6225", "1.67375", "0.94875", "0.9086")],
    *[("07_cbound.ipynb", x, "hand-worked arithmetic on the toy votes typed in the code; the test beside asserts "
       "mu1, mu2, delta and the bound") for x in (".64", ".36")],
    ("08_baselines.ipynb", "0.693", "hand-worked: ln 2, the gain of the cut the test beside asserts"),
    ("08_baselines.ipynb", "0.313", "hand-worked: the MDL threshold of that cut, [ln 7 + (ln 7 - 2 ln 2)]/8"),
    ("08_baselines.ipynb", "3.5", "a cut point (between the values 3 and 4) of the hand-worked example, not a result"),
    ("replications/r02_surrogates.ipynb", "0.19", "the paper's D_KL of Fig. 4a-b, quoted from its text"),
    ("replications/r02_surrogates.ipynb", "99.9", "the coverage of z = 3.29, the constant the code sets"),
    ("replications/r03_power.ipynb", "99.9", "the coverage of z = 3.29, the constant the code sets"),
    ("replications/r07_cbound.ipynb", "0.029", "FSGA - RF on Isolet, the difference of the .777 and .748 the output shows"),
]

UNITS = {"ms": 1e-3, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "min": 60, "mins": 60, "minute": 60,
         "minutes": 60, "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "day": 86400, "days": 86400}
_unit = r"(?:CPU[- ]?)?(?:" + "|".join(sorted(map(re.escape, UNITS), key=len, reverse=True)) + r")\b"
NUM = r"(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)"
# a figure in prose: number [range to a number] [% | unit]
CITED = re.compile(rf"(?<![\w.\-/#]){NUM}(?!(?!x\b)\w|\.\d)(?:(?P<rng>\s*(?:–|-|to)\s*)(?P<hi>{NUM}))?"
                   rf"(?P<pct>\s?%)?(?:\s?(?P<unit>{_unit}))?")
SUPPORT = re.compile(rf"(?<![\w.]){NUM}(?:[eE][-+]?\d+)?(?P<pct>\s?%)?(?:\s?(?P<unit>{_unit}))?")
NAMING = re.compile(r"(?:Table|Tab\.|Tables|Figure|Figures|Fig\.|Figs\.|Section|Sections|Sec\.|§|§§|Eq\.|Eqs\.|Equation|"
                    r"Chapter|chapter|Theorem|Lemma|Prop\.|Proposition|Corollary|Definition|Def\.|Algorithm|Alg\.|"
                    r"Appendix|Remark|Example|Step|step|version|v|Python|python|nbdev|numpy|pandas|scipy|R|bnlearn|"
                    r"scikit-learn|sklearn|Quarto|dask|joblib|ruff|pytest)[\s*(]*(?:[\d.]+(?:,|and|–|-|\s)+)*$")
STRIP = [re.compile(r"\]\([^)]*\)"), re.compile(r"<[^>]+>"), re.compile(r"https?://\S+"), re.compile(r"!\[[^\]]*\]")]


def _val(s: str) -> float: return float(s.replace(",", ""))
def _dec(s: str) -> int: return len(s.split(".")[1]) if "." in s else 0


def cited(md: str):
    "(figure as written, value, decimals, kind, unit) for every cited figure in the markdown `md`."
    for rx in STRIP: md = rx.sub(" ", md)
    for m in CITED.finditer(md):
        lo, pct, unit = m.group(0), m.group("pct"), m.group("unit")
        nums = [s for s in re.findall(NUM, lo)][:2 if m.group("hi") else 1]
        if NAMING.search(md[max(0, m.start() - 40):m.start()]): continue
        kind = "pct" if pct else "time" if unit else None
        for s in nums:
            if kind is None and "." not in s: continue
            u = None if unit is None else re.sub(r"^CPU[- ]?", "", unit)
            yield m.group(0).strip(), s, _val(s), _dec(s), kind, u


def support(nb: dict, rel: str, records: dict) -> tuple[list, list, list]:
    "Plain values, percentages and times (in seconds) found in the notebook's outputs, code and slow-cell records."
    texts = []
    def outs(outputs):
        for o in outputs:
            if "text" in o: texts.append("".join(o["text"]))
            for k, v in o.get("data", {}).items():
                if k.startswith("text/"): texts.append("".join(v))
    for c in nb["cells"]:
        if c["cell_type"] != "code": continue
        texts.append("".join(c["source"]))
        outs(c.get("outputs", []))
    for r in records.get(rel, []): outs(r.get("outputs", []))
    plain, pcts, times = [], [], []
    for t in texts:
        for m in SUPPORT.finditer(t):
            s = re.match(rf"{NUM}(?:[eE][-+]?\d+)?", m.group(0)).group(0)
            v = _val(s)
            plain.append(v)
            if m.group("pct"): pcts.append(v)
            if m.group("unit"): times.append(v * UNITS[re.sub(r"^CPU[- ]?", "", m.group("unit"))])
    return sorted(set(plain)), sorted(set(pcts)), sorted(set(times))


def _near(values, x: float, d: int, scale: float = 1.0) -> bool:
    tol = 0.5 * 10 ** -d + 1e-9 * max(1.0, x)
    return any(abs(abs(v) * scale - x) <= tol for v in values)


def supported(fig, sup) -> bool:
    "Whether the support (plain, pcts, times) shows the cited figure `fig` within the rounding the prose uses."
    _, s, x, d, kind, unit = fig
    plain, pcts, times = sup
    if kind == "pct": return _near(plain, x, d, 100.0) or _near(plain, x, d)
    if _near(plain, x, d) or _near(pcts, x, d, 0.01): return True
    return kind == "time" and _near(times, x, d, 1 / UNITS[unit])


def notebooks():
    for p in sorted(NBS.glob("*.ipynb")) + sorted((NBS / "replications").glob("*.ipynb")):
        if not p.name.startswith(("_", ".")): yield p


def load_records() -> dict:
    recs = {}
    for p in sorted((NBS / "results").glob("*.json")):
        r = json.loads(p.read_text(encoding="utf-8"))
        recs.setdefault(r.get("notebook"), []).append(r)
    return recs


def offenders(path: Path, records: dict | None = None) -> list[tuple[str, str, str]]:
    "(figure, number, context) of each figure in `path`'s markdown that its support does not show and ALLOW lacks."
    records = load_records() if records is None else records
    nb = json.loads(path.read_text(encoding="utf-8"))
    try: rel = path.resolve().relative_to(NBS).as_posix()
    except ValueError: rel = path.name
    sup = support(nb, rel, records)
    allowed = {(n, f) for n, f, _ in ALLOW if n == rel}
    out = []
    for c in nb["cells"]:
        if c["cell_type"] != "markdown": continue
        md = "".join(c["source"])
        for fig in cited(md):
            if (rel, fig[1]) in allowed or (rel, fig[0]) in allowed or supported(fig, sup): continue
            i = md.find(fig[0])
            out.append((fig[0], fig[1], " ".join(md[max(0, i - 60):i + len(fig[0]) + 30].split())))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if any figure in the prose has no support")
    ap.add_argument("notebooks", nargs="*", type=Path, help="notebooks to check (default: all of nbs/, nbs/replications/)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    records, total, n = load_records(), 0, 0
    for path in args.notebooks or notebooks():
        n += 1
        bad = offenders(path, records)
        total += len(bad)
        if bad:
            print(f"{path}: {len(bad)} figure(s) no output shows")
            for fig, num, ctx in bad: print(f"  {num!r} in {fig!r}: …{ctx}…")
    print(f"{n} notebooks, {total} figure(s) in prose with no output showing them ({time.perf_counter() - t0:.1f} s)")
    if args.check and total: sys.exit("FAIL: prose cites figures no output shows (read them from an output, or ALLOW)")


if __name__ == "__main__": main()
