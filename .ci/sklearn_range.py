"""Run the room of scikit-learn-private speed-ups (chapter 00c, `semisel.fast`: its tests and doctests) at the lowest
scikit-learn that settings.ini allows and at the latest release, each in a throwaway venv that holds only that
scikit-learn (everything else is this interpreter's packages, behind it on sys.path). Opt-in, not part of .ci/run:
it downloads two scikit-learn wheels. Usage: python .ci/sklearn_range.py [--versions 1.6.0 latest]"""
import argparse
import configparser
import re
import site
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lowest() -> str:
    "The lower bound of scikit-learn in settings.ini's requirements (an explicit `>=`), padded to x.y.z."
    req = configparser.ConfigParser()
    req.read(ROOT / "settings.ini")
    m = re.search(r"scikit-learn>=([\d.]+)", req["DEFAULT"]["requirements"])
    if not m: sys.exit("settings.ini: scikit-learn needs an explicit lower bound (scikit-learn>=x.y)")
    v = m.group(1).split(".")
    return ".".join((v + ["0", "0"])[:3])


def run(version: str) -> bool:
    "Tests and doctests of chapter 00c with scikit-learn `version` ('latest': the newest release); True if they pass."
    with tempfile.TemporaryDirectory() as d:
        venv.create(d, with_pip=True)
        py = str(Path(d) / "bin" / "python")
        spec = "scikit-learn" if version == "latest" else f"scikit-learn=={version}"
        subprocess.run([py, "-m", "pip", "install", "-q", "--no-deps", spec], check=True)
        own = subprocess.check_output([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True)
        (Path(own.strip()) / "zz_parent.pth").write_text("\n".join(site.getsitepackages()) + "\n")
        env = {"PYTHONPATH": str(ROOT), "PATH": f"{Path(d) / 'bin'}:/usr/bin:/bin", "HOME": str(Path.home())}
        got = subprocess.check_output([py, "-c", "import sklearn; print(sklearn.__version__)"], text=True, env=env)
        print(f"scikit-learn {got.strip()}:", flush=True)
        test = [py, "-c", "from nbdev.test import nbdev_test; nbdev_test(path='nbs/00c_fast.ipynb')"]
        doc = [py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules", "semisel/fast.py"]
        ok = all(subprocess.run(c, cwd=ROOT, env=env).returncode == 0 for c in (test, doc))
        print(f"scikit-learn {got.strip()}: {'passed' if ok else 'FAILED'}", flush=True)
        return ok


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--versions", nargs="+", default=None, help="scikit-learn versions (default: settings.ini's lowest, latest)")
    args = ap.parse_args()
    results = [run(v) for v in (args.versions or [lowest(), "latest"])]
    sys.exit(0 if all(results) else 1)
