#!/usr/bin/env bash
# scripts/plot_report.py on a synthetic report with the awkward inputs real runs can produce
# (failed run with a truncated time series, n/a row, external work (energy balance), non-zero
# constraint error, failed work-precision point, setting sweep (Baumgarte p) with p = 0 and a failed run, a stability map with a capped point,
# growth verdicts and a ranking as the C++ side writes them):
# it must write every figure and read them.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
/usr/bin/python3 "$here/make_synthetic_report.py" "$out" > /dev/null
/usr/bin/python3 "$here/../../scripts/plot_report.py" "$out" > /dev/null
for case in X_demo_conservative Y_demo_forced; do
  for fig in energy momentum orthogonality work_precision; do
    test -s "$out/figures/${case}_${fig}.png" || { echo "missing figure ${case}_${fig}.png"; exit 1; }
  done
done
for tag in runtime rhs; do
  test -s "$out/figures/X_demo_conservative_work_precision_trajectory_${tag}.png" || { echo "missing the trajectory work-precision figure ($tag)"; exit 1; }
done
grep -q "| — | runtime | scaled_l2 | 1 s | — | 3.0e-06 | beta = alpha |" "$out/index.md" || { echo "index.md does not quote the C++ ranking"; exit 1; }
test -s "$out/figures/X_demo_conservative_setting_sweep.png" || { echo "missing the setting sweep figure"; exit 1; }
grep -q "ida baumgarte_p sweep: max |C| 1.0e-05 at baumgarte_p = 0 (unstabilised); smallest max |C| 0 at baumgarte_p = 100" "$out/index.md" || { echo "index.md lacks the setting sweep reading"; exit 1; }
test -s "$out/figures/stability_map_sweeps.png" || { echo "missing the stability map figure"; exit 1; }
grep -q "X_demo_conservative elements: alpha p = -1.00" "$out/index.md" || { echo "index.md lacks the stability exponents"; exit 1; }
grep -q "(stability_map.md)" "$out/index.md" || { echo "index.md does not link stability_map.md"; exit 1; }
grep -q "1 failed run omitted" "$out/index.md" || { echo "index.md does not report the failed sweep run"; exit 1; }
grep -q "beta: failed: Newton did not converge at t = 12.5, step 125000" "$out/index.md" || { echo "index.md does not report the failed run by its status"; exit 1; }
grep -q "beta (to 20 s): |ΔB| max" "$out/index.md" && { echo "index.md quotes a number of the failed run"; exit 1; }
grep -q "gamma: n/a: formulation not offered" "$out/index.md" || { echo "index.md does not report the n/a pair"; exit 1; }
# Growth laws are the C++ classifier's words from summary.csv, quoted, never recomputed here.
grep -q "grows linearly (p in \[0.98, 1.02\] over 1 s - 10 s); investigate: theory predicts bounded" "$out/index.md" || { echo "index.md does not quote the summary's growth verdict"; exit 1; }
grep -q "beta max 1.0e-11$\|beta max 1.0e-11[;,]" "$out/index.md" || { echo "index.md lacks the orthogonality maximum"; exit 1; }
grep -q "energy-balance residual" "$out/index.md" || { echo "index.md ignores the energy_balance column"; exit 1; }
# A metric a run's form cannot violate (summary.csv's not_integrated): no panel, and said so.
grep -q "constraint_err: n/a (not integrated) by every run's formulation (panel omitted)" "$out/index.md" || { echo "index.md does not say the constraint error was not integrated"; exit 1; }
grep -q "constraint: beta" "$out/index.md" || { echo "index.md lacks the one integrated constraint error"; exit 1; }
# Legends by status: a completed run is never "failed" (issue 32 item 4): ok and drifting says
# "drift from t = onset", completed past the criterion "unstable from t = onset", and only a run
# that stopped "failed at t = ...". Read from the script's own label() on the synthetic runs.
/usr/bin/python3 - "$here/../../scripts/plot_report.py" "$out" <<'EOF' || exit 1
import csv, importlib.util, os, sys
spec = importlib.util.spec_from_file_location("plot_report", sys.argv[1])
pr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pr)
out = sys.argv[2]
with open(os.path.join(out, "summary.csv")) as f:
    by_key = {(r["case"], r["integrator"]): r for r in csv.DictReader(f)}
labels = {}
for case, names in (("X_demo_conservative", ["alpha", "delta", "epsilon"]), ("Y_demo_forced", ["beta"])):
    for run in pr.case_runs(out, case, names, by_key, lambda name: {"color": "k"}):
        labels[run["name"]] = pr.label(run)
want = {"alpha": "alpha", "delta": "delta (drift from t = 4.2 s)", "epsilon": "epsilon (unstable from t = 3.5 s)",
        "beta": "beta (failed at t = 12.5 s)"}
for name, text in want.items():
    if labels.get(name) != text:
        sys.exit(f"legend of {name}: {labels.get(name)!r}, expected {text!r}")
EOF
grep -q "delta (to 10 s): |ΔE| max" "$out/index.md" || { echo "index.md does not quote the drifting (ok) run's numbers"; exit 1; }
grep -q "delta: ok; drift" "$out/index.md" && { echo "index.md treats the drifting (ok) run as no result"; exit 1; }
grep -q "epsilon: unstable from t = 3.5 s (step 3500)" "$out/index.md" || { echo "index.md does not report the unstable run by its status"; exit 1; }
echo "plot_report.py: figures and readings written for the synthetic report"
