"""nbdev 2 style setup: every setting lives in settings.ini; edit there, not here."""
import shlex
from configparser import ConfigParser

import setuptools

config = ConfigParser(delimiters=["="])
config.read("settings.ini", encoding="utf-8")
cfg = config["DEFAULT"]

expected = ("version description keywords author author_email lib_name user branch "
            "license status min_python audience language").split()
for key in expected: assert key in cfg, f"settings.ini is missing `{key}`"

licenses = {"apache2": "Apache-2.0"}  # settings.ini name -> SPDX expression
statuses = ["0 - Pre-Planning", "1 - Planning", "2 - Pre-Alpha", "3 - Alpha",
            "4 - Beta", "5 - Production/Stable", "6 - Mature", "7 - Inactive"]
py_versions = "3.11 3.12 3.13".split()
lic = licenses.get(cfg["license"].lower(), cfg["license"])

def reqs(key): return shlex.split(cfg.get(key, ""))

# every `<name>_requirements` key is an extra; `dev` includes all the others
extras = {k[:-len("_requirements")]: reqs(k) for k in cfg
          if k.endswith("_requirements") and k not in ("pip_requirements", "conda_requirements")}
extras["dev"] = sorted({r for reqs_ in extras.values() for r in reqs_})

setuptools.setup(
    name=cfg["lib_name"],
    version=cfg["version"],
    description=cfg["description"],
    keywords=cfg["keywords"],
    author=cfg["author"],
    author_email=cfg["author_email"],
    license=lic,
    classifiers=["Development Status :: " + statuses[int(cfg["status"])],
                 "Intended Audience :: " + cfg["audience"].title(),
                 "Natural Language :: " + cfg["language"].title()]
                + ["Programming Language :: Python :: " + v for v in py_versions[py_versions.index(cfg["min_python"]):]],
    url=cfg["git_url"],
    packages=setuptools.find_packages(include=[cfg["lib_name"], cfg["lib_name"] + ".*"]),
    include_package_data=True,
    package_data={cfg["lib_name"]: cfg.get("package_data", "").split()},
    install_requires=reqs("requirements"),
    extras_require=extras,
    python_requires=">=" + cfg["min_python"],
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    zip_safe=False,
    entry_points={"console_scripts": cfg.get("console_scripts", "").split(),
                  "nbdev": [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"]},
)
