#!/usr/bin/env bash
# CI: the gate a researcher runs on their own plugins cannot be fooled (issue 34 item 3).
#   1. `gate --record` on a failing plugin exits 1 naming every failing run and writes nothing;
#      with --accept-failures it records a fails row with the failure's kind, time and step.
#   2. A run that now fails earlier than recorded (beyond the tolerance) or another way fails its gate.
#   3. The order check: the implicit midpoint rule passes (order 2); its broken variant, order 1
#      while it declares 2, fails with the measured order, its interval and the declared order.
#   4. Hints name the envelope file in use, and never the installation's data.
# Called by tests/install_examples.sh with the installed executable, the folder where
# tests/plugins/ was built, a short case file and a scratch folder.
# Usage: check_gate.sh TETHERBENCH HOSTILE_BUILD_DIR CASE_FILE WORK_DIR
set -euo pipefail
tb="$1" plugins="$2" case_file="$3" work="$4/gate"
mkdir -p "$work"
fail() { echo "check_gate: $*" >&2; exit 1; }
throwing="$plugins/libthrows_in_step.so"
midpoint="$plugins/libimplicit_midpoint.so"
broken="$plugins/libimplicit_midpoint_broken.so"
case_name="$(basename "$case_file" .toml)"

# 1. Recording a failing run: refused, status 1, the run named with its status, nothing written.
status=0
"$tb" --plugin "$throwing" gate --integrator throwing_method --envelopes "$work/fails.csv" --record "$case_file" \
  >"$work/record.out" 2>"$work/record.err" || status=$?
[ "$status" -eq 1 ] || { cat "$work/record.err"; fail "gate --record on a failing plugin: expected status 1, got $status"; }
grep -q "^  case $case_name, run throwing_method: failed: exception: plugin bug in step at t = 0 s, step 1$" "$work/record.err" ||
  fail "the refusal does not name the failing run: $(cat "$work/record.err")"
grep -q -- "--accept-failures" "$work/record.err" || fail "the refusal does not say how to accept the failure"
[ ! -e "$work/fails.csv" ] || fail "gate --record wrote the envelope file although it refused"
echo "record refused (1):"; sed 's/^/  /' "$work/record.err"
# ... accepted: one fails row with its kind, time and step; then the gate passes.
"$tb" --plugin "$throwing" gate --integrator throwing_method --envelopes "$work/fails.csv" --record --accept-failures \
  "$case_file" >"$work/accept.out" || fail "gate --record --accept-failures failed"
row="$(grep "^$case_name,throwing_method," "$work/fails.csv")"
[ "$(grep -c "^$case_name,throwing_method," "$work/fails.csv")" -eq 1 ] || fail "expected one row for the failing run"
[[ "$row" == "$case_name,throwing_method,outcome,fails,0,recorded,0,exception,1,\"failed: exception: plugin bug in step at t = 0 s, step 1\"" ]] ||
  fail "unexpected fails row: $row"
echo "recorded with --accept-failures: $(cat "$work/accept.out")"; echo "  $row"
"$tb" --plugin "$throwing" gate --integrator throwing_method --envelopes "$work/fails.csv" "$case_file" >"$work/gate_fails.out" ||
  { cat "$work/gate_fails.out"; fail "the accepted failure does not pass its gate"; }
# 2. Recorded as failing later (at 0.5 s, step 1001): it now fails at step 1, earlier than the tolerance allows.
sed -E "s/^($case_name,throwing_method,outcome,fails),0,recorded,0,exception,1,/\1,0.45,recorded,0.5,exception,1001,/" \
  "$work/fails.csv" >"$work/later.csv"
grep -q ",0.45,recorded,0.5,exception,1001," "$work/later.csv" || fail "could not edit the recorded time"
status=0
"$tb" --plugin "$throwing" gate --integrator throwing_method --envelopes "$work/later.csv" "$case_file" >"$work/earlier.out" || status=$?
[ "$status" -eq 1 ] || fail "a run failing earlier than recorded: expected status 1, got $status"
grep -q "GATE FAILED: case $case_name, integrator throwing_method: fails earlier than recorded: now exception at t = 0 s, step 1, recorded exception at t = 0.5 s, step 1001; the gate allows no earlier than t = 0.45 s (10% of the recorded time or 5 steps, whichever is more" "$work/earlier.out" ||
  fail "unexpected message: $(cat "$work/earlier.out")"
echo "failing earlier (1): $(grep 'GATE FAILED' "$work/earlier.out")"
# ... and recorded as failing another way.
sed -E "s/,recorded,0,exception,1,/,recorded,0,diverged,1,/" "$work/fails.csv" >"$work/other.csv"
status=0
"$tb" --plugin "$throwing" gate --integrator throwing_method --envelopes "$work/other.csv" "$case_file" >"$work/other.out" || status=$?
[ "$status" -eq 1 ] && grep -q "fails another way: now exception at t = 0 s, step 1" "$work/other.out" ||
  fail "a run failing another way: expected status 1, got $status: $(cat "$work/other.out")"

# 3. The order check. The good midpoint: its envelopes recorded, then its gate passes, order ~2.
for plugin in "$midpoint" "$broken"; do
  name="$(basename "$plugin" .so)"; name="${name#lib}"
  "$tb" --plugin "$plugin" gate --integrator "$name" --envelopes "$work/$name.csv" --record "$case_file" >/dev/null ||
    fail "recording $name failed"
done
"$tb" --plugin "$midpoint" gate --integrator implicit_midpoint --envelopes "$work/implicit_midpoint.csv" "$case_file" \
  >"$work/midpoint.out" || { cat "$work/midpoint.out"; fail "the implicit midpoint's gate does not pass"; }
order_line="$(grep "integrator implicit_midpoint, order: " "$work/midpoint.out")" || fail "no order check of the midpoint"
[[ "$order_line" =~ ^"gate ok:     case $case_name, integrator implicit_midpoint, order: measured "(1\.9[5-9][0-9]*|2|2\.0[0-4][0-9]*)" ± " ]] ||
  fail "the midpoint's order: $order_line"
echo "good midpoint: $order_line"
# The broken variant (order 1, declares 2): its own envelopes pass, its order fails the gate.
status=0
"$tb" --plugin "$broken" gate --integrator implicit_midpoint_broken --envelopes "$work/implicit_midpoint_broken.csv" "$case_file" \
  >"$work/broken.out" || status=$?
[ "$status" -eq 1 ] || { cat "$work/broken.out"; fail "the broken midpoint's gate: expected status 1, got $status"; }
grep -q "^GATE FAILED: case $case_name, integrator implicit_midpoint_broken, order: measured \(0\.9[5-9][0-9]*\|1\|1\.0[0-4][0-9]*\) ± .*declared 2: order reduction" "$work/broken.out" ||
  fail "the broken midpoint's order message: $(cat "$work/broken.out")"
[ "$(grep -c '^GATE FAILED' "$work/broken.out")" -eq 1 ] || fail "expected only the order check to fail: $(cat "$work/broken.out")"
echo "broken midpoint (1): $(grep 'GATE FAILED' "$work/broken.out")"
# The broken variant against the good one's envelopes (the researcher's situation: the bug
# lands after the envelopes were recorded): what the conservation envelopes alone would say.
sed "s/,implicit_midpoint,/,implicit_midpoint_broken,/" "$work/implicit_midpoint.csv" >"$work/good_for_broken.csv"
"$tb" --plugin "$broken" gate --integrator implicit_midpoint_broken --envelopes "$work/good_for_broken.csv" "$case_file" \
  >"$work/broken_vs_good.out" || true
echo "broken midpoint against the good one's envelopes: $(grep -c '^gate ok' "$work/broken_vs_good.out") ok, $(grep -c '^GATE FAILED' "$work/broken_vs_good.out") failed:"
grep "^GATE FAILED" "$work/broken_vs_good.out" | sed 's/^/  /'

# 4. Hints. A missing row is reported against the file in use, with a command that records into it.
: >"$work/empty_rows.csv"
head -n 20 "$work/implicit_midpoint.csv" | grep '^#\|^case,' >"$work/empty_rows.csv"
status=0
"$tb" --plugin "$midpoint" gate --integrator implicit_midpoint --envelopes "$work/empty_rows.csv" "$case_file" >"$work/hint.out" || status=$?
[ "$status" -eq 1 ] || fail "a run without an envelope: expected status 1, got $status"
grep -q -F "no envelope in $work/empty_rows.csv (record one with \`tetherbench --plugin $midpoint gate --record $case_file --integrator implicit_midpoint --envelopes $work/empty_rows.csv\`)" "$work/hint.out" ||
  fail "the missing-row hint does not name the file in use: $(cat "$work/hint.out")"
# The installation's bundled envelopes: the hint names the user's own file, never share/; and
# --record refuses to write there (status 2, the file unchanged).
prefix_share="$(cd "$(dirname "$tb")/../share/tetherbench" && pwd)"
before="$(cksum <"$prefix_share/reference/envelopes.csv")"
"$tb" --plugin "$midpoint" gate "$case_file" --integrator implicit_midpoint >"$work/installed.out" || true
grep -q -F "no envelope in $prefix_share/reference/envelopes.csv (the installation's; record your own runs into your own file with --envelopes) (record one with \`tetherbench --plugin $midpoint gate --record $case_file --integrator implicit_midpoint --envelopes my_envelopes.csv\`)" "$work/installed.out" ||
  fail "the hint on the installation's envelopes: $(grep 'no envelope' "$work/installed.out")"
if grep -q '`[^`]*share/tetherbench[^`]*`' "$work/installed.out"; then fail "a suggested command points into the installation"; fi
status=0
"$tb" --plugin "$midpoint" gate --record "$case_file" --integrator implicit_midpoint >/dev/null 2>"$work/installed_record.err" || status=$?
[ "$status" -eq 2 ] && grep -q "the envelopes bundled with the installation are not recorded into" "$work/installed_record.err" ||
  fail "gate --record into the installation: expected status 2, got $status: $(cat "$work/installed_record.err")"
[ "$before" = "$(cksum <"$prefix_share/reference/envelopes.csv")" ] || fail "the installation's envelopes were changed"
echo "hints: the file in use; the installation's envelopes never recorded into"
echo "check_gate: ok"
