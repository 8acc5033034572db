"""Finds the package's compiled part, tetherbench._core.

Installed (PREFIX/lib/python3/dist-packages/tetherbench/) or on PYTHONPATH from a build tree
(BUILD/python/tetherbench/), it sits beside this file. In a source checkout it is in the build
folder instead: TETHERBENCH_BUILD_DIR if set, else the checkout's build/ (where the README's
commands build), whose python/tetherbench/ joins this package's path.
"""

import importlib
import os

import tetherbench as _package


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    builds = []
    if os.environ.get("TETHERBENCH_BUILD_DIR"):
        builds.append(os.environ["TETHERBENCH_BUILD_DIR"])
    builds.append(os.path.join(os.path.dirname(here), "build"))
    return [os.path.join(b, "python", "tetherbench") for b in builds]


def _has_core(folder):
    try:
        return any(name.startswith("_core") and name.endswith(".so") for name in os.listdir(folder))
    except OSError:
        return False


def _load():
    try:
        return importlib.import_module("tetherbench._core")
    except ImportError:
        pass
    looked = _candidates()
    for folder in looked:
        if _has_core(folder):
            _package.__path__.append(folder)
            return importlib.import_module("tetherbench._core")
    raise ImportError(
        "tetherbench's compiled part (_core) is not built: looked beside "
        + os.path.dirname(os.path.abspath(__file__))
        + " and in "
        + ", ".join(looked)
        + "; build it with `bash scripts/build.sh` (or either README command), or set TETHERBENCH_BUILD_DIR"
    )


core = _load()
