#!/usr/bin/env bash
# CI: a plugin is first-class (issue 34 item 5), against a staged installation.
#   1. examples/integrator_rk3 with CMAKE_CXX_STANDARD and the default build type taken out of its
#      CMakeLists.txt, configured Debug: it compiles (the package's targets require C++20), and
#      its TETHERBENCH_PLUGIN records how it was built.
#   2. report --integrator (the plugin and one built-in) on a case of the user's and a bundled
#      one: only those runs in every table, the user's case read from their --reference-dir and
#      the bundled case from the bundled folder, build_info.csv recording the plugin's build,
#      the unoptimised-build warning on stderr and in index.md, and the benchmarks measuring the
#      plugin's integrator (and only the chosen ones).
#   3. The benchmark binary takes --plugin and TETHERBENCH_PLUGINS itself.
#   4. A missing reference names the folders searched and a command writing into the user's
#      folder, never into the installation; `reference` without --out refuses the installation.
# Usage: plugins_first_class.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1" build="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "plugins_first_class: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
prefix="$work/prefix"
tb="$prefix/bin/tetherbench"
bench="$prefix/bin/tetherbench_benchmarks"
bundled_ref="$prefix/share/tetherbench/reference"

# 1. The example without CMAKE_CXX_STANDARD, Debug.
cp -r "$src/examples/integrator_rk3" "$work/rk3"
sed -i -e '/CMAKE_CXX_STANDARD/d' -e '/^if(NOT CMAKE_BUILD_TYPE)/,/^endif()/d' "$work/rk3/CMakeLists.txt"
if grep -q -e CMAKE_CXX_STANDARD -e CMAKE_BUILD_TYPE "$work/rk3/CMakeLists.txt"; then fail "the example still sets the standard or build type"; fi
cmake -S "$work/rk3" -B "$work/rk3/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Debug >/dev/null ||
  fail "configuring the example without CMAKE_CXX_STANDARD failed"
cmake --build "$work/rk3/build" >"$work/rk3_build.log" 2>&1 || { cat "$work/rk3_build.log"; fail "the example without CMAKE_CXX_STANDARD does not compile"; }
rk3="$work/rk3/build/librk3_plugin.so"
echo "rk3 compiled without CMAKE_CXX_STANDARD (Debug)"

# 2. A case of the user's (the bundled pendulum under another name, its long runs shortened)
# with its references in the user's folder, beside the bundled case.
bundled_case="$prefix/share/tetherbench/cases/T_planar_pendulum_60deg.toml"
sed -E -e 's/^name = "T_planar_pendulum_60deg"/name = "T_my_pendulum"/' -e 's/^long_time_steps *= *[0-9]+/long_time_steps = 20000/' \
  "$bundled_case" >"$work/T_my_pendulum.toml"
grep -q '^name = "T_my_pendulum"' "$work/T_my_pendulum.toml" || fail "no case name to change"
"$tb" reference "$work/T_my_pendulum.toml" --out "$work/my_reference" >/dev/null || fail "reference --out for the user's case failed"
# One built-in beside the plugin, from the installation's own list (not named here by hand): the
# first ODE integrator without settings (a plain fixed-step method: cheap in the benchmarks at
# every N) that `list` says runs the case.
"$tb" list >"$work/list.txt"
plain="$(awk '/^Integrators:/{on=1; next} /^$/{on=0} on && /^  [a-z]/{if (name != "" && !settings) print name; name = ($5 == "embedded-ode") ? $1 : ""; settings = 0; next} on && /^      /{settings = 1} END{if (name != "" && !settings) print name}' "$work/list.txt")"
applies="$(awk '/^  T_planar_pendulum_60deg /{on=1; next} on && /^  [A-Z]/{on=0} on && $2=="yes"{print $1}' "$work/list.txt")"
builtin="$(grep -x -F -f <(echo "$applies") <(echo "$plain") | head -1 || true)"
[ -n "$builtin" ] || fail "no fixed-step ODE integrator runs the pendulum"
status=0
"$tb" report --plugin "$rk3" "$work/T_my_pendulum.toml" "$bundled_case" --integrator rk3 --integrator "$builtin" \
  --reference-dir "$work/my_reference" --no-plots --jobs 2 --out "$work/report" >"$work/report.out" 2>"$work/report.err" || status=$?
[ "$status" -le 1 ] || { cat "$work/report.err"; fail "report --integrator --reference-dir exited $status"; }
runs="$(tail -n +2 "$work/report/summary.csv" | cut -d, -f2 | sort -u | tr '\n' ' ')"
expected="$(printf '%s\n' rk3 "$builtin" | sort | tr '\n' ' ')"
[ "$runs" = "$expected" ] || fail "summary.csv runs '$runs', expected only '$expected'"
for c in T_my_pendulum T_planar_pendulum_60deg; do
  grep -q "^$c,rk3,3," "$work/report/orders.csv" || fail "orders.csv has no rk3 order on $c (its reference not read?)"
done
if tail -n +2 "$work/report/orders.csv" | cut -d, -f2 | grep -qv -e '^rk3$' -e "^$builtin\$"; then fail "orders.csv holds integrators not chosen"; fi
echo "report --integrator rk3 --integrator $builtin: runs $runs; orders on the user's and the bundled case"
grep -q "^plugin rk3_example build,\"NOT optimised (build type Debug, assertions on)\"$" "$work/report/build_info.csv" ||
  fail "build_info.csv does not record the plugin's Debug build: $(grep '^plugin' "$work/report/build_info.csv")"
grep -q "^plugin rk3_example flags,.*-g" "$work/report/build_info.csv" || fail "build_info.csv does not record the plugin's flags"
grep -q "^integrators,.*chosen with --integrator" "$work/report/build_info.csv" || fail "build_info.csv does not say the integrators were chosen"
grep -q "warning: plugin rk3_example .* is not an optimised build .*not comparable" "$work/report.err" ||
  fail "no warning on stderr about the Debug plugin"
grep -q "^\*\*Warning: rk3_example is not an optimised build\*\*" "$work/report/index.md" || fail "index.md does not warn about the Debug plugin"
grep -q "Among the integrators this report ran only" "$work/report/index.md" || fail "index.md does not say it ran a selection"
echo "build_info.csv: $(grep '^plugin rk3_example build' "$work/report/build_info.csv")"
# The report's benchmarks took the plugin and the selection.
grep -q '"name": "step/string_pendulum/rk3/N:10"' "$work/report/benchmarks.json" || fail "the report's benchmarks did not measure rk3"
names="$(grep -o '"name": "step/[a-z_]*/[a-z0-9_]*/' "$work/report/benchmarks.json" | cut -d/ -f3 | sort -u | tr '\n' ' ')"
for name in $names; do [ "$name" = rk3 ] || [ "$name" = "$builtin" ] || fail "the benchmarks measured $name, not chosen"; done
grep -q "^step/string_pendulum/rk3/N:10,string_pendulum,rk3," "$work/report/benchmarks.csv" || fail "benchmarks.csv has no rk3 row"
echo "report benchmarks measured: $names"

# 3. The benchmark binary on its own: the plugin by --plugin and by TETHERBENCH_PLUGINS.
"$bench" --plugin "$rk3" --benchmark_filter='rk3/N:10$' --benchmark_min_time=0.001 >"$work/bench1.out" 2>&1 ||
  { cat "$work/bench1.out"; fail "benchmarks --plugin failed"; }
grep -q "^step/string_pendulum/rk3/N:10 " "$work/bench1.out" || fail "benchmarks --plugin did not run rk3"
TETHERBENCH_PLUGINS="$rk3" "$bench" --benchmark_filter='string_pendulum/rk3/N:10$' --benchmark_min_time=0.001 >"$work/bench2.out" 2>&1 ||
  fail "benchmarks with TETHERBENCH_PLUGINS failed"
grep -q "^step/string_pendulum/rk3/N:10 " "$work/bench2.out" || fail "benchmarks with TETHERBENCH_PLUGINS did not run rk3"
status=0
"$bench" --plugin "$work/missing.so" >"$work/bench3.out" 2>&1 || status=$?
[ "$status" -eq 2 ] && grep -q "$work/missing.so: no such file" "$work/bench3.out" || fail "benchmarks with a missing plugin: status $status"
echo "benchmarks: $(grep '^step/string_pendulum/rk3/N:10 ' "$work/bench1.out")"

# 4. Hints never write into the installation.
sed -E 's/^name = "T_my_pendulum"/name = "T_no_reference"/' "$work/T_my_pendulum.toml" >"$work/T_no_reference.toml"
status=0
"$tb" report "$work/T_no_reference.toml" --reference-dir "$work/my_reference" --no-benchmarks --no-plots --out "$work/never" \
  >/dev/null 2>"$work/missing.err" || status=$?
[ "$status" -eq 2 ] || fail "a case without references: expected status 2, got $status"
grep -q -F "searched $work/my_reference, then the bundled $bundled_ref" "$work/missing.err" || fail "the folders searched are not named: $(cat "$work/missing.err")"
grep -q -F "reference $work/T_no_reference.toml --out $work/my_reference\`" "$work/missing.err" || fail "the hint does not write into the user's folder: $(cat "$work/missing.err")"
status=0
"$tb" report "$work/T_no_reference.toml" --no-benchmarks --no-plots --out "$work/never" >/dev/null 2>"$work/missing2.err" || status=$?
[ "$status" -eq 2 ] && grep -q -F -- "--out my_reference\`, then give the report --reference-dir my_reference" "$work/missing2.err" ||
  fail "without --reference-dir the hint must name a folder of the user's: $(cat "$work/missing2.err")"
if grep -q -F -- "--out $prefix" "$work/missing.err" "$work/missing2.err"; then fail "a hint writes into the installation"; fi
[ ! -e "$work/never" ] || fail "something was written for a case without references"
status=0
"$tb" reference "$work/T_no_reference.toml" >/dev/null 2>"$work/reference.err" || status=$?
[ "$status" -eq 2 ] && grep -q "expected a folder of yours" "$work/reference.err" || fail "reference without --out wrote into the installation?"
[ ! -e "$bundled_ref/T_no_reference" ] || fail "reference wrote into the installation"
echo "hint: $(cat "$work/missing.err")"
echo "plugins_first_class: ok"
