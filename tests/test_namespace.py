"""The top-level namespace (issue 24): every advertised name resolves to its chapter's object, lazily, so that
`import semisel` loads no scientific library."""
import subprocess
import sys

import pytest

import semisel


def test_import_is_light():
    code = ("import sys, semisel; heavy = [m for m in ('sklearn', 'scipy', 'pandas', 'numpy', 'semisel.core') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


@pytest.mark.parametrize("name", semisel.__all__)
def test_every_name_resolves(name):
    import importlib
    obj = getattr(semisel, name)
    module = importlib.import_module(f"semisel.{semisel._WHERE[name]}")
    assert obj is getattr(module, name) and name in dir(semisel)


def test_core_estimators_and_unknown_name():
    from semisel import (FSCPU, MINT, CBoundWrapper, SemiIAMB, SemiJMI, SemiMIM, ci_test_all, discretize,  # noqa: F401
                         load_dataset, markov_blanket)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        semisel.nope
