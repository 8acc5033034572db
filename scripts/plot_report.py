#!/usr/bin/python3
"""Figures and index.md for a tetherbench report directory.

Usage:  /usr/bin/python3 scripts/plot_report.py REPORT_DIR

Reads what `tetherbench report` wrote into REPORT_DIR (summary.csv, build_info.csv,
<case>/<integrator>/timeseries.csv, work_precision.csv, orders.csv, paper_comparison.csv,
setting_sweep.csv, long_time.csv, long_time_envelope.csv, benchmarks.*) and writes

  figures/<case>_energy.png          E(t) - E(0) (or the energy-balance residual's deviation),
                                     linear panel and log |dE| panel
  figures/<case>_momentum.png        |momentum - momentum(0)|, log y
  figures/<case>_orthogonality.png   orthogonality_err (and constraint_err where a run integrates a constraint), log y
  figures/<case>_work_precision.png  final-state error against runtime, log-log
  figures/<case>_long_time.png       max |dE| over [t/2, t] against t, log-log, with the fitted
                                     growth laws c t^p (conservative cases, long_time.csv)
  figures/<case>_work_precision_trajectory_runtime.png, ..._trajectory_rhs.png
                                     L2 and L-inf over time of the configuration and of the
                                     rate error against runtime / against rhs evaluations
  (work_precision_rankings.csv, written by the work-precision study, is quoted, not computed)
  figures/<case>_setting_sweep.png   constraint drift and cost of one integrator against one of its
                                     settings, e.g. ida's Baumgarte rate p (cases with a
                                     [report.setting_sweep])
  figures/stability_map_sweeps.png   largest stable step h_max against each swept [model] key
                                     (stability_map.csv, stability_exponents.csv), log-log, one
                                     line per integrator with its fitted slope
  index.md                           build info, per-case links, figures, one data-derived
                                     line per figure, orders and paper-comparison tables

Cases and integrators are discovered from the files; nothing here names a model or an
integrator.  Every input except summary.csv is optional.  Needs numpy and matplotlib (Debian's
/usr/bin/python3).
"""

import csv
import math
import os
import re
import sys
import urllib.parse
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ORTH_FLOOR = 1e-17          # zeros of dimensionless errors are drawn at this value on log axes
REL_FLOOR = 1e-17           # zeros of |dE|, |d momentum| drawn at REL_FLOOR * scale of the quantity
MAX_PLOT_POINTS = 6000      # longer series are min/max-decimated for drawing only
# Growth laws, orders and every verdict are computed once, in C++ (core/growth.hpp,
# numerics/statistics.hpp), and read here from the tables: this script only draws and quotes.
DPI = 110

written = []


# --------------------------------------------------------------------------- input helpers

def read_csv(path):
    """Rows of a CSV with a header row as dicts (keys stripped); [] when absent/empty."""
    if not os.path.isfile(path):
        return None
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        try:
            header = [h.strip() for h in next(reader)]
        except StopIteration:
            return []
        rows = []
        for rec in reader:
            if not rec or all(not c.strip() for c in rec):
                continue
            rec = rec + [""] * (len(header) - len(rec))
            rows.append({h: rec[i].strip() for i, h in enumerate(header)})
        return rows


def num(s):
    """Float of a CSV field; NaN for empty / n/a / unparsable."""
    if s is None:
        return math.nan
    try:
        return float(s)
    except (TypeError, ValueError):
        return math.nan


def finite(x):
    return x is not None and isinstance(x, float) and math.isfinite(x)


NOT_INTEGRATED = "n/a (not integrated)"


def integrated(row, metric):
    """False where the summary row's not_integrated column names the metric (summary.csv): the
    run's formulation cannot violate it, so its cells are empty and it is neither drawn nor quoted."""
    return metric not in ((row or {}).get("not_integrated") or "").split()


def load_timeseries(path):
    """dict column -> float array.  Tolerates a truncated last line (failed runs)."""
    with open(path, encoding="utf-8") as f:
        header_line = f.readline()
        header = [h.strip() for h in header_line.strip().split(",")]
        ncol = len(header)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "input contained no data" for header-only files
                data = np.loadtxt(f, delimiter=",", ndmin=2)
            if data.size and data.shape[1] != ncol:
                raise ValueError
        except ValueError:
            f.seek(0)
            f.readline()
            good = []
            for line in f:
                parts = line.strip().split(",")
                if len(parts) != ncol:
                    continue
                try:  # an empty cell is a metric the run's form does not integrate: NaN, never drawn
                    good.append([float(p) if p.strip() else math.nan for p in parts])
                except ValueError:
                    continue
            data = np.array(good, dtype=float).reshape(-1, ncol)
    if data.size == 0:
        data = np.zeros((0, ncol))
    return {h: data[:, i] for i, h in enumerate(header)}


# --------------------------------------------------------------------------- formatting

def fmt(x, digits=1):
    """3.0e-05 style; 'n/a' for missing."""
    if x is None or not math.isfinite(x):
        return "n/a"
    if x == 0:
        return "0"
    return f"{x:.{digits}e}"


def fmt_g(x):
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x:.3g}"


def fmt_field(s):
    """A CSV field for a markdown table: numbers shortened, text kept."""
    v = num(s)
    if s and math.isfinite(v) and re.fullmatch(r"[-+0-9.eE]+", s):
        if re.fullmatch(r"[-+]?[0-9]+", s):
            return s  # counts stay exact
        return fmt_g(v)
    return md_escape(s if s else "")


def md_escape(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def safe_name(s):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", s)


def link(path):
    return urllib.parse.quote(path)


# --------------------------------------------------------------------------- series analysis

def growth_words(row, quantity):
    """What the C++ classifier says of the run's energy or momentum growth (summary.csv's
    <quantity>_growth_verdict: the law with its interval, why there is none, or "investigate")."""
    words = (row or {}).get(f"{quantity}_growth_verdict", "")
    return words if words else "no growth law computed"


def nanmax_abs(y):
    a = np.abs(y[np.isfinite(y)])
    return float(a.max()) if a.size else math.nan


def decimate(t, y, nmax=MAX_PLOT_POINTS):
    """Keep min and max of each bucket so oscillation envelopes survive thinning."""
    n = len(t)
    if n <= nmax:
        return t, y
    b = int(math.ceil(n / (nmax / 2)))
    nb = n // b
    yy = np.where(np.isfinite(y[: nb * b]), y[: nb * b], 0.0).reshape(nb, b)
    base = np.arange(nb) * b
    idx = np.concatenate([base + yy.argmin(axis=1), base + yy.argmax(axis=1),
                          np.arange(nb * b, n), [0, n - 1]])
    idx = np.unique(idx)
    return t[idx], y[idx]


def floor_for(scale, arrays=()):
    """Where zeros are drawn on a log axis: one decade below the smallest typical non-zero
    value (1st percentile of each series), but not below REL_FLOOR x the quantity's scale."""
    base = REL_FLOOR
    if finite(scale) and scale > 0:
        base = REL_FLOOR * 10.0 ** math.floor(math.log10(scale))
    lows = []
    for a in arrays:
        a = np.abs(a[np.isfinite(a)])
        a = a[a > 0]
        if a.size:
            lows.append(float(np.percentile(a, 1)))
    if lows:
        base = max(base, 10.0 ** (math.floor(math.log10(min(lows))) - 1))
    return base


# --------------------------------------------------------------------------- styling

class Style:
    def __init__(self, integrators):
        cmap = plt.get_cmap("tab10")
        styles = ["-", "--", "-.", ":"]
        self.map = {}
        for i, name in enumerate(integrators):
            self.map[name] = dict(color=cmap(i % 10), linestyle=styles[(i // 10) % 4])

    def __call__(self, name):
        if name not in self.map:
            self.map[name] = dict(color="k", linestyle="-")
        return self.map[name]


def save(fig, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    written.append(path)


def mark_end(ax, run, t, y):
    """An x at the last sample of a failed run."""
    if run["failed"] and len(t):
        ax.plot([t[-1]], [y[-1]], marker="x", color=run["style"]["color"], ms=8, mew=2)


# --------------------------------------------------------------------------- per-case data

def case_runs(report, case, integrators, summary_by_key, style):
    """Timeseries of every integrator of the case (those with a timeseries.csv)."""
    runs = []
    for integ in integrators:
        row = summary_by_key.get((case, integ), {})
        status = row.get("status", "")
        path = os.path.join(report, case, integ, "timeseries.csv")
        run = dict(name=integ, status=status, row=row, style=style(integ),
                   failed=status.startswith("failed") or status.startswith("unstable"), ts=None)
        if os.path.isfile(path):
            try:
                run["ts"] = load_timeseries(path)
            except (OSError, ValueError) as e:
                print(f"warning: cannot read {path}: {e}", file=sys.stderr)
        if run["ts"] is not None and ("t" not in run["ts"] or len(run["ts"]["t"]) == 0):
            run["ts"] = None
            run["empty"] = True
        runs.append(run)
    return runs


_STATUS_TIME = {
    # status prefix (the C++ side's RunOutcome::describe) -> how the time in it is found
    "unstable from": re.compile(r"^unstable from t = ([-+0-9.eE]+) s"),  # completed past the criterion: its onset
    "drift": re.compile(r"^ok; drift from t = ([-+0-9.eE]+) s"),           # completed, ok: a drift's onset
    "stopped": re.compile(r" at t = ([-+0-9.eE]+)(?: s)?, step \d+"),        # failed / diverged / interrupted: where it stopped
}


def status_time(status, key):
    m = _STATUS_TIME[key].search(status or "")
    return float(m.group(1)) if m else None


def fmt_t(t):
    return "n/a" if t is None or not math.isfinite(t) else f"{t:.4g}"


def label(run):
    """The legend: the run's name and, from its status, what happened when. A run that completed
    is never 'failed': past the instability criterion it is 'unstable from t = onset', within it
    but drifting 'drift from t = onset'; only a run that stopped says where it stopped."""
    lab = run["name"]
    status = run.get("status") or ""
    last = run["ts"]["t"][-1] if run.get("ts") is not None and len(run["ts"]["t"]) else None
    if status.startswith("unstable from"):
        t = status_time(status, "unstable from")
        lab += f" (unstable from t = {fmt_t(t)} s)"
    elif status.startswith("ok; drift"):
        t = status_time(status, "drift")
        lab += f" (drift from t = {fmt_t(t)} s)"
    elif status.startswith("unstable at"):  # a state that became non-finite inside a step: it stopped there
        t = status_time(status, "stopped")
        lab += f" (unstable, non-finite at t = {fmt_t(t if t is not None else last)} s)"
    elif status.startswith("interrupted"):
        t = status_time(status, "stopped")
        lab += f" (interrupted at t = {fmt_t(t if t is not None else last)} s)"
    elif run["failed"]:
        t = status_time(status, "stopped")
        lab += f" (failed at t = {fmt_t(t if t is not None else last)} s)"
    return lab


def status_notes(runs):
    """'rk45: n/a (reason)' for runs without a time series."""
    notes = []
    for r in runs:
        if r["ts"] is None:
            st = r["status"] or "no timeseries.csv"
            notes.append(f"{r['name']}: {st}" if st.startswith("n/a") or st.startswith("failed")
                         else f"{r['name']}: empty timeseries.csv" if r.get("empty")
                         else f"{r['name']}: no timeseries.csv")
    return notes


# --------------------------------------------------------------------------- figures

def shared_window(runs):
    """(T, note): the shared window [0, T] every run of the case reaches, from summary.csv, when
    the runs' horizons differ (else (None, "")): marked on the figures, said in their captions."""
    ends = {num((r["row"] or {}).get("t_end")) for r in runs if r["row"] and not r["failed"]}
    shared = [num(r["row"].get("shared_t_end")) for r in runs if r["row"] and finite(num(r["row"].get("shared_t_end")))]
    if len({e for e in ends if finite(e)}) <= 1 or not shared:
        return None, ""
    t = min(shared)
    return t, (f"runs over different horizons: compare them over the shared window [0, {fmt_g(t)}] s (dotted "
               f"line; the summary table's shared-window columns)")


def mark_shared_window(axes, t):
    if t is not None:
        for ax in axes:
            ax.axvline(t, color="0.3", lw=0.8, ls=":")


def energy_figure(report, case, runs):
    have = [r for r in runs if r["ts"] is not None and
            ("energy_balance" in r["ts"] or "energy" in r["ts"])]
    if not have:
        return None, None
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    used_balance = False
    used_energy = False
    pieces = []
    series = []
    scale = 0.0
    for r in have:
        ts = r["ts"]
        # The energy-balance residual E - E(0) - W wherever the model does external work
        # (dissipative and forced cases): the physical damping itself is not an error.
        work = ts.get("external_work")
        does_work = work is not None and np.nanmax(np.abs(work)) > 0
        col = "energy_balance" if does_work or "energy_balance" in ts else "energy"
        used_balance |= col == "energy_balance"
        used_energy |= col == "energy"
        t = ts["t"]
        e = ts["energy"] - work if does_work else ts[col]
        de = e - e[0]
        series.append((r, t, de, col))
        for c in (col, "kinetic"):
            if c in ts:
                s = nanmax_abs(ts[c])
                if finite(s):
                    scale = max(scale, s)
    floor = floor_for(scale, [de for _, _, de, _ in series])
    # linear panel: if one run (typically a failed one) dwarfs the others, clip to the rest
    peaks = sorted((nanmax_abs(de) for _, _, de, _ in series if finite(nanmax_abs(de))),
                   reverse=True)
    clip = None
    if len(peaks) >= 2 and peaks[1] > 0 and peaks[0] > 1e3 * peaks[1]:
        clip = 1.5 * peaks[1]
    for r, t, de, col in series:
        st = r["style"]
        lab = label(r) + (" [energy balance]" if col == "energy_balance" and not
                          all(c == "energy_balance" for *_, c in series) else "")
        tt, yy = decimate(t, de)
        ax1.plot(tt, yy, label=lab, lw=1, **st)
        mark_end(ax1, r, t, de)
        a = np.abs(de)
        a = np.where(np.isfinite(a), np.maximum(a, floor), np.nan)
        tt, yy = decimate(t, a)
        ax2.plot(tt, yy, label=lab, lw=1, **st)
        mark_end(ax2, r, t, a)

        fin = float(de[np.isfinite(de)][-1]) if np.isfinite(de).any() else math.nan
        sym = "ΔB" if col == "energy_balance" else "ΔE"
        row = r["row"] or {}
        if r["failed"]:  # no number of a run that is no result: its status says what happened
            piece = f"{r['name']}: {r['status']}"
        else:
            piece = (f"{r['name']} (to {fmt_g(num(row.get('t_end')))} s): |{sym}| max {fmt(num(row.get('energy_err_max')))} J, "
                     f"final {sym} {fmt(fin)} J, drift rate {fmt(num(row.get('energy_drift_rate')))} J/s, "
                     f"{growth_words(row, 'energy')}")
        pieces.append(piece)
    if clip is not None:
        ax1.set_ylim(-clip, clip)
        ax1.text(0.01, 0.02, "linear panel clipped; see log panel", transform=ax1.transAxes,
                 fontsize=8, color="0.3")
    what = ("energy-balance residual" if used_balance and not used_energy else
            "energy (energy-balance residual where available)" if used_balance else "energy")
    qty = "ΔB = B(t) − B(0)" if used_balance and not used_energy else "ΔE = E(t) − E(0)"
    ax1.set_ylabel(f"{qty}  [J]")
    ax1.axhline(0, color="0.6", lw=0.6)
    ax2.set_yscale("log")
    ax2.set_ylabel(f"|{qty.split(' =')[0]}|  [J]  (values < {floor:.0e} drawn at it)")
    ax2.set_xlabel("t  [s]")
    ax1.set_title(f"{case}: {what} error")
    shared_t, shared_note = shared_window(runs)
    mark_shared_window((ax1, ax2), shared_t)
    ax1.legend(fontsize=8, loc="best")
    for ax in (ax1, ax2):
        ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    path = os.path.join(report, "figures", f"{safe_name(case)}_energy.png")
    save(fig, path)
    head = "energy-balance residual" if used_balance and not used_energy else "energy"
    line = f"{head} — " + "; ".join(([shared_note] if shared_note else []) + pieces + status_notes(runs))
    return path, line


def momentum_columns(runs):
    cols = []
    for r in runs:
        if r["ts"] is None:
            continue
        for c in r["ts"]:
            if (c == "momentum" or c.startswith("momentum_") or c.startswith("linear_momentum")
                    or c.startswith("angular_momentum")) and c not in cols:
                cols.append(c)
    return cols


def momentum_figure(report, case, runs):
    # The model's momentum map only where it has one (summary.csv's not_integrated column).
    def having(col):
        return [r for r in runs if r["ts"] is not None and col in r["ts"]
                and (col != "momentum" or integrated(r["row"], "momentum_err_max"))]
    cols = [c for c in momentum_columns(runs) if having(c)]
    if not cols:
        return None, None
    fig, axes = plt.subplots(len(cols), 1, figsize=(9, 3.6 * len(cols) + 0.6), sharex=True,
                             squeeze=False)
    pieces = []
    for ax, col in zip(axes[:, 0], cols):
        have = having(col)
        scale = max([nanmax_abs(r["ts"][col]) for r in have if finite(nanmax_abs(r["ts"][col]))]
                    or [0.0])
        floor = floor_for(scale, [r["ts"][col] - r["ts"][col][0] for r in have])
        colpieces = []
        for r in have:
            t, p = r["ts"]["t"], r["ts"][col]
            dp = np.abs(p - p[0])
            a = np.where(np.isfinite(dp), np.maximum(dp, floor), np.nan)
            tt, yy = decimate(t, a)
            ax.plot(tt, yy, label=label(r), lw=1, **r["style"])
            mark_end(ax, r, t, a)
            fin = float(dp[np.isfinite(dp)][-1]) if np.isfinite(dp).any() else math.nan
            if r["failed"]:  # drawn up to where it stopped; no number quoted for it
                colpieces.append(f"{r['name']}: {r['status']}")
            else:
                colpieces.append(f"{r['name']} max {fmt(nanmax_abs(dp))}, final {fmt(fin)}"
                                 + (f", {growth_words(r['row'], 'momentum')}" if col == "momentum" else ""))
        pieces.append((f"{col}: " if len(cols) > 1 else "") + "; ".join(colpieces))
        ax.set_yscale("log")
        ax.set_ylabel(f"|{col}(t) − {col}(0)|  (values < {floor:.0e} drawn at it)")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    axes[0, 0].set_title(f"{case}: momentum error")
    shared_t, shared_note = shared_window(runs)
    mark_shared_window(axes[:, 0], shared_t)
    axes[-1, 0].set_xlabel("t  [s]")
    fig.tight_layout()
    path = os.path.join(report, "figures", f"{safe_name(case)}_momentum.png")
    save(fig, path)
    line = "momentum |Δπ| — " + (shared_note + " | " if shared_note else "") + " | ".join(pieces)
    notes = status_notes(runs)
    if notes:
        line += "; " + "; ".join(notes)
    return path, line


def orthogonality_figure(report, case, runs):
    # Orthogonality only where a rotation is integrated, the constraint error only where the
    # run's form integrates a constraint (summary.csv's not_integrated column; never from a 0).
    have_o = [r for r in runs if r["ts"] is not None and "orthogonality_err" in r["ts"]
              and integrated(r["row"], "orthogonality_err_max")]
    have_c = [r for r in runs if r["ts"] is not None and "constraint_err" in r["ts"]
              and integrated(r["row"], "constraint_err_max")]
    any_c = bool(have_c)
    if not have_o and not any_c:
        return None, None
    panels = [("orthogonality_err", have_o, "‖I − RᵀR‖_F")] if have_o else []
    if any_c:
        panels.append(("constraint_err", have_c, "constraint error"))
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 3.6 * len(panels) + 0.6), sharex=True,
                             squeeze=False)
    parts = []
    for ax, (col, have, ylabel) in zip(axes[:, 0], panels):
        colpieces = []
        for r in have:
            t, y = r["ts"]["t"], np.abs(r["ts"][col])
            a = np.where(np.isfinite(y), np.maximum(y, ORTH_FLOOR), np.nan)
            tt, yy = decimate(t, a)
            ax.plot(tt, yy, label=label(r), lw=1, **r["style"])
            mark_end(ax, r, t, a)
            mx = nanmax_abs(y)
            colpieces.append(f"{r['name']}: {r['status']}" if r["failed"] else f"{r['name']} max {fmt(mx)}")
        name = "orthogonality" if col == "orthogonality_err" else "constraint"
        parts.append(f"{name}: " + "; ".join(colpieces))
        ax.set_yscale("log")
        ax.set_ylabel(f"{ylabel}  (zeros drawn at {ORTH_FLOOR:.0e})")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    title = f"{case}: rotation orthogonality error" + (" and constraint error" if any_c else "")
    axes[0, 0].set_title(title)
    axes[-1, 0].set_xlabel("t  [s]")
    fig.tight_layout()
    path = os.path.join(report, "figures", f"{safe_name(case)}_orthogonality.png")
    save(fig, path)
    line = "; ".join(parts)
    if not any_c:
        line += "; constraint_err: " + NOT_INTEGRATED + " by every run's formulation (panel omitted)"
    notes = status_notes(runs)
    if notes:
        line += "; " + "; ".join(notes)
    return path, line


def long_time_figure(report, case, laws, envelopes, style):
    """|ΔE| envelope (max over [t/2, t]) of every run of the long_time study, log-log, with the
    fitted c t^p over the span fitted; the momentum envelopes in a second panel when any is
    above round-off."""
    rows = [r for r in laws if r.get("case") == case and r.get("law")]
    if not rows:
        return None, None
    env = {}
    for e in envelopes:
        if e.get("case") == case:
            env.setdefault((e.get("integrator"), e.get("quantity")), []).append(
                (num(e.get("t")), num(e.get("envelope"))))
    quantities = ["energy"] + (["momentum"] if any(
        r.get("quantity") == "momentum" and r.get("law") not in ("zero", "round_off") for r in rows) else [])
    fig, axes = plt.subplots(len(quantities), 1, figsize=(9, 3.8 * len(quantities) + 0.6), squeeze=False)
    pieces = []
    for ax, q in zip(axes[:, 0], quantities):
        for r in rows:
            if r.get("quantity") != q:
                continue
            name = r.get("integrator", "")
            pts = [(t, v) for t, v in env.get((name, q), []) if finite(t) and finite(v) and t > 0 and v > 0]
            if not pts:
                continue
            st = style(name)
            ax.loglog([t for t, _ in pts], [v for _, v in pts], lw=1.2, marker=".", ms=3,
                      label=f"{name}: {r.get('law')}", **st)
            c, p = num(r.get("coefficient")), num(r.get("exponent"))
            t0, t1 = num(r.get("fit_from")), num(r.get("fit_to"))
            if r.get("law") not in ("round_off", "zero", "too_short", "inconclusive") and all(finite(x) for x in (c, p, t0, t1)):
                tt = np.geomspace(t0, t1, 20)
                ax.loglog(tt, c * tt ** p, color=st["color"], lw=2.5, alpha=0.35)
            if q == "energy":
                pieces.append(f"{name}: {r.get('words', '')} to t = {fmt_g(num(r.get('t_end')))} s "
                              f"({r.get('steps')} steps, {r.get('source')})")
        ax.set_ylabel(f"max |Δ{'E' if q == 'energy' else 'π'}| over [t/2, t]")
        ax.grid(True, which="both", alpha=0.25)
        ax.legend(fontsize=7, loc="best", ncol=2)
    axes[0, 0].set_title(f"{case}: long-time growth of the conservation errors (fitted t^p: thick lines)")
    axes[-1, 0].set_xlabel("t − t0  [s]")
    fig.tight_layout()
    path = os.path.join(report, "figures", f"{safe_name(case)}_long_time.png")
    save(fig, path)
    return path, "long-time growth of |ΔE| (long_time.md) — " + "; ".join(pieces)


def wp_value_label(param, value):
    v = num(value)
    return f"{v:g}" if finite(v) else value


def work_precision_figure(report, case, wp_rows, style, agreement=None, horizon=None):
    """agreement: the max-norm distance of the case's reference from its cross-check; points
    not above it are unresolved (work_precision.csv column resolved = no): drawn hollow and
    never counted in the reading line."""
    rows = [r for r in wp_rows if r.get("case") == case]
    if not rows:
        return None, None
    groups = {}
    omitted = 0
    unresolved = 0
    for r in rows:
        err, rt = num(r.get("error")), num(r.get("runtime_s"))
        ok = r.get("status", "ok").strip().lower().startswith("ok")  # "ok; no trajectory errors: ..." ran
        if not ok or not finite(err) or not finite(rt) or err <= 0 or rt <= 0:
            omitted += 1
            continue
        resolved = r.get("resolved", "yes").strip().lower() != "no"
        unresolved += 0 if resolved else 1
        groups.setdefault((r.get("integrator", ""), r.get("parameter", "")), []).append(
            (num(r.get("value")), r.get("value", ""), err, rt, resolved))
    fig, ax = plt.subplots(figsize=(9, 6.5))
    markers = {}
    mk_cycle = ["o", "s", "^", "D", "v", "P"]
    multi_param = len({p for _, p in groups}) > 1
    for (integ, param), pts in groups.items():
        pts.sort(key=lambda p: (-(p[0]) if finite(p[0]) else 0))  # coarse -> fine
        if param not in markers:
            markers[param] = mk_cycle[len(markers) % len(mk_cycle)]
        st = style(integ)
        x = [p[3] for p in pts]
        y = [p[2] for p in pts]
        lab = f"{integ} ({param} sweep)" if multi_param or param else integ
        ax.plot(x, y, marker=markers[param], color=st["color"], linestyle=st["linestyle"],
                lw=1.2, ms=5, label=lab)
        hollow = [p for p in pts if not p[4]]
        if hollow:  # unresolved: below the references' agreement, drawn hollow over the line
            ax.plot([p[3] for p in hollow], [p[2] for p in hollow], linestyle="none",
                    marker=markers[param], ms=5, markerfacecolor="white",
                    markeredgecolor=st["color"])
        for xi, yi, p in zip(x, y, pts):
            ax.annotate(f"{param}={wp_value_label(param, p[1])}" if param else p[1], (xi, yi),
                        textcoords="offset points", xytext=(4, 3), fontsize=6.5,
                        color=st["color"])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("runtime of the integration  [s]")
    ax.set_ylabel("max-norm error of the final state vs reference")
    if agreement is not None and finite(agreement) and agreement > 0:
        ax.axhline(agreement, color="0.4", lw=0.8, ls=":",
                   label="reference vs cross-check (hollow: unresolved)")
    title = f"{case}: work–precision" + (f" over [0, {horizon}] s" if horizon else "")
    if omitted:
        title += f"  ({omitted} failed point{'s' if omitted > 1 else ''} omitted)"
    ax.set_title(title)
    ax.grid(True, which="major", alpha=0.3)
    if groups:
        ax.legend(fontsize=8, loc="best")
    else:
        ax.text(0.5, 0.5, "no successful runs", transform=ax.transAxes, ha="center")
    fig.tight_layout()
    path = os.path.join(report, "figures", f"{safe_name(case)}_work_precision.png")
    save(fig, path)

    # reading: what was measured, not who wins (rankings are the C++ study's, in a scaled norm
    # and per discretisation: work_precision_rankings.csv)
    per_integ = {}
    for (integ, param), pts in groups.items():
        for v, vs, err, rt, resolved in pts:
            if resolved:
                per_integ.setdefault(integ, []).append((err, rt, param, vs))
    if not per_integ:
        return path, (f"work–precision: no resolved successful runs ({omitted} failed, "
                      f"{unresolved} below the references' agreement)")
    lowest = min((min(pts)[0], integ) for integ, pts in per_integ.items())
    line = ((f"over the reference horizon [0, {horizon}] s (the case's reference_t_end, not its full run): "
             if horizon else "") +
            f"work–precision of the final-state error (max norm over the state's mixed units, so not ranked "
            f"here; the rankings below use a scaled norm per discretisation): lowest error reached "
            f"{lowest[1]} {fmt(lowest[0])}")
    if omitted:
        line += f"; {omitted} failed point{'s' if omitted > 1 else ''} omitted"
    if unresolved:
        line += (f"; {unresolved} point{'s' if unresolved > 1 else ''} not above the references' "
                 f"agreement {fmt(agreement) if agreement is not None else '?'} (unresolved, hollow, not ranked)")
    return path, line


# Work-precision measures in work_precision.csv: (error column, resolved column, axis label).
WP_MEASURES = [
    ("error", "resolved", "final state, max norm"),
    ("l2_configuration", "resolved_l2_configuration", "configuration, L2 over time"),
    ("linf_configuration", "resolved_linf_configuration", "configuration, L∞ over time"),
    ("l2_rate", "resolved_l2_rate", "rates, L2 over time"),
    ("linf_rate", "resolved_linf_rate", "rates, L∞ over time"),
]
WP_WORK = [("runtime_s", "runtime of the integration  [s]", "runtime"),
           ("rhs_evals", "right-hand-side / residual evaluations", "rhs")]


def wp_points(rows, error_col, resolved_col, work_col):
    """{(integrator, parameter): [(value, value text, error, work, resolved)]} of the rows
    that ran and have that error and work; and how many were left out."""
    groups, omitted = {}, 0
    for r in rows:
        err, work = num(r.get(error_col)), num(r.get(work_col))
        ok = r.get("status", "ok").strip().lower().startswith("ok")
        if not ok or not finite(err) or not finite(work) or err <= 0 or work <= 0:
            omitted += 1
            continue
        resolved = r.get(resolved_col, "yes").strip().lower() != "no"
        groups.setdefault((r.get("integrator", ""), r.get("parameter", "")), []).append(
            (num(r.get("value")), r.get("value", ""), err, work, resolved))
    return groups, omitted


def trajectory_work_precision_figures(report, case, wp_rows, style, agreements):
    """Two figures (work = runtime, work = rhs evaluations), each with the four trajectory
    measures; agreements: {error column: the references' agreement in it}. Returns
    [(path, title)]."""
    rows = [r for r in wp_rows if r.get("case") == case]
    if not rows or not any(finite(num(r.get("l2_configuration"))) for r in rows):
        return []
    out = []
    for work_col, work_label, tag in WP_WORK:
        fig, axes = plt.subplots(2, 2, figsize=(12, 9), sharex=True)
        for ax, (err_col, res_col, err_label) in zip(axes.flat, WP_MEASURES[1:]):
            groups, omitted = wp_points(rows, err_col, res_col, work_col)
            for (integ, param), pts in groups.items():
                pts.sort(key=lambda p: (-(p[0]) if finite(p[0]) else 0))
                st = style(integ)
                mk = "o" if param == "h" else "s"
                ax.plot([p[3] for p in pts], [p[2] for p in pts], marker=mk, color=st["color"],
                        linestyle=st["linestyle"], lw=1.1, ms=4, label=integ)
                hollow = [p for p in pts if not p[4]]
                if hollow:
                    ax.plot([p[3] for p in hollow], [p[2] for p in hollow], linestyle="none", marker=mk,
                            ms=4, markerfacecolor="white", markeredgecolor=st["color"])
            a = agreements.get(err_col)
            if a is not None and finite(a) and a > 0:
                ax.axhline(a, color="0.4", lw=0.8, ls=":")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(err_label + (f"  ({omitted} omitted)" if omitted else ""), fontsize=10)
            ax.grid(True, which="major", alpha=0.3)
        for ax in axes[1]:
            ax.set_xlabel(work_label)
        for ax in axes[:, 0]:
            ax.set_ylabel("error vs reference trajectory")
        handles, labels = axes.flat[0].get_legend_handles_labels()
        if handles:
            fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=min(6, len(labels)))
        fig.suptitle(f"{case}: work–precision, trajectory errors on the reference grid "
                     f"(dotted: reference vs cross-check; hollow: unresolved; o: h sweep, s: rtol sweep)",
                     fontsize=10)
        fig.tight_layout(rect=(0, 0.06, 1, 0.96))
        path = os.path.join(report, "figures", f"{safe_name(case)}_work_precision_trajectory_{tag}.png")
        save(fig, path)
        out.append((path, f"trajectory work–precision against {tag}"))
    return out


def ranking_table(rows):
    """work_precision_rankings.csv as the work-precision study wrote it (C++: one discretisation
    against its own reference, interpolated at the matched error, ties within the timing spread)."""
    body = []
    for r in rows:
        body.append([md_escape(r.get("discretisation", "") or "—"), md_escape(r.get("work", "")),
                     md_escape(r.get("measure", "")), fmt_g(num(r.get("horizon_s"))) + " s",
                     md_escape(r.get("horizon_periods", "")) or "—",
                     fmt(num(r.get("matched_error"))), md_escape(r.get("ranking", "") or "no resolved points"),
                     md_escape(r.get("work_of_each", "")), md_escape(r.get("spread_of_each", "")),
                     md_escape(r.get("passes_of_each", "")) or "—",
                     md_escape(r.get("order_flags", "")) or "—", md_escape(r.get("note", ""))])
    return md_table(["discretisation", "work", "error measure", "horizon", "slowest periods", "matched error",
                     "ranking (least work first; = within the timing spread)", "work of each",
                     "timing spread of each", "timing passes of each", "order flags", "note"], body)


SETTING_AXIS = {"baumgarte_p": "Baumgarte rate p  [1/s]", "baumgarte_gamma": "orthonormality rate gamma  [1/s]"}


def setting_sweep_figure(report, case, sweep_rows):
    """Drift (left) and cost (right) against the swept setting; 0 on a symlog axis."""
    rows = [r for r in sweep_rows if r.get("case") == case]
    if not rows:
        return None, None
    integ, setting = rows[0].get("integrator", ""), rows[0].get("setting", "value")
    name = f"{integ} {setting} sweep"
    # "ok" or "ok; drift from t = ..." (a drift within the physical scale is a result)
    ok = [r for r in rows if r.get("status", "ok").strip().lower().startswith("ok") and finite(num(r.get("value")))]
    failed = len(rows) - len(ok)
    ok.sort(key=lambda r: num(r["value"]))
    p = np.array([num(r["value"]) for r in ok])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5))
    drift_cols = (("constraint_err_max", "max |C| (constraint_err)"),
                  ("constraint_rate_err_max", "max |dC/dt| (constraint_rate_err)"),
                  ("energy_err_max", "max |ΔE| (J)"),
                  ("orthogonality_err_max", "max ‖I − RᵀR‖ (orthogonality_err)"))
    cost_cols = (("steps", "steps"), ("newton_iters", "Newton iterations"),
                 ("error_test_failures", "error-test failures"))
    values = {c: np.array([num(r.get(c)) for r in ok]) for c, _ in drift_cols + cost_cols}
    positive = [v for c, _ in drift_cols for v in values[c] if finite(v) and v > 0]
    floor = min(positive) * 1e-2 if positive else ORTH_FLOOR
    for (col, lab), mk in zip(drift_cols, ("o", "s", "^", "v")):
        v = values[col]
        if not np.isfinite(v).any():  # not integrated by the swept run's form: empty cells
            continue
        ax1.plot(p, np.where(np.isnan(v), np.nan, np.where(v > 0, v, floor)), marker=mk, lw=1.2, label=lab)
    cost_floor = 0.5
    for (col, lab), mk in zip(cost_cols, ("o", "s", "^")):
        v = values[col]
        ax2.plot(p, np.where(v > 0, v, cost_floor), marker=mk, lw=1.2, label=lab)
    runtime = np.array([num(r.get("runtime_s")) for r in ok])
    ax3 = ax2.twinx()
    ax3.plot(p, runtime, color="k", linestyle=":", marker="x", lw=1.0, label="runtime (s, right)")
    ax3.set_ylabel("runtime of the integration  [s]")
    positive_p = p[p > 0]
    for ax in (ax1, ax2):
        if len(positive_p):
            ax.set_xscale("symlog", linthresh=float(positive_p.min()))
        ax.set_yscale("log")
        ax.set_xlabel(SETTING_AXIS.get(setting, setting))
        ax.grid(True, which="major", alpha=0.3)
    if len(runtime) and np.all(runtime > 0):
        ax3.set_yscale("log")
    ax1.set_title("drift over the run (zeros drawn at the floor)")
    ax1.legend(fontsize=8, loc="best")
    ax2.set_title("cost of the run")
    h1, l1 = ax2.get_legend_handles_labels()
    h3, l3 = ax3.get_legend_handles_labels()
    ax2.legend(h1 + h3, l1 + l3, fontsize=8, loc="best")
    title = f"{case}: {name}"
    if failed:
        title += f"  ({failed} failed run{'s' if failed > 1 else ''} omitted)"
    fig.suptitle(title)
    fig.tight_layout()
    path = os.path.join(report, "figures", f"{safe_name(case)}_setting_sweep.png")
    save(fig, path)

    if not ok:
        return path, f"{name}: no successful runs ({failed} failed)"
    c = values["constraint_err_max"]
    steps = values["steps"]
    parts = []
    if not np.isfinite(c).any():
        parts.append(f"max |C|: {NOT_INTEGRATED}")
    else:
        best = int(np.nanargmin(c))
        if p[0] == 0:
            parts.append(f"max |C| {fmt(c[0])} at {setting} = 0" + (" (unstabilised)" if setting == "baumgarte_p" else ""))
        parts.append(f"smallest max |C| {fmt(c[best])} at {setting} = {p[best]:g}")
    cheap, dear = int(np.nanargmin(steps)), int(np.nanargmax(steps))
    parts.append(f"steps from {steps[cheap]:.0f} ({setting} = {p[cheap]:g}) to {steps[dear]:.0f} ({setting} = {p[dear]:g})")
    line = f"{name}: " + "; ".join(parts)
    if failed:
        line += f"; {failed} failed run{'s' if failed > 1 else ''} omitted"
    return path, line


def stability_figure(report, rows, fits):
    """h_max against each swept [model] key, log-log, per run, with the fitted power law."""
    swept = [r for r in rows if r.get("swept")]
    panels = []
    for r in swept:
        k = (r.get("case", ""), r.get("swept", ""))
        if k not in panels:
            panels.append(k)
    if not panels:
        return None, None
    cols = min(2, len(panels))
    nrows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(6.2 * cols, 4.6 * nrows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    fit_by = {(f.get("case"), f.get("swept"), f.get("run")): f for f in fits}
    lines = []
    runs_all = []
    for r in swept:
        if r.get("run") not in runs_all:
            runs_all.append(r.get("run"))
    style = Style(runs_all)
    for ax, (case, key) in zip(axes.flat, panels):
        mine = [r for r in swept if r.get("case") == case and r.get("swept") == key]
        runs = []
        for r in mine:
            if r.get("run") not in runs:
                runs.append(r.get("run"))
        for run in runs:
            pts = [r for r in mine if r.get("run") == run]
            pts.sort(key=lambda r: num(r.get("value")))
            color = style(run)["color"]
            marker = "osD^v<>ph*"[runs_all.index(run) % 10]
            ok = [r for r in pts if r.get("bound") == "bracketed" and finite(num(r.get("h_max")))]
            capped = [r for r in pts if r.get("bound") == ">= cap" and finite(num(r.get("h_max")))]
            x = np.array([num(r["value"]) for r in ok])
            y = np.array([num(r["h_max"]) for r in ok])
            f = fit_by.get((case, key, run), {})
            # Two limits, two exponents (stability_exponents.csv): instability (filled markers,
            # solid line) and solver failure (hollow markers, dashed line).
            solver = np.array([r.get("limit", "") == "solver failure" for r in ok], dtype=bool)
            lab = run
            for tag, suffix in (("instability", ""), ("solver", "_solver")):
                p_, lo, hi = num(f.get("p" + suffix)), num(f.get("ci95_low" + suffix)), num(f.get("ci95_high" + suffix))
                if finite(p_):
                    lab += f"  {tag} p = {p_:.2f}" + (f" [{lo:.2f}, {hi:.2f}]" if finite(lo) and finite(hi) else "")
            if (~solver).any():
                ax.plot(x[~solver], y[~solver], marker=marker, color=color, lw=0, label=lab)
            if solver.any():
                ax.plot(x[solver], y[solver], marker=marker, color=color, lw=0, fillstyle="none",
                        label=None if (~solver).any() else lab)
            for suffix, mask, ls in (("", ~solver, "-"), ("_solver", solver, "--")):
                p_ = num(f.get("p" + suffix))
                if mask.sum() >= 2 and finite(p_):
                    a = np.mean(np.log(y[mask]) - p_ * np.log(x[mask]))
                    xs = np.array([x[mask].min(), x[mask].max()])
                    ax.plot(xs, np.exp(a) * xs ** p_, color=color, lw=1.0, ls=ls)
            p = num(f.get("p"))
            if capped:
                ax.plot([num(r["value"]) for r in capped], [num(r["h_max"]) for r in capped], marker="^",
                        color=color, lw=0, fillstyle="none")
            if finite(p):
                lines.append(f"{case} {key}: {run} p = {p:.2f}")
            if finite(num(f.get("p_solver"))):
                lines.append(f"{case} {key}: {run} solver-failure p = {num(f.get('p_solver')):.2f}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(key)
        ax.set_ylabel("largest stable step h_max  [s]")
        ax.set_title(f"{case} (each probe >= 10^4 steps or the case's t_end: stability_map.md)", fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    fig.suptitle("stability map: h_max against the swept parameter (filled: instability limits it; hollow: the "
                 "solver fails first, dashed fit; hollow ^: at the cap)", fontsize=10)
    fig.tight_layout()
    path = os.path.join(report, "figures", "stability_map_sweeps.png")
    save(fig, path)
    return path, "fitted exponents of h_max ~ value^p: " + ("; ".join(lines) if lines else "none")


# --------------------------------------------------------------------------- tables

def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(r) + " |")
    return out


def summary_table(case_rows):
    """The case's full runs as summary.csv states them, each with its horizon; where the runs'
    horizons differ, the errors over the shared window [0, T] every run reaches beside them (the
    only columns to compare across rows)."""
    has_linear = any(integrated(r, "linear_momentum_err_max") and r.get("linear_momentum_err_max", "") not in ("", "n/a")
                     for r in case_rows)
    horizons = {r.get("t_end") for r in case_rows if r.get("steps") != "n/a"}
    shared = sorted({r.get("shared_t_end") for r in case_rows if r.get("shared_t_end")}, key=num)
    cols = [("integrator", "integrator"), ("status", "status"), ("t_end", "t_end s"), ("steps", "steps"),
            ("energy_err_max", "max ΔE"), ("energy_drift_rate", "drift J/s"),
            ("momentum_err_max", "max Δπ")]
    if has_linear:
        cols.append(("linear_momentum_err_max", "max ΔP"))
    cols += [("constraint_err_max", "constraint max"), ("orthogonality_err_max", "orth. max")]
    if len(horizons) > 1 and shared:
        window = fmt_g(num(shared[0]))
        cols += [("energy_err_max_shared", f"max ΔE over [0, {window}] s"),
                 ("momentum_err_max_shared", f"max Δπ over [0, {window}] s")]
        if has_linear:
            cols.append(("linear_momentum_err_max_shared", f"max ΔP over [0, {window}] s"))
    cols += [("runtime_s", "runtime s")]
    def cell(r, k):
        base = k[:-len("_shared")] if k.endswith("_shared") else k
        return NOT_INTEGRATED if base.endswith("_err_max") and not integrated(r, base) else fmt_field(r.get(k, ""))
    rows = []
    for r in case_rows:
        rows.append([cell(r, k) for k, _ in cols])
    return md_table([h for _, h in cols], rows)


def orders_table(rows):
    """Measured orders as orders.csv states them (asymptotic range, 95% interval, flag); a run
    without a fit shows "inconclusive" and why, never a number."""
    body = []
    for r in rows:
        fitted = finite(num(r.get("measured_order")))
        ci = r.get("order_ci95", "")
        order = (md_escape(r.get("measured_order", "")) + (f" ± {md_escape(ci)}" if ci else "")) if fitted else "—"
        flag = r.get("flag", "")
        body.append([md_escape(r.get("integrator", "")), md_escape(r.get("declared_order", "")), order,
                     f"{fmt_g(num(r.get('h_min')))} – {fmt_g(num(r.get('h_max')))}" if fitted else "—",
                     f"{fmt(num(r.get('error_min')))} – {fmt(num(r.get('error_max')))}" if fitted else "—",
                     md_escape(r.get("points", "")), md_escape(r.get("local_orders", "")),
                     f"**{md_escape(flag)}**" if flag else "—", md_escape(r.get("note", ""))])
    return md_table(["integrator", "declared order", "measured order (95%)", "h range fitted", "error range",
                     "points fitted", "local orders (largest h first)", "flag", "note"], body)


# The claims' verdicts (study paper_comparison; the full row, with the cause, is in paper_comparison.md).
PAPER_COLS = ["id", "integrator", "metric", "paper", "ours", "ratio", "tolerance", "verdict", "direction_size"]


def paper_table(rows, with_case=False):
    cols = (["case"] if with_case else []) + PAPER_COLS
    return md_table(cols, [[fmt_field(r.get(c, "")) for c in cols] for r in rows])


# --------------------------------------------------------------------------- main

def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    report = argv[1]
    summary = read_csv(os.path.join(report, "summary.csv"))
    if summary is None:
        print(f"error: {os.path.join(report, 'summary.csv')} not found — "
              f"is {report!r} a tetherbench report directory?", file=sys.stderr)
        return 1

    build = read_csv(os.path.join(report, "build_info.csv"))
    wp = read_csv(os.path.join(report, "work_precision.csv")) or []
    orders = read_csv(os.path.join(report, "orders.csv")) or []
    paper = read_csv(os.path.join(report, "paper_comparison.csv")) or []
    sweeps = read_csv(os.path.join(report, "setting_sweep.csv")) or []
    stability = read_csv(os.path.join(report, "stability_map.csv")) or []
    stability_fits = read_csv(os.path.join(report, "stability_exponents.csv")) or []
    long_laws = read_csv(os.path.join(report, "long_time.csv")) or []
    long_envelopes = read_csv(os.path.join(report, "long_time_envelope.csv")) or []
    references = read_csv(os.path.join(report, "references.csv")) or []
    # the references' agreement in each trajectory measure, default discretisation
    traj_agreement = {r.get("case"): {m: num(r.get("agreement_" + m)) for m, _, _ in WP_MEASURES[1:]}
                      for r in references if r.get("default", "").strip().lower() == "yes"}
    rankings = read_csv(os.path.join(report, "work_precision_rankings.csv")) or []
    # the horizon of each case's work-precision figure: its sweep's (work_precision.csv), which
    # is the orders' (reference_t_end); the rankings may run over a longer one of their own
    # ([report.ranking], ranking_sweep.csv), stated in their table
    wp_horizon = {r.get("case"): r.get("horizon_s") for r in wp if r.get("horizon_s")}
    if not wp_horizon:  # a report from before work_precision.csv had the column
        wp_horizon = {r.get("case"): r.get("horizon_s") for r in rankings if r.get("horizon_s")}
    # the agreement of each case's reference with its cross-check, default discretisation
    agreement = {r.get("case"): num(r.get("agreement")) for r in references
                 if r.get("default", "").strip().lower() == "yes"}

    # discovery: cases and integrators in order of first appearance
    cases, integrators = [], []
    for src in (summary, wp, orders):
        for r in src:
            c, i = r.get("case", ""), r.get("integrator", "")
            if c and c not in cases:
                cases.append(c)
            if i and i not in integrators:
                integrators.append(i)
    case_integ = {c: [] for c in cases}
    for src in (summary,):
        for r in src:
            c, i = r.get("case", ""), r.get("integrator", "")
            if c and i and i not in case_integ[c]:
                case_integ[c].append(i)
    # time series written without a summary row
    for c in cases:
        d = os.path.join(report, c)
        if os.path.isdir(d):
            for i in sorted(os.listdir(d)):
                if i not in case_integ[c] and os.path.isfile(os.path.join(d, i,
                                                                          "timeseries.csv")):
                    case_integ[c].append(i)
                    if i not in integrators:
                        integrators.append(i)
    summary_by_key = {(r.get("case"), r.get("integrator")): r for r in summary}
    style = Style(integrators)

    md = ["# tetherbench report", ""]
    if build:
        kv = {r.get("key", ""): r.get("value", "") for r in build}
        order = ["version", "compiler", "flags", "build_type", "date", "command"]
        keys = [k for k in order if k in kv] + [k for k in kv if k not in order]
        md += ["## Build", ""]
        md += md_table(["key", "value"],
                       [[md_escape(k), f"`{md_escape(kv[k])}`" if k in ("flags", "command")
                         and kv[k] else md_escape(kv[k])] for k in keys])
        md.append("")
    else:
        md += ["_build_info.csv not found._", ""]
    top = [f"[{n}]({n})" for n in ("summary.md", "summary.csv", "work_precision.csv", "work_precision_rankings.csv",
                                     "ranking_sweep.csv",
                                     "orders.csv", "references.csv", "paper_comparison.md", "paper_comparison.csv",
                                     "setting_sweep.csv", "tolerance_sweep.md", "tolerance_sweep.csv",
                                     "parameter_map.md", "parameter_map.csv",
                                     "stability_map.md", "stability_map.csv", "stability_probes.csv",
                                     "stability_exponents.csv",
                                     "long_time.md", "long_time.csv",
                                     "benchmarks.md")
           if os.path.isfile(os.path.join(report, n))]
    if top:
        md += ["All cases: " + ", ".join(top), ""]
    if cases:
        md += ["Cases: " + ", ".join(f"[{c}](#{re.sub(r'[^a-z0-9_ -]', '', c.lower())})"
                                     .replace(" ", "-") for c in cases), ""]

    def case_figure(case, what, title, make):
        """The index lines of one figure of a case: make() returns (path, reading) or (None, _);
        a failing figure is a warning, never the loss of the rest of the report."""
        try:
            path, line = make()
        except Exception as e:
            print(f"warning: {case}: {what} figure failed: {e!r}", file=sys.stderr)
            plt.close("all")
            return []
        if not path:
            return []
        return [f"![{case}: {title}]({link(os.path.relpath(path, report))})", "", line, ""]

    for case in cases:
        md += [f"## {case}", ""]
        links = [f"[{case}/{n}]({link(case + '/' + n)})" for n in ("summary.md", "summary.csv")
                 if os.path.isfile(os.path.join(report, case, n))]
        md.append("Tables: " + (", ".join(links) if links else
                                "_no per-case summary files (see the top-level summary)_"))
        md.append("")
        case_rows = [r for r in summary if r.get("case") == case]
        if case_rows:
            md += summary_table(case_rows)
            md.append("")
        runs = case_runs(report, case, case_integ[case], summary_by_key, style)
        if not any(r["ts"] is not None for r in runs):
            md += ["_No time series found for this case._", ""]
        for fig_fn, title in ((energy_figure, "energy error"),
                              (momentum_figure, "momentum error"),
                              (orthogonality_figure, "orthogonality / constraint error")):
            md += case_figure(case, title, title, lambda: fig_fn(report, case, runs))
        md += case_figure(case, "work-precision", "work–precision",
                          lambda: work_precision_figure(report, case, wp, style, agreement.get(case),
                                                        wp_horizon.get(case)))
        try:
            for path, title in trajectory_work_precision_figures(report, case, wp, style,
                                                                 traj_agreement.get(case, {})):
                md += [f"![{case}: {title}]({link(os.path.relpath(path, report))})", ""]
            ranks = [r for r in rankings if r.get("case") == case]
            if ranks:
                md += ["**Work–precision ranking** (work_precision_rankings.csv): per discretisation, each against "
                       "its own reference, over the stated horizon (the case's [report.ranking] sweep, "
                       "ranking_sweep.csv, where it has one; a horizon under 3 of the model's slowest periods "
                       "ranks nothing: \"short-time accuracy only\"); the error is scaled_l2 (RMS over the reference "
                       "grid and every state component of the error divided by that component's range in the "
                       "reference); each curve's work interpolated at the matched error; the runtime the fastest "
                       "of the stated timing passes, its spread median / fastest − 1; neighbours within the "
                       "measured timing spread are tied (=)", ""]
                md += ranking_table(ranks)
                md.append("")
        except Exception as e:
            print(f"warning: {case}: trajectory work-precision figures failed: {e!r}", file=sys.stderr)
            plt.close("all")
        md += case_figure(case, "setting sweep", "setting sweep", lambda: setting_sweep_figure(report, case, sweeps))
        md += case_figure(case, "long-time", "long-time growth",
                          lambda: long_time_figure(report, case, long_laws, long_envelopes, style))
        o = [r for r in orders if r.get("case") == case]
        if o:
            md += ["**Measured convergence orders** (from orders.csv)", ""] + orders_table(o)
            md.append("")
        p = [r for r in paper if r.get("case") == case]
        if p:
            md += ["**Comparison with the papers** (from paper_comparison.csv)", ""]
            md += paper_table(p)
            md.append("")

    other = [r for r in paper if r.get("case") not in cases]
    if other:
        md += ["## Comparison with the papers — other cases", ""] + paper_table(other, True) + [""]

    if stability:
        md += ["## Stability map", "",
               "Largest stable step per case and fixed-step integrator, its cost, and h_max against N / link "
               "count / link mass: [stability_map.md](stability_map.md) (every probe: "
               "[stability_probes.csv](stability_probes.csv))", ""]
        try:
            path, line = stability_figure(report, stability, stability_fits)
        except Exception as e:
            print(f"warning: stability map figure failed: {e!r}", file=sys.stderr)
            plt.close("all")
            path = None
        if path:
            md += [f"![stability map]({link(os.path.relpath(path, report))})", "", line, ""]

    bench_md = os.path.join(report, "benchmarks.md")
    bench_csv = os.path.join(report, "benchmarks.csv")
    bench_png = os.path.join(report, "figures", "benchmarks_scaling.png")
    if any(os.path.isfile(p) for p in (bench_md, bench_csv, bench_png)):
        md += ["## Benchmarks", ""]
        bl = [f"[{os.path.basename(p)}]({os.path.basename(p)})" for p in (bench_md, bench_csv)
              if os.path.isfile(p)]
        if bl:
            md += ["Details: " + ", ".join(bl), ""]
        if os.path.isfile(bench_png):
            md += ["![benchmarks: scaling](figures/benchmarks_scaling.png)", ""]

    index = os.path.join(report, "index.md")
    with open(index, "w", encoding="utf-8") as f:
        f.write("\n".join(md).rstrip() + "\n")
    written.append(index)
    print("wrote:")
    for p in written:
        print("  " + p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
