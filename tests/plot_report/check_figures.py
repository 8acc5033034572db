#!/usr/bin/python3
"""Checks a report's figures against issue 33's rules, from what the C++ planned (figures.csv,
figure_series.csv, figures_omitted.csv) and what plot_report.py measured on the rendered figures
(figures_drawn.csv). Exit 1 naming every broken rule."""

import csv
import os
import re
import sys

MAX_SERIES = 8
UNIT = re.compile(r"\[[^\]]+\]|dimensionless")


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def main(report):
    plan = rows(os.path.join(report, "figures.csv"))
    series = rows(os.path.join(report, "figure_series.csv"))
    omitted = rows(os.path.join(report, "figures_omitted.csv"))
    drawn = rows(os.path.join(report, "figures_drawn.csv"))
    problems = []
    planned = {f["file"] for f in plan}
    for need in ("file", "case", "section", "caption"):
        if plan and need not in plan[0]:
            problems.append(f"figures.csv lacks the column {need}")
    for f in plan:
        if not os.path.isfile(os.path.join(report, f["file"])):
            problems.append(f"{f['file']}: planned, not drawn")
        if not f["caption"].strip():
            problems.append(f"{f['file']}: no caption")
        panels = {d["panel"] for d in drawn if d["file"] == f["file"]}
        if len(panels) != int(f["panels"]):
            problems.append(f"{f['file']}: {len(panels)} panels drawn of {f['panels']} planned")
    on_disk = {os.path.join("figures", n) for n in os.listdir(os.path.join(report, "figures"))}
    for extra in sorted(on_disk - planned):
        problems.append(f"{extra}: drawn but not in the plan")
    for d in drawn:
        where = f"{d['file']} panel {d['panel']}"
        n = int(d["series"])
        if n > MAX_SERIES:
            problems.append(f"{where}: {n} series (at most {MAX_SERIES})")
        if int(d["distinct_styles"]) != n or int(d["distinct_colours"]) != n:
            problems.append(f"{where}: {n} series but {d['distinct_styles']} (colour, line style) pairs and "
                            f"{d['distinct_colours']} colours")
        if d["legend_outside"] != "yes":
            problems.append(f"{where}: legend overlaps the data, an axis label or the canvas edge")
        if d["labels_clear"] != "yes":
            problems.append(f"{where}: an axis label runs outside the figure or into another panel")
        for axis in ("xlabel", "ylabel"):
            if not UNIT.search(d[axis]):
                problems.append(f"{where}: {axis} {d[axis]!r} has no unit and does not say dimensionless")
    # No omitted figure drawn, and the omissions this report must make (Model C's momentum map is
    # identically 0, the planar pendulum has none).
    for o in omitted:
        name = f"figures/{o['case']}_{o['section']}.png"
        if name in planned or os.path.isfile(os.path.join(report, name)):
            problems.append(f"{name}: omitted ({o['reason']}) yet planned or drawn")
    omitted_keys = {(o["case"], o["section"]) for o in omitted}
    for key in (("C_single_multirotor", "momentum"), ("C_single_multirotor", "orthogonality"),
                ("T_planar_pendulum_60deg", "momentum")):
        if key not in omitted_keys:
            problems.append(f"{key[0]} {key[1]}: expected in figures_omitted.csv")
    # Model C: figures of the payload's linear momentum P and of its position.
    for section in ("linear_momentum", "payload_position"):
        if f"figures/C_single_multirotor_{section}.png" not in planned:
            problems.append(f"C_single_multirotor: no {section} figure")
    # A run that is no result never sets a panel's limits, and says so in its legend.
    failed = [s for s in series if s["result"] == "no"]
    if not failed:
        problems.append("the shortened Model C case has no failed run to check (rk2 failed at h = 1 ms before)")
    for s in failed:
        if "(" not in s["series"]:
            problems.append(f"{s['file']}: the failed run {s['series']!r} does not say what happened")
        # a run stopped before the first sample after t = 0 measured nothing: never "exactly 0"
        if s["series"].endswith(": exactly 0"):
            problems.append(f"{s['file']}: the failed run {s['series']!r} is called exactly 0")
    if not any(s["series"].endswith(": no sample after t = 0") for s in failed):
        problems.append("no failed run reads 'no sample after t = 0' (rk2 diverges before Model C's first sample here)")
    # Each integrator keeps its colour and line style in every figure.
    style = {}
    for s in series:
        if s["kind"] in ("hline", "slope", "fit") or not s["series"]:
            continue
        name = s["series"].split(" ")[0].split(":")[0]
        got = (s["colour"], s["linestyle"])
        if style.setdefault(name, got) != got:
            problems.append(f"{name}: styled {got} in {s['file']}, {style[name]} elsewhere")
    for p in problems:
        print("figure rule broken: " + p)
    print(f"check_figures: {len(plan)} figures, {len(drawn)} panels, {len(omitted)} omitted; "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
