"""`pip install .` gives a working package with its data: build a wheel, install it in a fresh venv, use it from outside the repo."""
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_installs_with_data(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)], check=True, timeout=600)
    (wheel,) = wheels.glob("semisel-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", f"{wheel}[bn]"], check=True, timeout=900)
    code = ("from semisel.datasets import discretize, list_datasets, load_dataset; from semisel.networks import load_network; import semisel.infotheory as it;"
            "names = list_datasets(); X, y = load_dataset('krvskp'); assert X.shape == (3196, 36), X.shape;"
            "assert len(load_network('asia').nodes()) == 8;"
            "print(len(names), it.mutual_info(discretize(X.iloc[:, 0]), y))")
    out = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.split()[0]) >= 6
    cli = subprocess.run([str(env_dir / "bin" / "semisel"), "mi", "spambase", "--top", "5"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert cli.returncode == 0 and "word_freq" in cli.stdout, cli.stderr
    main_job = subprocess.run([str(env_dir / "bin" / "semisel"), "rank", "spambase", "--mcar", "0.25", "-k", "3"],
                              capture_output=True, text=True, cwd=tmp_path, timeout=300)   # the README's main job
    assert main_job.returncode == 0 and "# method: labelled" in main_job.stdout, main_job.stderr
    assert "# surrogate: D_L" in main_job.stdout and "--prior is ignored" not in main_job.stderr
    home = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | {"HOME": str(tmp_path / "home"),
                                                                               "XDG_CACHE_HOME": str(tmp_path / "cache")}
    blanket = subprocess.run([str(env_dir / "bin" / "semisel"), "mb", "asia", "--target", "bronc", "--rows", "1000"],
                             capture_output=True, text=True, cwd=tmp_path, timeout=300, env=home)
    assert blanket.returncode == 0, blanket.stderr
    site = next((env_dir / "lib").glob("python*/site-packages/semisel"))
    assert not list(site.rglob("*.nb[ic]")), "compiled code was cached beside the installed package"      # issue 42
    assert list((tmp_path / "cache" / "semisel").rglob("*.nbi")), "the kernels were not cached in the user's cache folder"


def test_both_install_paths_in_one_venv(tmp_path):
    """The README's two install paths, one after the other in one venv (issue 43.1): `pip install .`, a blanket run
    (its kernels compiled, with NUMBA_CACHE_DIR pointing at site-packages, where numba would put them inside the
    package), then `pip install -e .`: nothing appeared in the installed package folder, and `semisel --version` works
    from the editable install. A file left in that folder is what breaks it, as the last check shows.
    Fast: the venv borrows this interpreter's packages (a .pth line) and pip neither resolves nor builds in isolation."""
    try: import setuptools  # noqa: F401  (building without isolation needs it here)
    except ImportError: pytest.skip("setuptools is not installed in this interpreter")
    src = tmp_path / "src"                                     # a copy of what pip builds from (it builds in place)
    shutil.copytree(ROOT / "semisel", src / "semisel", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("setup.py", "settings.ini", "README.md"): shutil.copy(ROOT / name, src / name)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    py, bin_ = env_dir / "bin" / "python", env_dir / "bin"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "_borrowed.pth").write_text("\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n")
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", "--no-build-isolation"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")} | {
        "HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": str(site),
        "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    run = lambda *cmd: subprocess.run(list(map(str, cmd)), capture_output=True, text=True, cwd=tmp_path, env=env,
                                      timeout=600)

    out = run(*pip, src)                                       # pip install .
    assert out.returncode == 0, out.stderr
    package = site / "semisel"
    installed = {p for p in package.rglob("*")}
    mb = run(bin_ / "semisel", "mb", "alarm", "--target", "STROKEVOLUME", "--pu", "0.3")
    assert mb.returncode == 0 and "HYPOVOLEMIA" in mb.stdout, mb.stderr
    assert {p for p in package.rglob("*")} == installed, "files written inside the installed package"
    assert list((tmp_path / "cache" / "semisel").rglob("*.nbi")), "the kernels were not cached in the user's folder"

    out = run(*pip, "--use-pep517", "-e", src)                 # pip install -e . (PEP 660: an import hook, not a path)
    assert out.returncode == 0, out.stderr
    assert not package.exists(), f"pip left {sorted(map(str, package.rglob('*')))}"
    version = run(bin_ / "semisel", "--version")
    assert version.returncode == 0 and version.stdout.startswith("semisel "), version.stderr
    where = run(py, "-c", "import semisel; print(semisel.__file__)")
    assert where.stdout.strip() == str(src / "semisel" / "__init__.py"), where.stdout + where.stderr

    (package / "__pycache__").mkdir(parents=True)              # the control: a cache file left by an older semisel
    (package / "__pycache__" / "core.tally-1.py311.nbi").write_bytes(b"")
    hidden = run(bin_ / "semisel", "--version")
    assert hidden.returncode != 0 and "AttributeError" in hidden.stderr, (hidden.stdout, hidden.stderr)
