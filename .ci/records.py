"""Keep nbs/results/ (the slow cells' records, read by semisel._slowcells when a slow cell is skipped) in step with the
notebooks: every `#| slow` cell with stored outputs has a record, and no record is left whose cell is gone (a slow cell
edited since its run gets a new key). Without options: write the missing records from the notebooks' stored outputs
(never from the outputs of a skipped run, which start with the skip note) and remove the orphans; `--check`: list both
and exit 1 if there are any (.ci/run). Existing records are never rewritten here: a slow cell's run writes its own
(in Jupyter with SEMISEL_SLOW=1, or `.ci/execute_nb.py --flags slow`). Usage: python .ci/records.py [--check]."""
import argparse
import json
import sys
from pathlib import Path

from nbdev.config import get_config

from semisel._slowcells import SLOW_NOTE, cell_key, is_slow_cell, write_record


def slow_cells(nbs: Path):
    "(notebook relative to nbs, cell) of every slow code cell under `nbs`."
    for path in sorted(nbs.rglob("*.ipynb")):
        rel = path.relative_to(nbs)
        if any(p.startswith((".", "_")) for p in rel.parts): continue
        for c in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if c["cell_type"] == "code" and is_slow_cell("".join(c["source"])): yield rel, c


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="only report; exit 1 when records are missing or orphaned")
    args = ap.parse_args()
    nbs = get_config().nbs_path
    folder = nbs / "results"
    cells = list(slow_cells(nbs))
    keys = {cell_key("".join(c["source"])) for _, c in cells}
    missing = [(rel, c) for rel, c in cells if c.get("outputs") and cell_key("".join(c["source"])) not in
               {p.stem for p in folder.glob("*.json")}
               and SLOW_NOTE not in "".join(c["outputs"][0].get("text", ""))]
    orphans = sorted(p for p in folder.glob("*.json") if p.stem not in keys)
    print(f"{len(cells)} slow cells, {len(list(folder.glob('*.json')))} records in {folder}: {len(missing)} missing, "
          f"{len(orphans)} orphaned")
    if args.check:
        for rel, c in missing: print(f"  no record: {rel} cell {c.get('id')}")
        for p in orphans: print(f"  orphan: {p.name} ({json.loads(p.read_text()).get('notebook')})")
        if missing or orphans: sys.exit("FAIL: records out of step with the notebooks: run python .ci/records.py")
        return
    for rel, c in missing:
        print("  written:", write_record("".join(c["source"]), c["outputs"], notebook=rel.as_posix(),
                                         cell_id=c.get("id"), folder=folder).name, f"({rel} cell {c.get('id')})")
    for p in orphans:
        p.unlink()
        print("  removed orphan:", p.name)


if __name__ == "__main__": main()
