"""tetherbench from Python: run the suite's cases, get pandas DataFrames, and prototype an integrator
in Python that is measured like the built-in ones.

    import tetherbench as tb
    case = tb.load_case(tb.bundled_case("T_planar_pendulum_60deg"))
    res = tb.run(case, integrators=["rk4", "rattle"], t_end=1.0)
    res.summary                      # the rows of summary.csv
    res.timeseries("rk4")            # the columns of timeseries.csv

    def euler(form, t, y, h):
        return y + h * form.rhs(t, y)
    tb.register_integrator("py_euler", euler, consumes="ode", order=1)

Everything runs in the suite's compiled kernel, through the same runner, metrics, instability
criterion and studies as the command line `tetherbench` (python/README.md).
"""

from ._compiled import core as _core
from .api import (
    Case,
    RunResult,
    bundled_case,
    check_integrator,
    data_dir,
    gate,
    integrator_info,
    integrators,
    load_case,
    load_plugin,
    models,
    register_integrator,
    run,
    studies,
    study,
    study_info,
    table,
)

__version__ = _core.version()
kernel_version = _core.kernel_version()

__all__ = [
    "Case",
    "RunResult",
    "__version__",
    "bundled_case",
    "check_integrator",
    "data_dir",
    "gate",
    "integrator_info",
    "integrators",
    "kernel_version",
    "load_case",
    "load_plugin",
    "models",
    "register_integrator",
    "run",
    "studies",
    "study",
    "study_info",
    "table",
]
