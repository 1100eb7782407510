"""Process the notebooks for the docs as nbdev_docs does, without Quarto (not installable here), and fail on any error.

`nbdev_proc_nbs` would first try to install Quarto (sudo) and re-install the package; this runs the same steps after
that: the module index, the sidebar, and nbdev's notebook processors (show_doc rendering, directives, the cells the
docs execute) into _proc/. Usage: python .ci/docs.py [--workers N]."""
import argparse
import sys

from nbdev.config import get_config
from nbdev.doclinks import _build_modidx
from nbdev.quarto import nbdev_sidebar, refresh_quarto_yml
from nbdev.serve import proc_nbs


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    cfg = get_config()
    refresh_quarto_yml()
    _build_modidx()
    nbdev_sidebar.__wrapped__(path=cfg.nbs_path)
    cache = proc_nbs(cfg.nbs_path, n_workers=args.workers, force=True)
    n = len(list(cache.rglob("*.ipynb")))
    print(f"processed {n} notebooks into {cache}")
    if n == 0: sys.exit("no notebook was processed")


if __name__ == "__main__": main()
