#!/usr/bin/python3
"""Summarise the per-step cost benchmarks (benchmarks/bench_step_cost.cpp).

    summarise_benchmarks.py BENCH_JSON OUT_DIR
    summarise_benchmarks.py --merge BENCH_JSON PART_JSON...   (the parts measured one integrator at a time)

BENCH_JSON is Google Benchmark's output (--benchmark_out=FILE --benchmark_out_format=json).
Writes into OUT_DIR:

  benchmarks.csv   benchmark,model,integrator,N,size,ns_per_step,rhs_evals_per_step,newton_iters_per_step
                   (size: what N counts in the model, with its unit, as the benchmark binary
                   declares it; mass_solve rows: empty model, integrator "mass_solve", empty counters)
  benchmarks.md    per-step cost at N = 20, 200, 2000; fitted exponent p of cost ~ N^p (N >= 50);
                   LGVI/RK4 cost ratios; machine and date
The figure of these costs (figures/benchmarks_scaling.png) is planned by the C++
(app/writing/figure_plan.cpp, one panel per model and integrator family) and drawn by plot_report.py
from benchmarks.csv.

Times are cpu_time throughout, converted to ns through each entry's time_unit. Standard library
only. When the JSON holds repetitions, the median over them is used.
"""

import csv
import json
import math
import os
import statistics
import sys

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
TABLE_N = (20, 200, 2000)
FIT_MIN_N = 50
LINEAR_TOLERANCE = 0.15  # |p - 1| above this is flagged as not O(N)


def parse_name(name):
    """(model, integrator, N) from step/<model>/<integrator>/N:<N> or mass_solve/N:<N>."""
    parts = name.split("/")
    if not parts[-1].startswith("N:"):
        return None
    try:
        n = int(parts[-1][2:])
    except ValueError:
        return None
    if parts[0] == "step" and len(parts) == 4:
        return parts[1], parts[2], n
    if parts[0] == "mass_solve" and len(parts) == 2:
        return "", "mass_solve", n
    return None


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    runs, errors = {}, {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("run_type", "iteration") != "iteration":
            continue  # aggregates are recomputed below from the repetitions
        if b.get("error_occurred"):
            errors[name] = b.get("error_message", "error")
            continue
        parsed = parse_name(name)
        if parsed is None:
            continue
        runs.setdefault(name, {"parsed": parsed, "entries": []})["entries"].append(b)
    context = data.get("context", {})
    rows = []
    for name, r in runs.items():
        model, integrator, n = r["parsed"]
        entries = r["entries"]
        ns = statistics.median(e["cpu_time"] * TO_NS[e.get("time_unit", "ns")] for e in entries)

        def counter(key):
            vals = [e[key] for e in entries if key in e]
            return statistics.median(vals) if vals else None

        rows.append({
            "benchmark": name,
            "model": model,
            "integrator": integrator,
            "N": n,
            # what N counts, declared by the benchmark binary per model (empty from an older binary)
            "size": context.get("size_of_" + (model or "mass_solve"), ""),
            "ns_per_step": ns,
            "rhs_evals_per_step": None if integrator == "mass_solve" else counter("rhs_evals"),
            "newton_iters_per_step": None if integrator == "mass_solve" else counter("newton_iters"),
        })
    rows.sort(key=lambda r: (r["integrator"] == "mass_solve", r["model"], r["integrator"], r["N"]))
    return context, rows, errors


def fit_exponent(points):
    """Least-squares slope of log(cost) on log(N)."""
    pts = [(math.log(n), math.log(c)) for n, c in points if c > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in pts) / sxx


def fmt_time(ns):
    if ns is None:
        return "—"
    if ns >= 1e6:
        return f"{ns / 1e6:.3g} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3g} µs"
    return f"{ns:.3g} ns"


def fmt(x, digits=3):
    return "—" if x is None else f"{x:.{digits}g}"


def series_key(r):
    return (r["model"], r["integrator"])


def write_csv(rows, path):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["benchmark", "model", "integrator", "N", "size", "ns_per_step", "rhs_evals_per_step",
                    "newton_iters_per_step"])
        for r in rows:
            w.writerow([r["benchmark"], r["model"], r["integrator"], r["N"], r["size"], f"{r['ns_per_step']:.6g}",
                        "" if r["rhs_evals_per_step"] is None else f"{r['rhs_evals_per_step']:.6g}",
                        "" if r["newton_iters_per_step"] is None else f"{r['newton_iters_per_step']:.6g}"])


def write_markdown(context, rows, errors, series, path):
    models = sorted({r["model"] for r in rows if r["model"]})
    out = ["# Per-step cost of the integrators", ""]
    out.append("Source: Google Benchmark `benchmarks` (benchmarks/bench_step_cost.cpp), CPU time per "
               "iteration; one iteration is one `TimeStepper::step()` (for adaptive methods one "
               "accepted step, rejected trials included) or one mass-matrix factor + solve.")
    out.append("")
    caches = ", ".join(f"L{c['level']} {c['type'].lower()} {c['size'] // 1024} KiB"
                       for c in context.get("caches", []))
    out += [
        "| | |", "|---|---|",
        f"| date | {context.get('date', '?')} |",
        f"| host | {context.get('host_name', '?')} |",
        f"| CPUs | {context.get('num_cpus', '?')} × {context.get('mhz_per_cpu', '?')} MHz"
        f" (scaling {'on' if context.get('cpu_scaling_enabled') else 'off'}) |",
        f"| caches | {caches or '?'} |",
        f"| load average | {', '.join(f'{x:.2f}' for x in context.get('load_avg', [])) or '?'} |",
        f"| executable | `{context.get('executable', '?')}` |",
        f"| Google Benchmark library build | {context.get('library_build_type', '?')} "
        "(the library's own build, not the suite's) |",
    ]
    for key in ("fixed_step_rule", "adaptive_tolerances"):
        if key in context:
            out.append(f"| {key.replace('_', ' ')} | {context[key]} |")
    # The plugins whose integrators were measured, with how each was compiled.
    for key in sorted(k for k in context if k.startswith("plugin ")):
        out.append(f"| {key} | {context[key]} |")
    out.append("")

    by = {(r["model"], r["integrator"], r["N"]): r for r in rows}

    out += [f"## Cost per step at N = {', '.join(map(str, TABLE_N))}", ""]
    out.append("| model | integrator | " + " | ".join(f"N = {n}" for n in TABLE_N) +
               " | RHS evals / step | Newton iters / step |")
    out.append("|---|---|" + "---:|" * len(TABLE_N) + "---:|---:|")
    for key in series:
        model, integrator = key
        cells = [fmt_time(by[(model, integrator, n)]["ns_per_step"]) if (model, integrator, n) in by else "—"
                 for n in TABLE_N]
        counters = [by[(model, integrator, n)] for n in TABLE_N if (model, integrator, n) in by]
        rhs = "/".join(fmt(r["rhs_evals_per_step"]) for r in counters) if integrator != "mass_solve" else "—"
        newton = "/".join(fmt(r["newton_iters_per_step"]) for r in counters) if integrator != "mass_solve" else "—"
        out.append(f"| {model or '—'} | {integrator} | " + " | ".join(cells) + f" | {rhs} | {newton} |")
    out += ["", "(counters given at the same N values, separated by /)", ""]

    out += [f"## Cost per element per right-hand-side evaluation, ns (N = {', '.join(map(str, TABLE_N))})", ""]
    out.append("Cost per step / (RHS or residual evaluations per step × N): flat in N for O(N) linear "
               "algebra, and comparable across methods (an LGVI residual includes its Newton solve).")
    out.append("")
    out.append("| model | integrator | " + " | ".join(f"N = {n}" for n in TABLE_N) + " |")
    out.append("|---|---|" + "---:|" * len(TABLE_N))
    for key in series:
        model, integrator = key
        if integrator == "mass_solve":
            continue
        cells = []
        for n in TABLE_N:
            r = by.get((model, integrator, n))
            evals = r["rhs_evals_per_step"] if r else None
            cells.append(fmt(r["ns_per_step"] / (evals * n)) if r and evals else "—")
        out.append(f"| {model} | {integrator} | " + " | ".join(cells) + " |")
    out.append("")

    out += [f"## Growth with N: cost ∝ N^p (least squares of log cost on log N, N ≥ {FIT_MIN_N})", ""]
    out.append("Every evaluation uses O(N) linear algebra (block-tridiagonal mass or Newton matrix), so the cost "
               "per right-hand-side or residual evaluation must grow like N: p_eval ≈ 1, and "
               f"|p_eval − 1| > {LINEAR_TOLERANCE} is flagged. The cost per step (p) also carries how the "
               "evaluations per step change with N (Newton iterations, an adaptive method's stages and "
               "rejections, per accepted step), which is the method's convergence, not its linear algebra.")
    out.append("")
    out.append("| model | integrator | p (per step) | p_eval (per evaluation) | N range | points | O(N)? |")
    out.append("|---|---|---:|---:|---|---:|---|")
    exponents = {}
    for key in series:
        fitted = [r for r in series[key] if r["N"] >= FIT_MIN_N]
        pts = [(r["N"], r["ns_per_step"]) for r in fitted]
        p = fit_exponent(pts)
        per_eval = [(r["N"], r["ns_per_step"] / r["rhs_evals_per_step"]) for r in fitted
                    if r.get("rhs_evals_per_step")]
        p_eval = fit_exponent(per_eval) if len(per_eval) == len(pts) else None
        exponents[key] = p
        rng = f"{min(n for n, _ in pts)}–{max(n for n, _ in pts)}" if pts else "—"
        judged = p_eval if p_eval is not None else p
        verdict = "—" if judged is None else ("yes" if abs(judged - 1.0) <= LINEAR_TOLERANCE else "**no — check**")
        out.append(f"| {key[0] or '—'} | {key[1]} | {fmt(p, 3)} | {fmt(p_eval, 3)} | {rng} | {len(pts)} | {verdict} |")
    out.append("")

    for model in models:
        lg = {r["N"]: r for r in rows if r["model"] == model and r["integrator"] == "lgvi"}
        rk = {r["N"]: r for r in rows if r["model"] == model and r["integrator"] == "rk4"}
        common = sorted(set(lg) & set(rk))
        if not common:
            continue
        out += [f"## LGVI / RK4 cost ratio ({model})", ""]
        out.append("Per step at the same h, and per RHS-evaluation equivalent (cost per step divided by "
                   "RHS evaluations per step: an LGVI residual + Newton solve against an RK4 stage).")
        out.append("")
        out.append("| N | LGVI / step | RK4 / step | LGVI/RK4 per step | LGVI / residual | RK4 / RHS | "
                   "LGVI/RK4 per RHS eval |")
        out.append("|---:|---:|---:|---:|---:|---:|---:|")
        for n in common:
            a, b = lg[n], rk[n]
            per_step = a["ns_per_step"] / b["ns_per_step"]
            a_eval = a["ns_per_step"] / a["rhs_evals_per_step"] if a["rhs_evals_per_step"] else None
            b_eval = b["ns_per_step"] / b["rhs_evals_per_step"] if b["rhs_evals_per_step"] else None
            per_eval = a_eval / b_eval if a_eval and b_eval else None
            out.append(f"| {n} | {fmt_time(a['ns_per_step'])} | {fmt_time(b['ns_per_step'])} | {per_step:.2f} | "
                       f"{fmt_time(a_eval)} | {fmt_time(b_eval)} | {fmt(per_eval, 3)} |")
        out.append("")

    out += variational_against_rattle(rows)

    out += whole_run_costs(os.path.join(os.path.dirname(path), "summary.csv"))

    if errors:
        out += ["## Skipped benchmarks", "", "| benchmark | reason |", "|---|---|"]
        out += [f"| {name} | {msg} |" for name, msg in sorted(errors.items())]
        out.append("")
    out.append("Figure: `figures/benchmarks_scaling.png`; all rows: `benchmarks.csv`.")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return exponents


# On Model C the LGVI and RATTLE solve the same discrete position equations (in joint coordinates
# the LGVI's are SHAKE's; on R it is Moser-Veselov), so their Newton iterations and costs per step
# should be alike at every N: a difference measures how the equations are evaluated and solved
# (issue 23). The LGVI's solve is one correction and its check per step when the predictor is
# not already at the round-off floor; RATTLE's position solve plus its velocity projection.
LGVI_MAX_ITERATIONS = 2.5
LGVI_MAX_COST_RATIO = 1.2
# The benchmark models on which the two solve the same discrete equations (on the string of
# Model A they are different discretisations, whose costs are compared in the tables above).
SAME_DISCRETE_EQUATIONS = ("multirotor_payload",)


def variational_against_rattle(rows):
    out = []
    by = {(r["model"], r["integrator"], r["N"]): r for r in rows}
    pairs = (("lgvi", "rattle"), ("lgvi4", "rattle4"))
    for model in sorted({r["model"] for r in rows if r["model"] in SAME_DISCRETE_EQUATIONS}):
        ns = sorted({n for (m, i, n) in by if m == model and i in ("lgvi", "rattle")})
        if not any((model, "lgvi", n) in by for n in ns) or not any((model, "rattle", n) in by for n in ns):
            continue
        out += [f"## LGVI against RATTLE ({model})", ""]
        out.append("Newton iterations per step (both count residual evaluations: the LGVI's of its discrete "
                   "Euler-Lagrange equations, stopped at each row's round-off floor; RATTLE's of its position "
                   "constraints, stopped at its newton_tol, so a first evaluation that meets it takes no correction) "
                   "and cost per step at the same h. Flagged: more than "
                   f"{LGVI_MAX_ITERATIONS} LGVI iterations per step, or a cost above {LGVI_MAX_COST_RATIO}× "
                   "RATTLE's (lgvi4 against rattle4 likewise; their iterations are per composed step, over "
                   "5 substeps); a missing N is a skipped benchmark, listed below.")
        out.append("")
        out.append("| N | lgvi iters | rattle iters | lgvi / rattle per step | lgvi4 iters | lgvi4 / rattle4 per step | flags |")
        out.append("|---:|---:|---:|---:|---:|---:|---|")
        for n in ns:
            cells, flags = [], []
            for vi, shake in pairs:
                a, b = by.get((model, vi, n)), by.get((model, shake, n))
                substeps = 1 if vi == "lgvi" else 5
                its = a["newton_iters_per_step"] if a else None
                if vi == "lgvi":
                    cells.append(fmt(its))
                    cells.append(fmt(b["newton_iters_per_step"]) if b else "—")
                else:
                    cells.append(fmt(its))
                ratio = a["ns_per_step"] / b["ns_per_step"] if a and b else None
                cells.append(fmt(ratio, 3))
                if a is None:
                    flags.append(f"{vi} skipped")
                elif its is not None and its > LGVI_MAX_ITERATIONS * substeps:
                    flags.append(f"{vi}: {fmt(its)} iterations")
                if ratio is not None and ratio > LGVI_MAX_COST_RATIO:
                    flags.append(f"{vi}: {ratio:.2f}× {shake}")
            out.append(f"| {n} | " + " | ".join(cells) + f" | {'**' + '; '.join(flags) + '**' if flags else '—'} |")
        out.append("")
    return out


def whole_run_costs(summary_path):
    """Per bundled case, from the report's full runs (summary.csv beside benchmarks.md): the
    LGVI's Newton iterations per step, the LGVI/RK4 runtime ratio at the case's h, and IDA's
    steps per simulated second over its own horizon (stated: a rate over the first 100 s is no
    rate over 1000 s). Only completed runs count; nothing when there is no summary."""
    if not os.path.exists(summary_path):
        return []
    with open(summary_path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r.get("status") == "ok" and r.get("runtime_s")]
    by = {(r["case"], r["integrator"]): r for r in rows}
    cases = sorted({r["case"] for r in rows})
    out = ["## Whole runs of the bundled cases (summary.csv)", "",
           "From the report's own full runs (runtime: whole step loops, the minimum of the timed passes): "
           "the figures whose regression would show first. A dash: the method does not run the case, or "
           "did not complete it.", "",
           "| case | LGVI Newton iters / step | LGVI runtime (s) | RK4 runtime (s) | LGVI/RK4 | IDA steps | "
           "IDA over (s) | IDA steps / simulated s, over that horizon | IDA runtime (s) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]

    def num(r, key):
        try:
            return float(r[key])
        except (KeyError, TypeError, ValueError):
            return None

    for case in cases:
        lg, rk, ida = by.get((case, "lgvi")), by.get((case, "rk4")), by.get((case, "ida"))
        if not (lg or ida):
            continue
        its = num(lg, "newton_iters") / num(lg, "steps") if lg and num(lg, "steps") else None
        t_lg, t_rk = (num(lg, "runtime_s") if lg else None), (num(rk, "runtime_s") if rk else None)
        same_h = lg and rk and lg.get("h") == rk.get("h")
        ratio = t_lg / t_rk if same_h and t_lg and t_rk else None
        ida_steps = num(ida, "steps") if ida else None
        ida_rate = ida_steps / num(ida, "t_end") if ida_steps and num(ida, "t_end") else None
        out.append(f"| {case} | {fmt(its)} | {fmt(t_lg)} | {fmt(t_rk)} | {fmt(ratio)} | "
                   f"{fmt(ida_steps, 4)} | {fmt(num(ida, 't_end') if ida else None)} | {fmt(ida_rate, 4)} | "
                   f"{fmt(num(ida, 'runtime_s') if ida else None)} |")
    out.append("")
    return out


def merge(out_path, part_paths):
    """One Google Benchmark JSON from the parts the report measured one integrator at a time
    (app/running/external_steps.cpp): the first part's context, every part's benchmarks in order."""
    merged = None
    for path in part_paths:
        with open(path) as f:
            part = json.load(f)
        if merged is None:
            merged = {"context": part.get("context", {}), "benchmarks": []}
        merged["benchmarks"].extend(part.get("benchmarks", []))
    with open(out_path + ".tmp", "w") as f:
        json.dump(merged, f, indent=2)
    os.replace(out_path + ".tmp", out_path)
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "--merge":
        try:
            return merge(argv[2], argv[3:])
        except (OSError, ValueError) as e:
            print(f"summarise_benchmarks: cannot merge the benchmark parts into {argv[2]}: {e}", file=sys.stderr)
            return 2
    if len(argv) != 3:
        print("usage: summarise_benchmarks.py BENCH_JSON OUT_DIR", file=sys.stderr)
        return 2
    json_path, out_dir = argv[1], argv[2]
    try:
        context, rows, errors = load(json_path)
    except (OSError, ValueError, KeyError) as e:
        print(f"summarise_benchmarks: cannot read {json_path}: {e}", file=sys.stderr)
        return 2
    if not rows:
        print(f"summarise_benchmarks: no step/ or mass_solve/ benchmarks in {json_path}", file=sys.stderr)
        return 1
    os.makedirs(out_dir, exist_ok=True)
    series = {}
    for r in rows:
        series.setdefault(series_key(r), []).append(r)
    write_csv(rows, os.path.join(out_dir, "benchmarks.csv"))
    write_markdown(context, rows, errors, series, os.path.join(out_dir, "benchmarks.md"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
