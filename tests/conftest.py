"""Shared pytest configuration: the `slow` mark (installs, full-scale runs) is run by CI and can be skipped with -m 'not slow'."""
import os

os.environ.setdefault("MPLBACKEND", "Agg")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes tens of seconds (wheel builds, fresh venvs); CI runs it")
