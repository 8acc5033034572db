"""Shared fixtures of the Python package's tests (ctest `python_package` runs them from the
repository's root with /usr/bin/python3 -m pytest, without PYTHONPATH: the package in tetherbench/
finds this build's compiled part by itself).

The files run in the order of their numbers: test_1_* read the session as it starts (the built-in
catalogue, as the command line has it); the later ones add plugins and Python integrators to it,
each in its own tests or fixtures."""

import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("TETHERBENCH_BUILD_DIR", os.path.join(ROOT, "build"))


@pytest.fixture(scope="session")
def cli():
    """Runs the command line `tetherbench` of the same build: (exit status, stdout, stderr)."""
    binary = os.environ.get("TETHERBENCH_BINARY", os.path.join(BUILD, "tetherbench"))

    def call(*args):
        done = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, timeout=600)
        return done.returncode, done.stdout, done.stderr

    return call


@pytest.fixture(scope="session")
def test_plugins():
    """The plugins the build compiles for its own tests (BUILD/test_plugins)."""
    return os.path.join(BUILD, "test_plugins")
