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
# The main horizon shortened (and the per-integrator horizons dropped) so the test runs in about half a
# minute; the references and orders keep the bundled case's own horizons. The two
# studies that draw no figure, the work-precision ranking and the parameter map, are left out
# (the report test runs them; here they were half of the report's job seconds).
sed -e 's/^t_end = 1000.0/t_end = 2.0/' -e '/^integrator_t_end/d' -e 's/^t_end = 10.0   */t_end = 0.5 /' \
    -e 's/^t_end = 1.0  /t_end = 0.2  /' -e 's/^sample_interval = 0.1$/sample_interval = 0.25/' \
    -e '/^\[report.ranking\]/,/^$/d' -e '/^\[report.parameter_map\]/,/^$/d' \
    "$src/cases/C_single_multirotor.toml" > "$work/C_single_multirotor.toml"
# (samples every 0.25 s: rk2, which diverges at 0.216 s, has none after t = 0, a run that measured nothing)
grep -q '^sample_interval = 0.25' "$work/C_single_multirotor.toml" || { echo "the case's sample_interval line changed: update this test"; exit 1; }
grep -q '^t_end = 2.0' "$work/C_single_multirotor.toml" || { echo "the case's t_end line changed: update this test"; exit 1; }
# Each [report.*] section that is kept is cut to a short horizon (a sed that stopped matching once
# left the ranking sweep at its 10 s); the ones left out are gone.
if grep -q '^\[report\.\(ranking\|parameter_map\)\]' "$work/C_single_multirotor.toml" ||
   awk '/^\[report\./ { s = 1 } /^\[/ && !/^\[report\./ { s = 0 } s && /^t_end *=/ && $3 + 0 > 0.5' \
       "$work/C_single_multirotor.toml" | grep -q .; then
  echo "the case's [report.*] sections changed: update this test"; exit 1
fi
# The pendulum's long-time study over 20 000 steps instead of 10^6 (as tests/install_examples.sh
# does): its figures are drawn and checked the same, for 5 of the report's 36 job seconds less.
sed -E 's/^long_time_steps *= *[0-9]+/long_time_steps = 20000/' "$src/cases/T_planar_pendulum_60deg.toml" \
    > "$work/T_planar_pendulum_60deg.toml"
grep -q '^long_time_steps = 20000' "$work/T_planar_pendulum_60deg.toml" || { echo "the case's long_time_steps line changed: update this test"; exit 1; }
# The stability map's sweep figure is drawn from two of the case's keys at three cheap values each
# (the bundled sweep's smallest link mass and longest cable cost most).
sweeps='stability_map.sweeps=C_single_multirotor:links_per_cable=3,5,10;C_single_multirotor:link_mass=0.00125,0.005,0.02'
# Its exit status is 1 (rk2 fails at the case's step, a run that is no result), so the report is
# judged by what it wrote.
"$tetherbench" report --out "$work/rep" --no-benchmarks --jobs 2 --param "$sweeps" "$work/C_single_multirotor.toml" \
    "$work/T_planar_pendulum_60deg.toml" > "$work/log" 2>&1 || true
grep -q "^report written to" "$work/log" && grep -q "figures drawn" "$work/log" || { tail -20 "$work/log"; echo "report failed"; exit 1; }
/usr/bin/python3 "$src/tests/plot_report/check_figures.py" "$work/rep"

# Run again into the same folder with nothing changed (issue 43): every job is reused and every
# figure kept from the store (rep/.jobs/figures), and the kept figures pass the same checks.
"$tetherbench" report --out "$work/rep" --no-benchmarks --jobs 2 --param "$sweeps" "$work/C_single_multirotor.toml" \
    "$work/T_planar_pendulum_60deg.toml" > "$work/log2" 2>&1 || true
grep -q "jobs: 0 run, [1-9][0-9]* reused" "$work/log2" || { tail -20 "$work/log2"; echo "the unchanged report ran jobs again"; exit 1; }
total="$(sed -n 's/^plot_report: \([0-9]*\) of \([0-9]*\) figures drawn.*/\2/p' "$work/log2")"
grep -q "^plot_report: $total of $total figures drawn ($total kept from the store" "$work/log2" ||
  { grep plot_report "$work/log2"; echo "the unchanged report drew figures again"; exit 1; }
/usr/bin/python3 "$src/tests/plot_report/check_figures.py" "$work/rep"
# One run's time series changed: that case's figures are drawn again, the other case's kept.
series="$(ls "$work"/rep/T_planar_pendulum_60deg/*/timeseries.csv | head -1)"
tail -n 1 "$series" >> "$series"  # its last sample twice: other bytes, the same curve
/usr/bin/python3 "$src/scripts/plot_report.py" "$work/rep" --store "$work/rep/.jobs/figures" 2> "$work/log3"
kept="$(sed -n 's/.*(\([0-9]*\) kept from the store.*/\1/p' "$work/log3")"
[ -n "$kept" ] && [ "$kept" -gt 0 ] && [ "$kept" -lt "$total" ] ||
  { cat "$work/log3"; echo "a changed time series: expected only its case's figures drawn again"; exit 1; }
# --fresh draws every figure again and still writes the store: the report after it keeps them all
# (before, a --fresh report stored none, and the next one drew every figure again).
/usr/bin/python3 "$src/scripts/plot_report.py" "$work/rep" --store "$work/rep/.jobs/figures" --fresh 2> "$work/log4"
grep -q "^plot_report: $total of $total figures drawn\$" "$work/log4" ||
  { cat "$work/log4"; echo "--fresh: expected every figure drawn"; exit 1; }
/usr/bin/python3 "$src/scripts/plot_report.py" "$work/rep" --store "$work/rep/.jobs/figures" 2> "$work/log5"
grep -q "^plot_report: $total of $total figures drawn ($total kept from the store" "$work/log5" ||
  { cat "$work/log5"; echo "after --fresh: expected every figure kept from the store"; exit 1; }
echo "figure store: $total figures kept when unchanged, $((total - kept)) drawn again after one series changed, all kept after a --fresh run"
