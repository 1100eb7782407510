"""`pip install .` gives a working package with its data: build a wheel, install it in a fresh venv, use it from outside the repo."""
import os
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
