#!/usr/bin/env python3
"""What prototyping in Python costs: the classical RK4 written in Python (four form.rhs calls and
the NumPy arithmetic of the stages per step) against the compiled rk4 -- the same method, the same
model equations, the same runner and clock -- on Model C (one multirotor and its payload on a cable
of N links, seed 003 §5.1) at N = 10 and N = 200. Both are run in the same process, one after the
other, so the ratio is what to read (the machine is shared and noisy); runtime is the suite's
runtime_s (the step loops only, the minimum over the timing passes).

    /usr/bin/python3 examples/python/step_cost.py [--links 10 200] [--steps 2000] [--repeats 3]
"""

import argparse
import os
import sys

try:
    import tetherbench as tb
except ImportError:  # run from a checkout without PYTHONPATH: the package is at the repository's root
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    import tetherbench as tb


def rk4_python(form, t, y, h):
    k1 = form.rhs(t, y)
    k2 = form.rhs(t + h / 2, y + h / 2 * k1)
    k3 = form.rhs(t + h / 2, y + h / 2 * k2)
    k4 = form.rhs(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def case_with_links(links, h, steps):
    """C_single_multirotor with N links, at step h over `steps` steps (the cable's mass and length
    kept), changed from Python: each change is checked as the case file's key is."""
    case = tb.load_case(tb.bundled_case("C_single_multirotor"))
    case.parameters["links_per_cable"] = links
    case.parameters["link_mass"] = 0.05 / links  # 0.05 kg of cable in all
    case.h = h
    case.t_end = h * steps
    case.sample_interval = h * steps / 10
    return case


def measure(links_list, steps, repeats):
    tb.register_integrator("py_rk4", rk4_python, consumes="ode", order=4, summary="classical RK4 written in Python")
    rows = []
    for links in links_list:
        # The cable's fastest (zigzag) mode grows like N^2 (14 N^2 rad/s with 0.05 kg of cable,
        # benchmarks/benchmark_models.cpp): h w_max = 0.3, never above the case's own 1 ms.
        h = min(1e-3, 0.3 / (14.0 * links**2))
        case = case_with_links(links, h, steps)
        res = tb.run(case, integrators=["rk4", "py_rk4"], t_end=case.t_end, repeats=repeats)
        s = res.summary.set_index("integrator")
        for name in ("rk4", "py_rk4"):
            assert s.loc[name, "status"] == "ok", s.loc[name, "status"]
        per_step = {name: s.loc[name, "runtime_s"] / s.loc[name, "steps"] for name in ("rk4", "py_rk4")}
        rows.append({
            "links": links, "h": h, "steps": int(s.loc["rk4", "steps"]),
            "compiled_us": 1e6 * per_step["rk4"], "python_us": 1e6 * per_step["py_rk4"],
            "ratio": per_step["py_rk4"] / per_step["rk4"],
            "energy_err_compiled": s.loc["rk4", "energy_err_max"], "energy_err_python": s.loc["py_rk4", "energy_err_max"],
            "case": case.name,
        })
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--links", type=int, nargs="+", default=[10, 200])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = measure(args.links, args.steps, args.repeats)
    print("RK4 per step on Model C (one multirotor, N links), the same method compiled and in Python:")
    print("%6s %9s %7s %14s %12s %8s %22s" % ("N", "h (s)", "steps", "compiled (us)", "python (us)", "ratio",
                                              "max dE compiled/python"))
    for r in rows:
        print("%6d %9.2g %7d %14.3g %12.3g %8.1f %11.3g/%-10.3g" % (r["links"], r["h"], r["steps"], r["compiled_us"],
                                                                 r["python_us"], r["ratio"], r["energy_err_compiled"],
                                                                 r["energy_err_python"]))


if __name__ == "__main__":
    main()
