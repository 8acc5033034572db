#!/usr/bin/env python3
"""Model C from Python: a multirotor carrying a payload on a 10-link cable (seed 003 §5.1, the
bundled case C_single_multirotor), run with the LGVI, the classical RK4 and a method written here
in Python -- RK4 followed by the form's projection onto the manifold its embedded coordinates carry
(R^T R = I, |q_i| = 1, q_i . omega_i = 0) -- all measured by the suite's one runner. It prints the
summary rows and plots the energy error and the linear momentum P from the DataFrames.

    /usr/bin/python3 examples/python/compare.py [--t-end 20] [--out results/python_compare]

From the repository it finds the package by itself (tetherbench/ at the root and the build/ the
README's commands make); against an installation, set PYTHONPATH=PREFIX/lib/python3/dist-packages.
"""

import argparse
import os
import sys

try:
    import tetherbench as tb
except ImportError:  # run from a checkout without PYTHONPATH: the package is at the repository's root
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    import tetherbench as tb

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def rk4_projected(form, t, y, h):
    """One classical RK4 step on the embedded ODE, then the nearest state on the manifold."""
    k1 = form.rhs(t, y)
    k2 = form.rhs(t + h / 2, y + h / 2 * k1)
    k3 = form.rhs(t + h / 2, y + h / 2 * k2)
    k4 = form.rhs(t + h, y + h * k3)
    y_next = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    _, y_next = form.project(y_next)
    return y_next


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--t-end", type=float, default=20.0, help="seconds simulated (the case's own horizon is 1000 s)")
    parser.add_argument("--out", default=os.path.join("results", "python_compare"), help="folder for the figure and the runs' files")
    args = parser.parse_args()

    tb.register_integrator("py_rk4_projected", rk4_projected, consumes="ode", order=4,
                           summary="classical RK4 on the embedded ODE, then the form's projection (Python)")
    case = tb.load_case(tb.bundled_case("C_single_multirotor"))
    res = tb.run(case, integrators=["lgvi", "rk4", "py_rk4_projected"], t_end=args.t_end)
    res.write(args.out)

    columns = ["integrator", "steps", "energy_err_max", "linear_momentum_err_max", "constraint_err_max",
               "runtime_s", "runtime_code", "status"]
    print("%s, %g s at h = %g s (tetherbench %s)" % (case.name, args.t_end, case.h, tb.__version__))
    print(res.summary[columns].to_string(index=False))

    fig, (energy, momentum) = plt.subplots(2, 1, figsize=(7.5, 6.5), sharex=True)
    for label in res.labels:
        ts = res.timeseries(label)
        e = ts.energy - ts.energy.iloc[0] - ts.external_work  # the energy balance the summary's energy_err measures
        p = np.sqrt((ts.P_x - ts.P_x.iloc[0]) ** 2 + (ts.P_y - ts.P_y.iloc[0]) ** 2 + (ts.P_z - ts.P_z.iloc[0]) ** 2)
        energy.semilogy(ts.t[1:], np.abs(e[1:]) + 1e-17, label=label)
        momentum.semilogy(ts.t[1:], p[1:] + 1e-17, label=label)
    energy.set_ylabel("|E − E₀ − W| (J)")
    momentum.set_ylabel("|P − P₀| (N s)")
    momentum.set_xlabel("t (s)")
    energy.set_title("%s: energy and linear momentum errors (1e-17 added to plot exact zeros)" % case.name, fontsize=9)
    energy.legend(fontsize=8)
    fig.tight_layout()
    figure = os.path.join(args.out, "compare.png")
    fig.savefig(figure, dpi=120)
    print("wrote", figure, "and", os.path.join(args.out, "summary.csv"))


if __name__ == "__main__":
    main()
