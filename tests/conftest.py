"""Shared pytest configuration: the `slow` mark (installs, full-scale runs) is run by CI and can be skipped with -m 'not slow'."""
import os

os.environ.setdefault("MPLBACKEND", "Agg")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes tens of seconds (wheel builds, fresh venvs); CI runs it")


def pytest_collection_modifyitems(config, items):
    """Make the xfail marks of scikit-learn's estimator checks strict.

    `parametrize_with_checks(..., expected_failed_checks=...)` marks each listed check `xfail` (non-strict), so a listed
    check that passes would only be reported as XPASS. Strict marks turn that into a failure: every expected failure
    listed in a check suite must really fail."""
    import pytest
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if not {"estimator", "check"} <= params.keys():
            continue
        for i, mark in enumerate(item.own_markers):
            if mark.name == "xfail" and not mark.kwargs.get("strict", False):
                item.own_markers[i] = pytest.mark.xfail(*mark.args, **{**mark.kwargs, "strict": True}).mark
