#!/usr/bin/python3
"""Draws the figures of a tetherbench report, exactly as its figure plan lists them.

Usage:  /usr/bin/python3 scripts/plot_report.py REPORT_DIR [--store DIR [--fresh]]

The C++ decides which figures exist and what each draws (app/writing/figure_plan.cpp), and writes
REPORT_DIR/figures.csv (one row per figure) and REPORT_DIR/figure_series.csv (one row per series:
its panel and axes, legend label, colour and line style, data file, row filter, x and y columns
and transform). This script draws those series from the CSVs the C++ wrote and nothing else: it
writes no index, no captions and no verdicts, and it chooses no series, scale or style.

It also writes REPORT_DIR/figures_drawn.csv, one row per drawn panel (file, panel, series,
distinct_styles, distinct_colours, legend_outside, labels_clear, xlabel, ylabel, yscale), which the tests read
to check the figures against the rules of issue 33 (tests/test_plot_report.py).

With --store DIR (the report's REPORT_DIR/.jobs/figures), a case's figures are drawn again only
when something they are drawn from changed: the plan's rows and series for that case, the bytes of
every data file they read, this script, or matplotlib's version. Otherwise the figures already in
REPORT_DIR are kept and their records (figures_drawn.csv) are read back from the store. With
--fresh (the report's --fresh) every figure is drawn and the store is written, so that the next run
keeps them. Without --store every figure is drawn and nothing is stored.

Needs numpy and matplotlib (Debian's /usr/bin/python3). Exit status 1 when a listed figure
could not be drawn (the others are still drawn), 2 on bad usage or a missing plan.
"""

import csv
import hashlib
import json
import math
import multiprocessing
import os
import sys
import textwrap
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

DPI = 110
MAX_PLOT_POINTS = 6000  # longer series are min/max-decimated for drawing only (the envelope survives)
PANEL_W, PANEL_H, LEGEND_W = 5.2, 3.0, 2.6  # inches: each panel's axes and the legend column beside it


# --------------------------------------------------------------------------- input

def read_rows(path):
    """Rows of a CSV as dicts; [] when absent."""
    if not os.path.isfile(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return math.nan


def load_columns(path):
    """A time series: column -> float array; a truncated last line (a run cut short) is dropped."""
    with open(path, encoding="utf-8") as f:
        header = [h.strip() for h in f.readline().strip().split(",")]
        rows = []
        for line in f:
            parts = line.rstrip("\n").split(",")
            if len(parts) != len(header):
                break
            try:  # an empty cell is a metric the run's form does not integrate
                rows.append([float(p) if p.strip() else math.nan for p in parts])
            except ValueError:
                break
    data = np.array(rows, dtype=float).reshape(-1, len(header))
    return {h: data[:, i] for i, h in enumerate(header)}


def parse_filter(text):
    """'a=b;c^=d' -> [(column, op, value)]: '=' exact, '^=' prefix."""
    out = []
    for part in filter(None, (text or "").split(";")):
        if "^=" in part:
            k, v = part.split("^=", 1)
            out.append((k, "^=", v))
        else:
            k, v = part.split("=", 1)
            out.append((k, "=", v))
    return out


def matches(row, conditions):
    for k, op, v in conditions:
        cell = row.get(k, "")
        if (op == "=" and cell != v) or (op == "^=" and not cell.startswith(v)):
            return False
    return True


class Data:
    """The report's CSVs, each read once."""

    def __init__(self, report):
        self.report = report
        self.columns = {}
        self.rows = {}

    def series(self, s, column_names):
        """(x, [y columns], rows or None) of a series: a whole time series when it has no filter,
        else the filtered rows of a table (kept for the hollow-point filter)."""
        path = os.path.join(self.report, s["data"])
        if not s["filter"]:
            if path not in self.columns:
                self.columns[path] = load_columns(path)
            cols = self.columns[path]
            return cols[s["x"]], [cols[c] for c in column_names], None
        if path not in self.rows:
            self.rows[path] = read_rows(path)
        rows = [r for r in self.rows[path] if matches(r, parse_filter(s["filter"]))]
        x = np.array([num(r.get(s["x"])) for r in rows])
        order = np.argsort(x, kind="stable")
        rows = [rows[i] for i in order]
        return x[order], [np.array([num(r.get(c)) for r in rows]) for c in column_names], rows


def transformed(ys, transform):
    """The same transforms as app/writing/figure_plan.cpp's transformed()."""
    if transform == "value":
        return ys[0]
    if transform.startswith("scale:"):
        return ys[0] * float(transform[len("scale:"):])
    base = transform[4:] if transform.startswith("abs_") else transform
    if base == "deviation":
        y = ys[0] - ys[0][0]
    elif base == "difference_deviation":
        y = (ys[0] - ys[1]) - (ys[0][0] - ys[1][0])
    elif base == "norm_deviation":
        y = np.sqrt(sum((c - c[0]) ** 2 for c in ys))
    elif base == "abs":
        y = ys[0]
    else:
        raise ValueError(f"unknown transform {transform!r}")
    return np.abs(y) if transform.startswith("abs") else y


# --------------------------------------------------------------------------- drawing

def linestyle(text):
    """'solid', 'dashed', ... or 'dash:8,2,2,2' (an on/off pattern in points)."""
    if text.startswith("dash:"):
        return (0, tuple(float(v) for v in text[5:].split(",")))
    return text


def decimate(t, y, nmax=MAX_PLOT_POINTS):
    """Keep each bucket's min and max, so oscillation envelopes survive thinning."""
    n = len(t)
    if n <= nmax:
        return t, y
    b = int(math.ceil(n / (nmax / 2)))
    nb = n // b
    yy = np.where(np.isfinite(y[: nb * b]), y[: nb * b], 0.0).reshape(nb, b)
    base = np.arange(nb) * b
    idx = np.unique(np.concatenate([base + yy.argmin(axis=1), base + yy.argmax(axis=1),
                                    np.arange(nb * b, n), [0, n - 1]]))
    return t[idx], y[idx]


def params(text):
    return {k: float(v) for k, v in (p.split("=", 1) for p in filter(None, (text or "").split(";")))}


def draw_series(ax, s, data, log_y):
    """Draws one series; returns its (x, y) for slope guides, or None."""
    style = dict(color=s["colour"], linestyle=linestyle(s["linestyle"]))
    label = s["series"] or None
    kind = s["kind"]
    if kind == "zero":  # nothing to draw on a log axis; the legend says "exactly 0"
        ax.plot([], [], label=label, lw=1.2, **style)
        return None
    if kind == "hline":
        ax.axhline(params(s["params"])["y"], lw=1.0, label=label, **style)
        return None
    if kind == "fit":
        p = params(s["params"])
        tt = np.geomspace(p["from"], p["to"], 30)
        ax.plot(tt, p["c"] * tt ** p["p"], color=s["colour"], lw=5, alpha=0.3, solid_capstyle="butt")
        return None
    if kind == "slope":
        return "slope"
    x, ys, rows = data.series(s, s["y"].split(";"))
    y = transformed(ys, s["transform"])
    # A run past its instability onset went on to its end: it is drawn to its end (its metrics are
    # in the tables beside its status), and mark_stops puts its x at the onset.
    if log_y:
        y = np.where(y > 0, y, np.nan)  # a zero is not data on a log axis (the caption says so)
    if kind == "line":
        xx, yy = decimate(x, y)
        ax.plot(xx, yy, lw=1.1, label=label, **style)
    else:
        ax.plot(x, y, lw=1.1 if "line" in kind else 0, marker=s["marker"] or "o", ms=4, label=label, **style)
        if rows is not None and s["hollow_where"]:
            hollow = np.array([matches(r, parse_filter(s["hollow_where"])) for r in rows], dtype=bool)
            if hollow.any():
                ax.plot(x[hollow], y[hollow], linestyle="none", marker=s["marker"] or "o", ms=4,
                        markerfacecolor="white", markeredgecolor=s["colour"])
    return x, y


def mark_stops(ax, series, drawn):
    """An x where each run that is no result stopped, or, for a run that went on past its
    instability onset (params stop=t), at its onset; moved onto the axes' edge when that value lies
    outside the limits the ok runs set (so it never leaves its panel)."""
    lo, hi = ax.get_ylim()
    for s, (x, y) in drawn:
        stop = params(s["params"]).get("stop") if s["params"] else None
        finite = np.isfinite(y) & (x <= stop if stop is not None else True)
        if s["result"] == "no" and finite.any():
            ax.plot([x[finite][-1]], [min(max(y[finite][-1], lo), hi)], marker="x", color=s["colour"], ms=8, mew=2,
                    clip_on=False, zorder=5)


def tidy_log_labels(ax):
    """Matplotlib labels every minor tick of a log axis spanning under a decade, and the labels
    collide ("3×10⁻¹4×10⁻¹"); label 1, 2 and 5 times a power of ten there instead, and no minor
    tick where major ticks (whole decades) label the axis."""
    for axis, (lo, hi) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
        if axis.get_scale() != "log" or not (lo > 0 and hi > lo):
            continue
        if hi / lo >= 10.0:
            axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
            continue

        def one_two_five(x):
            mantissa = x / 10.0 ** math.floor(math.log10(x) + 1e-9)
            return min(abs(mantissa - m) for m in (1, 2, 5)) < 1e-6

        ticks = [t for t in axis.get_minorticklocs() if lo <= t <= hi]
        some = any(one_two_five(t) for t in ticks)
        # 1, 2 and 5 times a power of ten where the axis holds one; else every minor tick (a
        # narrow axis between two of them would otherwise carry no label at all)
        axis.set_minor_formatter(matplotlib.ticker.FuncFormatter(
            lambda x, _pos: f"{x:.3g}" if (one_two_five(x) or not some) else ""))
        axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _pos: f"{x:g}"))


def draw_panel(ax, lax, series, data):
    first = series[0]
    log_y = first["yscale"] == "log"
    drawn = []
    for s in series:
        r = draw_series(ax, s, data, log_y)
        if r is not None and r != "slope":
            drawn.append((s, r))
    if first["xscale"] == "log" and not any(np.any(np.isfinite(x) & (x > 0)) for _, (x, _) in drawn):
        # Every run of the panel failed before its horizon (nonsmooth RATTLE on the ten-link snap at
        # every step): a log axis has nothing to scale; the panel says so and the tables say why.
        ax.cla()  # the references' line alone would read as data
        ax.text(0.5, 0.5, "no run of this panel reached its horizon:\nthe tables give each one's reason",
                ha="center", va="center", transform=ax.transAxes, fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(first["panel_title"], fontsize=9)
        lax.axis("off")
        return [], None
    if first["xscale"] == "symlog":
        xs = np.concatenate([x for _, (x, _) in drawn]) if drawn else np.array([1.0])
        pos = xs[np.isfinite(xs) & (xs > 0)]
        ax.set_xscale("symlog", linthresh=float(pos.min()) if pos.size else 1.0)
    else:
        ax.set_xscale(first["xscale"])
    ax.set_yscale(first["yscale"])

    for s in series:  # guides after the data: a line of slope p through the panel's points
        if s["kind"] == "slope" and drawn:
            xs = np.concatenate([x for _, (x, _) in drawn])
            ys = np.concatenate([y for _, (_, y) in drawn])
            ok = np.isfinite(xs) & np.isfinite(ys) & (xs > 0) & (ys > 0)
            if ok.any():
                p = params(s["params"])["p"]
                x0, x1 = xs[ok].min(), xs[ok].max()
                a = np.exp(np.mean(np.log(ys[ok]) - p * np.log(xs[ok])))
                ax.plot([x0, x1], [a * x0 ** p, a * x1 ** p], lw=1.0, label=s["series"] or None,
                        color=s["colour"], linestyle=linestyle(s["linestyle"]))
    lo, hi = num(first["ymin"]), num(first["ymax"])
    if math.isfinite(lo) and math.isfinite(hi) and hi > lo and (not log_y or lo > 0):
        ax.set_ylim(lo, hi)
    mark_stops(ax, series, drawn)
    ax.set_xlabel(first["xlabel"])
    ax.set_ylabel("\n".join(textwrap.wrap(first["ylabel"], 34)))  # a long label wraps rather than run past its panel
    ax.set_title(first["panel_title"], fontsize=9)
    ax.grid(True, which="major", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    lax.axis("off")
    legend = lax.legend(handles, labels, loc="upper left", fontsize=7, frameon=False, borderaxespad=0) if handles else None
    tidy_log_labels(ax)
    return handles, legend


def overlaps(a, b):
    return not (a.x1 <= b.x0 or b.x1 <= a.x0 or a.y1 <= b.y0 or b.y1 <= a.y0)


def draw_figure(report, fig_row, series_rows, data):
    panels = {}
    for s in series_rows:
        panels.setdefault(int(s["panel"]), []).append(s)
    n = int(fig_row["panels"])
    cols = max(1, int(fig_row["panel_cols"]))
    rows = (n + cols - 1) // cols
    fig = plt.figure(figsize=(cols * (PANEL_W + LEGEND_W), rows * PANEL_H + 0.6), layout="constrained", dpi=DPI)
    grid = fig.add_gridspec(rows, 2 * cols, width_ratios=[PANEL_W, LEGEND_W] * cols)
    title = fig_row["case"] + (": " if fig_row["case"] else "") + fig_row["section"].replace("_", " ")
    fig.suptitle(title, fontsize=10)
    made = []
    for k in range(n):
        r, c = divmod(k, cols)
        ax = fig.add_subplot(grid[r, 2 * c])
        lax = fig.add_subplot(grid[r, 2 * c + 1])
        handles, legend = draw_panel(ax, lax, panels.get(k, []), data) if k in panels else ([], None)
        made.append((k, ax, handles, legend))
    path = os.path.join(report, fig_row["file"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # Saved first: the one draw that lays the figure out. What was drawn is then measured on that
    # layout (for the tests), with the layout frozen so that measuring does not lay it out again.
    fig.savefig(path)
    fig.set_layout_engine("none")
    renderer = fig.canvas.get_renderer()
    records = []
    data_boxes = [ax.get_window_extent(renderer) for _, ax, _, _ in made]
    label_boxes = [t.get_window_extent(renderer) for _, ax, _, _ in made
                   for t in (ax.xaxis.label, ax.yaxis.label) if t.get_text()]
    fig_box = fig.bbox
    for k, ax, handles, legend in made:
        styles = {(h.get_color(), str(h.get_linestyle()), str(getattr(h, "_dash_pattern", ""))) for h in handles
                  if hasattr(h, "get_color")}
        colours = {h.get_color() for h in handles if hasattr(h, "get_color")}
        outside = "yes"
        if legend is not None:
            lb = legend.get_window_extent(renderer)
            if any(overlaps(lb, b) for b in data_boxes + label_boxes) or not (
                    fig_box.x0 <= lb.x0 and lb.x1 <= fig_box.x1 and fig_box.y0 <= lb.y0 and lb.y1 <= fig_box.y1):
                outside = "no"
        # Its axis labels inside the figure and clear of every other panel's.
        mine = [t.get_window_extent(renderer) for t in (ax.xaxis.label, ax.yaxis.label) if t.get_text()]
        others = [b for j, (_, other, _, _) in enumerate(made) if j != k for b in
                  [other.get_window_extent(renderer)] + [t.get_window_extent(renderer) for t in
                                                         (other.xaxis.label, other.yaxis.label) if t.get_text()]]
        clear = all(fig_box.x0 <= b.x0 and b.x1 <= fig_box.x1 and fig_box.y0 <= b.y0 and b.y1 <= fig_box.y1 and
                    not any(overlaps(b, o) for o in others) for b in mine)
        records.append([fig_row["file"], k, len(handles), len(styles), len(colours), outside, "yes" if clear else "no",
                        ax.get_xlabel(), ax.get_ylabel().replace("\n", " "), ax.get_yscale()])
    plt.close(fig)
    return records


def group_key(report, figures, series):
    """What a case's figures are drawn from: its plan rows and series, the bytes of each data file
    they read, this script and matplotlib's version."""
    h = hashlib.sha256()
    with open(os.path.abspath(__file__), "rb") as f:
        h.update(f.read())
    h.update(matplotlib.__version__.encode())
    h.update(json.dumps([figures, sorted(series.items())], sort_keys=True).encode())
    for path in sorted({s["data"] for rows in series.values() for s in rows}):
        h.update(path.encode())
        try:
            with open(os.path.join(report, path), "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
        except OSError:
            h.update(b"missing")
    return h.hexdigest()[:16]


def draw_group(task):
    """Draws one case's figures (or keeps them, when the store says nothing they are drawn from
    changed); returns the panels' records and the number that failed."""
    report, figures, series, store, fresh = task
    stored = None
    if store:
        key = group_key(report, figures, series)
        name = "".join(c if c.isalnum() or c in "_-" else "_" for c in (figures[0]["case"] or "report"))
        stored = os.path.join(store, name + "." + key + ".json")
        if not fresh and os.path.isfile(stored) and all(os.path.isfile(os.path.join(report, f["file"])) for f in figures):
            with open(stored) as f:
                return json.load(f), 0, len(figures)
    drawn, failed = draw_figures(report, figures, series)
    if stored and not failed:
        os.makedirs(store, exist_ok=True)
        for old in os.listdir(store):  # this case's records of earlier inputs are never read again
            if old.startswith(name + ".") and old != os.path.basename(stored):
                os.remove(os.path.join(store, old))
        with open(stored + ".tmp", "w") as f:
            json.dump(drawn, f)
        os.replace(stored + ".tmp", stored)
    return drawn, failed, 0


def draw_figures(report, figures, series):
    data = Data(report)
    drawn, failed = [], 0
    for f in figures:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # all-NaN slices of runs that stopped at once
                drawn += draw_figure(report, f, series[f["file"]], data)
        except Exception as e:  # one figure's failure never loses the others
            failed += 1
            print(f"warning: {f['file']} not drawn: {e!r}", file=sys.stderr)
            plt.close("all")
    return drawn, failed


def main(argv):
    store, fresh = None, False
    if len(argv) == 5 and argv[2] == "--store" and argv[4] == "--fresh":
        store, fresh = argv[3], True
        argv = argv[:2]
    elif len(argv) == 4 and argv[2] == "--store":
        store = argv[3]
        argv = argv[:2]
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    report = argv[1]
    plan_path = os.path.join(report, "figures.csv")
    if not os.path.isfile(plan_path):
        print(f"error: {plan_path} not found: the figure plan is written by `tetherbench report`", file=sys.stderr)
        return 2
    figures = read_rows(plan_path)
    by_file = {}
    for s in read_rows(os.path.join(report, "figure_series.csv")):
        by_file.setdefault(s["file"], []).append(s)
    # One task per case (its figures share its time series, read once per task), spread over the
    # cores: the figures are independent, and drawing them one after another was a fifth of the
    # main job's wall time.
    groups = {}
    for f in figures:
        groups.setdefault(f["case"], []).append(f)
    tasks = [(report, group, {g["file"]: by_file.get(g["file"], []) for g in group}, store, fresh)
             for group in groups.values()]
    workers = max(1, min(len(tasks), os.cpu_count() or 1))
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.map(draw_group, tasks, chunksize=1)
    else:
        results = [draw_group(t) for t in tasks]
    drawn, failed, kept = [], 0, 0
    for records, failures, unchanged in results:
        drawn += records
        failed += failures
        kept += unchanged
    with open(os.path.join(report, "figures_drawn.csv"), "w", newline="", encoding="utf-8") as out:
        w = csv.writer(out)
        w.writerow(["file", "panel", "series", "distinct_styles", "distinct_colours", "legend_outside", "labels_clear",
                    "xlabel", "ylabel", "yscale"])
        w.writerows(drawn)
    print(f"plot_report: {len(figures) - failed} of {len(figures)} figures drawn"
          + (f" ({kept} kept from the store: nothing they are drawn from changed)" if kept else ""), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
