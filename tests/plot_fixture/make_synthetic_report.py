#!/usr/bin/python3
"""Write a small synthetic tetherbench report directory for exercising plot_report.py.

Usage:  /usr/bin/python3 tests/plot_fixture/make_synthetic_report.py OUT_DIR
        /usr/bin/python3 scripts/plot_report.py OUT_DIR

Two cases x three integrators (names deliberately not the real ones, so nothing in
plot_report.py can depend on them), made-up sine-plus-drift energies, one failed run with a
truncated time series, one n/a row, an energy_balance column in the forced case, a non-zero
constraint error, a work-precision sweep with a failed point, a Baumgarte sweep with p = 0 and a
failed run, orders, paper comparison rows
(one for a case that was not run) and a benchmarks.md.  The numbers mean nothing.
"""

import csv
import math
import os
import sys

import numpy as np

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/synthrep"
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(1)

HDR = ("case,integrator,h,rtol,atol,t_end,steps,energy_err_max,energy_err_mean,energy_err_rel_ke,"
       "energy_drift_rate,momentum_err_max,momentum_err_mean,constraint_err_max,"
       "orthogonality_err_max,orthogonality_err_mean,shared_t_end,energy_err_max_shared,momentum_err_max_shared,"
       "energy_growth_law,energy_growth_verdict,momentum_growth_law,momentum_growth_verdict,"
       "runtime_s,rhs_evals,newton_iters,status,not_integrated"
       ).split(",")

with open(os.path.join(out, "build_info.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["key", "value"])
    for kv in [("version", "0.0.0-synthetic"), ("compiler", "GCC 12.2.0"),
               ("flags", "-O2 -march=x86-64 | pipe test"), ("build_type", "Release"),
               ("date", "2024-01-01T00:00:00Z"),
               ("command", "tetherbench report --out /tmp/synthrep")]:
        w.writerow(kv)

cases = {
    # case: (t_end, forced?, {integ: (drift, amp, orth_growth, status)})
    "X_demo_conservative": (10.0, False, {
        "alpha": (0.0, 3e-5, 0.0, "ok"),
        "beta": (-1e-6, 5e-6, 1e-12, "ok"),
        "gamma": (0.0, 4e-11, 1e-14, "ok"),
        # completed, ok, drifting within the physical scale: its numbers are results, its legend
        # says "drift from t = ...", never "failed"
        "delta": (3e-5, 1e-6, 0.0, "ok; drift from t = 4.2 s (step 4200): |E − E0 − W| passed 0.01 × E_s = "
                                   "0.0003 J (max 0.0003 J)"),
        # completed past the criterion: "unstable from t = onset", no numbers quoted
        "epsilon": (1e-3, 1e-6, 0.0, "unstable from t = 3.5 s (step 3500): energy gain 0.102 × E_s > 0.1 "
                                     "(E_s = 0.03 J, max KE over the start-up; max 0.33 × E_s at t = 10 s), at h = 0.001")}),
    "Y_demo_forced": (20.0, True, {
        "alpha": (0.0, 1e-4, 0.0, "ok"),
        "beta": (5e-4, 1e-4, 1e-11, "failed: Newton did not converge at t = 12.5, step 125000"),
        "gamma": (None, None, None, "n/a: formulation not offered by this model")}),
}

rows = []
for case, (t_end, forced, integs) in cases.items():
    for name, (drift, amp, og, status) in integs.items():
        row = dict.fromkeys(HDR, "n/a")
        row.update(case=case, integrator=name, h="0.001", rtol="", atol="", t_end=str(t_end),
                   status=status)
        if status.startswith("n/a"):
            rows.append(row)
            continue
        t = np.linspace(0, t_end, 2001)
        if status.startswith("failed"):
            t = t[t <= 12.5]
        E0 = -0.0345
        de = amp * np.sin(2 * math.pi * 0.7 * t) ** 2 + drift * t
        de[0] = 0.0
        energy = E0 + de + (0.3 * t if forced else 0)  # forced: energy itself not conserved
        kin = 0.015 * (1 + np.cos(t))
        mom = 0.0209 + (1e-13 if name != "beta" else 1e-12) * t * rng.standard_normal(len(t))
        mom[0] = 0.0209
        orth = np.abs(og * t + 1e-16 * rng.random(len(t)) * (name != "alpha"))
        orth[0] = 0.0
        # Only Y's beta integrates a constraint; the others' forms have none (the C++ side
        # leaves their constraint cells empty and names the metrics in not_integrated).
        constrained = forced and name == "beta"
        cons = 1e-9 * t if constrained else np.full_like(t, np.nan)
        cols = {"t": t, "energy": energy, "kinetic": kin, "momentum": mom,
                "constraint_err": cons, "orthogonality_err": orth}
        if forced:  # the work done on the system: E - W is the energy-balance residual's
            cols["external_work"] = 0.3 * t
        cols["x"] = np.cos(t)
        cols["y"] = np.sin(t)
        d = os.path.join(out, case, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "timeseries.csv"), "w") as f:
            f.write(",".join(cols) + "\n")
            for i in range(len(t)):
                f.write(",".join("" if math.isnan(c[i]) else repr(float(c[i])) for c in cols.values()) + "\n")
            if status.startswith("failed"):
                f.write("12.51,-0.03")  # truncated last line, as after a crash
        ref = energy - cols["external_work"] if forced else energy
        dd = ref - ref[0]
        row.update(steps=str(len(t) * 10), energy_err_max=f"{np.abs(dd).max():.6g}",
                   energy_err_mean=f"{np.abs(dd).mean():.6g}",
                   energy_err_rel_ke=f"{np.abs(dd).max() / kin.max():.6g}",
                   energy_drift_rate=f"{np.polyfit(t, dd, 1)[0]:.6g}",
                   momentum_err_max=f"{np.abs(mom - mom[0]).max():.6g}",
                   momentum_err_mean=f"{np.abs(mom - mom[0]).mean():.6g}",
                   constraint_err_max=f"{cons.max():.6g}" if constrained else "",
                   not_integrated="" if constrained else "constraint_err_max constraint_rate_err_max",
                   orthogonality_err_max=f"{orth.max():.6g}",
                   orthogonality_err_mean=f"{orth.mean():.6g}",
                   shared_t_end=str(t_end), energy_err_max_shared=f"{np.abs(dd).max():.6g}",
                   momentum_err_max_shared=f"{np.abs(mom - mom[0]).max():.6g}",
                   # the C++ classifier's words (core/growth.hpp describe_growth), quoted by the script
                   energy_growth_law="bounded" if name != "beta" else "linear",
                   energy_growth_verdict=("bounded (p in [-0.02, 0.03] over 1 s - 10 s)" if name != "beta" else
                                          "grows linearly (p in [0.98, 1.02] over 1 s - 10 s); investigate: theory "
                                          "predicts bounded (symplectic)"),
                   momentum_growth_law="round_off",
                   momentum_growth_verdict="at round-off (max 1e-13 < 10 x the Brouwer floor 2e-12)",
                   runtime_s="0.5", rhs_evals="40000", newton_iters="0")
        if name == "gamma":
            row.update(rtol="1e-10", atol="1e-12")
        rows.append(row)


def write_rows(path, header, rs):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(rs)


write_rows(os.path.join(out, "summary.csv"), HDR, rows)
for case in cases:
    write_rows(os.path.join(out, case, "summary.csv"), HDR, [r for r in rows if r["case"] == case])
    with open(os.path.join(out, case, "summary.md"), "w") as f:
        f.write(f"# {case}\n\n(synthetic)\n")

wp = []
for case in cases:
    for name, order, cost in (("alpha", 2, 1.0), ("beta", 4, 1.3)):
        for h in (1e-2, 5e-3, 2e-3, 1e-3, 5e-4):
            err = 3.0 * h ** order
            failed = case == "Y_demo_forced" and name == "beta" and h == 1e-2
            wp.append(dict(case=case, integrator=name, parameter="h", value=f"{h:g}",
                           error="0" if failed else f"{err:.6g}",
                           runtime_s=f"{cost * 1e-3 / h:.6g}", steps=str(int(10 / h)),
                           rhs_evals=str(int(40 / h)),
                           status="failed: state became non-finite at t = 1.2 s, step 120"
                           if failed else "ok"))
            # trajectory norms: beta's rates lose an order (h^(order-1)), so ranking by rate error
            # at matched error differs from the final-state one
            rate = 3.0 * h ** (order - 1 if name == "beta" else order) * (1e4 if name == "beta" else 1)
            for m, v in (("l2_configuration", 0.5 * err), ("linf_configuration", err),
                         ("l2_rate", 0.5 * rate), ("linf_rate", rate)):
                wp[-1][m] = "" if failed else f"{v:.6g}"
                wp[-1]["resolved_" + m] = "" if failed else "yes"
    if case == "X_demo_conservative":
        for rtol in (1e-4, 1e-6, 1e-8, 1e-10):
            wp.append(dict(case=case, integrator="gamma", parameter="rtol", value=f"{rtol:g}",
                           error=f"{5 * rtol:.6g}", runtime_s=f"{0.02 * rtol ** -0.2:.6g}",
                           steps="0", rhs_evals="0", status="ok"))
write_rows(os.path.join(out, "work_precision.csv"),
           ("case,integrator,parameter,value,error,runtime_s,steps,rhs_evals,l2_configuration,resolved_l2_configuration,"
            "linf_configuration,resolved_linf_configuration,l2_rate,resolved_l2_rate,linf_rate,resolved_linf_rate,"
            "status").split(","), wp)

write_rows(os.path.join(out, "work_precision_rankings.csv"),
           "case,discretisation,work,measure,horizon_s,matched_error,ranking,work_of_each,spread_of_each,order_flags,note"
           .split(","),
           [dict(case="X_demo_conservative", discretisation="", work="runtime", measure="scaled_l2", horizon_s="1",
                 matched_error="3e-06", ranking="beta = alpha", work_of_each="0.12 0.125", spread_of_each="0.05 0.08",
                 order_flags="", note="")])

write_rows(os.path.join(out, "orders.csv"),
           "case,integrator,declared_order,measured_order,h_min,h_max,error_min,error_max".split(","),
           [dict(case=c, integrator=n, declared_order=str(o), measured_order=f"{o + 0.02:.3f}",
                 h_min="0.0005", h_max="0.01", error_min=f"{3 * 5e-4 ** o:.3g}",
                 error_max=f"{3 * 1e-2 ** o:.3g}")
            for c in cases for n, o in (("alpha", 2), ("beta", 4))])

write_rows(os.path.join(out, "paper_comparison.csv"),
           ("id,source,case,integrator,kind,claim,metric,paper,ours,ratio,tolerance,tolerance_why,verdict,"
            "direction_size,cause,cause_status,status").split(","),
           [dict(id="000-energy", source="seed 000 Table 1", case="X_demo_conservative", integrator="alpha",
                 kind="value", claim="mean |dE| = 2e-6", metric="energy_err_mean", paper="2e-06", ours="1.9e-06",
                 ratio="0.95", tolerance="x2", tolerance_why="a printed value", verdict="agrees",
                 direction_size="ours/paper = 0.95, within x2", cause="", cause_status="", status="ok"),
            dict(id="003-momentum", source="seed 003 Fig. 5", case="Z_not_run", integrator="beta",
                 kind="conserved", claim="kept | see notes", metric="momentum_err_max", paper="conserved", ours="",
                 ratio="", tolerance="x10", tolerance_why="round-off", verdict="inconclusive",
                 direction_size="no result: failed: non-finite state at t = 1 s, step 10", cause="", cause_status="",
                 status="failed: non-finite state at t = 1 s, step 10")])

# A setting sweep (ida's Baumgarte rate) for one case: p = 0 included (symlog axis), one failed run, one zero drift.
write_rows(os.path.join(out, "setting_sweep.csv"),
           ("case,integrator,setting,value,t_end,constraint_err_max,constraint_rate_err_max,energy_err_max,"
            "orthogonality_err_max,steps,"
            "rhs_evals,newton_iters,error_test_failures,runtime_s,status").split(","),
           [dict(case="X_demo_conservative", integrator="ida", setting="baumgarte_p", value=f"{p:g}", t_end="10",
                 constraint_err_max=f"{c:.6g}",
                 constraint_rate_err_max=f"{10 * c:.6g}", energy_err_max=f"{1e-6 + c:.6g}", orthogonality_err_max="0",
                 steps=str(n), rhs_evals=str(2 * n), newton_iters=str(2 * n),
                 error_test_failures=str(n // 50), runtime_s=f"{1e-5 * n:.6g}",
                 status="failed: IDASolve failed with IDA_CONV_FAIL at t = 3 s, step 900" if p == 3000 else "ok")
            for p, c, n in ((0, 1e-5, 1800), (1, 2e-7, 1830), (10, 2e-8, 1860), (100, 0.0, 2060),
                            (1000, 1e-7, 16000), (3000, 0.0, 900))])

# A stability map: one sweep with a point at the cap (left out of the fit) and one run with a
# fit, one without (fewer than two bracketed points).
write_rows(os.path.join(out, "stability_map.csv"),
           "case,run,swept,value,h_case,t_horizon,h_max,bound,h_fail,precision,fail_reason,probes".split(","),
           [dict(case="X_demo_conservative", run=run, swept="", value="", h_case="0.001", t_horizon="2",
                 h_max="0.004", bound="bracketed", h_fail="0.0042", precision="0.05", fail_reason="energy gain",
                 probes="7") for run in ("alpha", "beta")] +
           [dict(case="X_demo_conservative", run="alpha", swept="elements", value=str(n), h_case="0.001",
                 t_horizon="2", h_max=f"{0.08 / n:.6g}", bound="bracketed", h_fail=f"{0.084 / n:.6g}",
                 precision="0.05", fail_reason="non-finite state", probes="8") for n in (10, 20, 40)] +
           [dict(case="X_demo_conservative", run="beta", swept="elements", value=str(n), h_case="0.001",
                 t_horizon="2", h_max="0.2", bound=">= cap" if n > 10 else "bracketed", h_fail="",
                 precision="0.05", fail_reason="", probes="9") for n in (10, 20, 40)])
write_rows(os.path.join(out, "stability_exponents.csv"),
           "case,swept,run,points,p,se,ci95_low,ci95_high,note".split(","),
           [dict(case="X_demo_conservative", swept="elements", run="alpha", points="3", p="-1.0", se="0.001",
                 ci95_low="-1.013", ci95_high="-0.987", note=""),
            dict(case="X_demo_conservative", swept="elements", run="beta", points="1", p="", se="", ci95_low="",
                 ci95_high="", note="no fit: fewer than two bracketed points")])

with open(os.path.join(out, "benchmarks.md"), "w") as f:
    f.write("# benchmarks (synthetic)\n")
print(f"synthetic report in {out}")
