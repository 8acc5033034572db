#!/usr/bin/env bash
# The report's figures, end to end on a small real report (issue 33 items 4-5): `tetherbench
# report` on two shortened bundled cases (Model C's single multirotor to 2 s, which has a failed
# run, identically-zero quantities, P and the payload; the planar pendulum) writes the figure
# plan, scripts/plot_report.py draws it, and check_figures.py holds the figures to the rules.
# Skipped (77) only when /usr/bin/python3 lacks matplotlib.
#   check_figures.sh TETHERBENCH SOURCE_DIR
set -euo pipefail
tetherbench="$1"
src="$2"
/usr/bin/python3 -c "import matplotlib, numpy" 2> /dev/null || { echo "SKIP: /usr/bin/python3 lacks matplotlib"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The main horizon shortened (and the per-integrator horizons dropped) so the test runs in about a
# minute; the references, orders and ranking sweep keep the bundled case's own horizons.
sed -e 's/^t_end = 1000.0/t_end = 2.0/' -e '/^integrator_t_end/d' -e 's/^t_end = 10.0   */t_end = 0.5 /' \
    -e 's/^t_end = 1.0  /t_end = 0.2  /' -e 's/^sample_interval = 0.1$/sample_interval = 0.25/' \
    "$src/cases/C_single_multirotor.toml" > "$work/C_single_multirotor.toml"
# (samples every 0.25 s: rk2, which diverges at 0.216 s, has none after t = 0, a run that measured nothing)
grep -q '^sample_interval = 0.25' "$work/C_single_multirotor.toml" || { echo "the case's sample_interval line changed: update this test"; exit 1; }
grep -q '^t_end = 2.0' "$work/C_single_multirotor.toml" || { echo "the case's t_end line changed: update this test"; exit 1; }
cp "$src/cases/T_planar_pendulum_60deg.toml" "$work/"
# Its exit status is 1 (rk2 fails at the case's step, a run that is no result), so the report is
# judged by what it wrote.
"$tetherbench" report --out "$work/rep" --no-benchmarks --jobs 2 "$work/C_single_multirotor.toml" \
    "$work/T_planar_pendulum_60deg.toml" > "$work/log" 2>&1 || true
grep -q "^report written to" "$work/log" && grep -q "figures drawn" "$work/log" || { tail -20 "$work/log"; echo "report failed"; exit 1; }
/usr/bin/python3 "$src/tests/plot_report/check_figures.py" "$work/rep"
