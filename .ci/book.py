"""Build the book as offline HTML, the way CI does (no Quarto, no network): nbdev's processing of the notebooks
(.ci/docs.py --strict: show_doc rendered, only the cells the docs need executed; a cell mixing imports with other
code, which the docs would execute in full, fails the build), the pages (.ci/htmlbook.py: stored outputs,
formulas as MathML, a copy of each module for the "source" links), then the checks (.ci/linkcheck.py: links, anchors,
images, source links, no `$` left; .ci/offline.py: the pages in headless Chromium with the network off, skipped
without Chromium). A few minutes on 2 cores. Prints the page to open. Usage: python .ci/book.py [--workers N]
[--out _html]."""
import argparse
import subprocess
import sys
from pathlib import Path

CI = Path(__file__).resolve().parent


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--workers", type=int, default=2, help="notebooks processed at once (default 2)")
    ap.add_argument("--out", type=Path, default=CI.parent / "_html", help="the book's folder (default _html)")
    args = ap.parse_args()
    steps = [["docs.py", "--strict", "--workers", str(args.workers)], ["htmlbook.py", "--out", str(args.out)],
             ["linkcheck.py", str(args.out)], ["offline.py", "--html", str(args.out), "--workers", str(args.workers)]]
    for script, *opts in steps:
        print(f"== python .ci/{script} {' '.join(opts)}", flush=True)
        if subprocess.run([sys.executable, str(CI / script), *opts], cwd=CI.parent).returncode:
            sys.exit(f"the book was not built: .ci/{script} failed (see above)")
    print(f"\nThe book: open {(args.out / 'index.html').resolve().as_uri()} in a browser (works offline).")


if __name__ == "__main__": main()
