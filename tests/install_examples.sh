#!/usr/bin/env bash
# CI: tetherbench as a researcher uses it from their own repository.
#   1. `cmake --install` into a staging prefix; the installed files hold no path of the source
#      or build tree, and the installation works after being moved.
#   2. examples/integrator_rk3 and examples/model_spring_chain (and the adaptive, partitioned and
#      study examples, each run once) build against it with
#      find_package(tetherbench) and load with --plugin: their rows in `report`, their envelopes
#      with `gate --envelopes THEIRS --record` and then the gate itself, and fingerprints that
#      follow the plugin's file (--resume reuses every job of the same plugin and reruns the
#      plugin's jobs when its file changes).
#   3. Hostile plugins (tests/plugins/) are refused with status 2 naming the file and what was
#      expected; an exception inside a plugin's step fails that run only.
#   4. Under mpirun (when the build has MPI), every rank loads the plugin: its rows as threaded.
#   5. The gate on the test plugins (tests/plugins/check_gate.sh): failing runs are not recorded
#      unasked, fails rows keep their kind and time, and a broken order fails.
#   6. The Python package, installed in PREFIX/lib/python3/dist-packages/tetherbench and moved with
#      the prefix, imports with PYTHONPATH pointing there from a folder outside the checkout, finds
#      the installation's data, runs a case, and loads the rk3 example built against it.
# Usage: install_examples.sh SOURCE_DIR BUILD_DIR [MPIEXEC]
set -euo pipefail
src="$1" build="$2" mpiexec="${3:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "install_examples: $*" >&2; exit 1; }
jobs=2

cmake --install "$build" --prefix "$work/stage" >/dev/null
# Nothing absolute from the source or build tree in what is installed (data links are copies).
for f in "$work"/stage/bin/* "$work"/stage/lib/*.so* "$work"/stage/lib/python3/dist-packages/tetherbench/*; do
  if grep -q -a -e "$src" -e "$build" "$f"; then fail "$f holds a path of the source or build tree"; fi
done
[ -z "$(find "$work/stage" -type l -lname '/*')" ] || fail "the installation holds absolute symbolic links"
# A moved installation finds its data next to itself.
mv "$work/stage" "$work/prefix"
prefix="$work/prefix"
tb="$prefix/bin/tetherbench"
"$tb" list >"$work/list.txt" || fail "the moved installation's 'list' failed"
grep -q "Bundled cases ($prefix/share/tetherbench/cases)" "$work/list.txt" || fail "list does not read the installed cases"

# The examples, built as a researcher would, and the hostile plugins of tests/plugins: each its own
# project, configured and built side by side (a configure runs on one core; issue 43).
build_project() {  # SOURCE NAME: its log in $work/NAME.log, its status in the file $work/NAME.status
  { cmake -S "$1" -B "$work/$2" -DCMAKE_PREFIX_PATH="$prefix" && cmake --build "$work/$2" -j"$jobs"; } \
    >"$work/$2.log" 2>&1
  echo $? >"$work/$2.status"
}
projects=()
for example in integrator_rk3 model_spring_chain integrator_bs23 integrator_symplectic_euler study_observed_order; do
  build_project "$src/examples/$example" "build_$example" &
  projects+=("build_$example:examples/$example")
done
build_project "$src/tests/plugins" build_hostile &
projects+=("build_hostile:tests/plugins")
wait
for project in "${projects[@]}"; do
  [ "$(cat "$work/${project%%:*}.status")" = 0 ] ||
    { tail -20 "$work/${project%%:*}.log"; fail "configuring or building ${project#*:} against the installation failed"; }
done
rk3="$work/build_integrator_rk3/librk3_plugin.so"
chain="$work/build_model_spring_chain/libspring_chain_plugin.so"
bs23="$work/build_integrator_bs23/libbs23_plugin.so"
symplectic_euler="$work/build_integrator_symplectic_euler/libsymplectic_euler_plugin.so"
observed_order="$work/build_study_observed_order/libobserved_order_plugin.so"

# A short case: the planar pendulum with its long-time runs cut to 20000 steps.
sed -E 's/^long_time_steps *= *[0-9]+/long_time_steps = 20000/' "$prefix/share/tetherbench/cases/T_planar_pendulum_60deg.toml" \
  >"$work/T_planar_pendulum_60deg.toml"
grep -q '^long_time_steps = 20000' "$work/T_planar_pendulum_60deg.toml" || fail "no long_time_steps to shorten"
case_file="$work/T_planar_pendulum_60deg.toml"

# The integrator plugin in `list` and in a report, with its rows and the manifest.
"$tb" --plugin "$rk3" list >"$work/list_rk3.txt"
grep -q "^  rk3 .*plugin rk3_example 1.0.0" "$work/list_rk3.txt" || fail "list does not show rk3 from its plugin"
status=0
"$tb" report --plugin "$rk3" "$case_file" --no-benchmarks --no-plots --jobs "$jobs" --out "$work/report" \
  >"$work/report.out" 2>"$work/report.err" || status=$?
[ "$status" -le 1 ] || { cat "$work/report.err"; fail "report --plugin exited $status"; }
grep -q "^T_planar_pendulum_60deg,rk3,.*,ok," "$work/report/summary.csv" || fail "summary.csv has no ok row for rk3"
grep -q "^T_planar_pendulum_60deg,rk3," "$work/report/work_precision.csv" || fail "work_precision.csv has no rk3 rows"
grep -q "^T_planar_pendulum_60deg,rk3,3," "$work/report/orders.csv" || fail "orders.csv has no rk3 row of declared order 3"
grep -q "^plugin rk3_example,.*1.0.0, file hash [0-9a-f]\{16\}" "$work/report/build_info.csv" ||
  fail "build_info.csv does not record the plugin"
echo "report --plugin rk3: $(grep -c '^T_planar_pendulum_60deg,rk3' "$work/report/summary.csv") summary row(s) for rk3"

# Fingerprints follow the plugin: the same file reuses every job; a changed file reruns its jobs
# (and only those).
"$tb" report --plugin "$rk3" "$case_file" --no-benchmarks --no-plots --jobs "$jobs" --resume --out "$work/report" \
  >/dev/null 2>"$work/resume_same.err" || true
grep -q "jobs: 0 run" "$work/resume_same.err" || { cat "$work/resume_same.err"; fail "resume with the same plugin reran jobs"; }
cp "$rk3" "$work/rk3_changed.so" && printf 'x' >>"$work/rk3_changed.so"
"$tb" report --plugin "$work/rk3_changed.so" "$case_file" --no-benchmarks --no-plots --jobs "$jobs" --resume \
  --out "$work/report" >/dev/null 2>"$work/resume_changed.err" || true
ran="$(grep -o 'jobs: [0-9]* run, [0-9]* reused' "$work/resume_changed.err" | head -1)"
read -r _ n_ran _ n_reused _ <<<"$ran"
[ "${n_ran:-0}" -gt 0 ] && [ "${n_reused:-0}" -gt 0 ] || fail "a changed plugin file: expected its jobs rerun and the rest reused, got '$ran'"
echo "resume: same plugin reruns nothing; changed plugin file: $ran"

# The researcher's own gates: envelopes recorded into their file, then checked.
"$tb" gate --plugin "$rk3" --integrator rk3 --envelopes "$work/my_envelopes.csv" --record "$case_file" >/dev/null ||
  fail "gate --record into a new envelope file failed"
grep -q "^T_planar_pendulum_60deg,rk3,energy_err_max,max," "$work/my_envelopes.csv" || fail "no rk3 envelope recorded"
if grep -q ",rk4," "$work/my_envelopes.csv"; then fail "--integrator rk3 recorded other integrators too"; fi
"$tb" gate --plugin "$rk3" --integrator rk3 --envelopes "$work/my_envelopes.csv" "$case_file" >"$work/gate.out" ||
  { cat "$work/gate.out"; fail "the recorded gate does not pass"; }
echo "gate: $(tail -1 "$work/gate.out")"

# The model plugin: its reference solutions in the researcher's folder, then a report on every
# integrator that applies.
cp "$src/examples/model_spring_chain/cases/T_spring_chain.toml" "$work/"
sed -i -E 's/^long_time_steps *= *[0-9]+/long_time_steps = 20000/' "$work/T_spring_chain.toml"
"$tb" --plugin "$chain" reference "$work/T_spring_chain.toml" --out "$work/my_reference" >/dev/null ||
  fail "reference for the plugin model failed"
status=0
"$tb" report --plugin "$chain" "$work/T_spring_chain.toml" --reference-dir "$work/my_reference" --no-benchmarks --no-plots \
  --jobs "$jobs" --out "$work/chain_report" >/dev/null 2>"$work/chain.err" || status=$?
[ "$status" -le 1 ] || { cat "$work/chain.err"; fail "report on the plugin model exited $status"; }
for integrator in rk4 rk45 cvode; do
  grep -q "^T_spring_chain,$integrator,.*,ok," "$work/chain_report/summary.csv" || fail "no ok row of $integrator on the plugin model"
done
grep -q "^T_spring_chain,lgvi,.*n/a" "$work/chain_report/summary.csv" || fail "lgvi is not n/a on the plugin model"
echo "report --plugin spring_chain: $(grep -c '^T_spring_chain,' "$work/chain_report/summary.csv") rows"

# Both plugins at once, one from the environment.
TETHERBENCH_PLUGINS="$chain" "$tb" --plugin "$rk3" list >"$work/list_both.txt"
grep -q "spring_chain .*plugin spring_chain_example" "$work/list_both.txt" || fail "TETHERBENCH_PLUGINS was not loaded"
grep -q "^  rk3 " "$work/list_both.txt" || fail "--plugin beside TETHERBENCH_PLUGINS was not loaded"

# Hostile plugins: status 2, the file named, what was expected said, nothing written.
printf 'not a library\n' >"$work/notes.so"
refuse() {  # FILE EXPECTED-TEXT
  local status=0
  "$tb" --plugin "$1" table "$case_file" --out "$work/never" >/dev/null 2>"$work/refused.err" || status=$?
  [ "$status" -eq 2 ] || fail "--plugin $1: expected status 2, got $status"
  grep -q -F "$1" "$work/refused.err" || fail "--plugin $1: the message does not name the file: $(cat "$work/refused.err")"
  grep -q -F "$2" "$work/refused.err" || fail "--plugin $1: expected '$2' in: $(cat "$work/refused.err")"
  [ ! -e "$work/never" ] || fail "--plugin $1: something was written"
  echo "refused (2): $(cat "$work/refused.err")"
}
refuse "$work/notes.so" "cannot be loaded"
refuse "$work/missing.so" "no such file"
refuse "$work/build_hostile" "is a directory; expected the plugin's shared library file in it"
refuse "$work/build_hostile/libother_kernel_version.so" "built against tetherbench kernel 0.0.1"
refuse "$work/build_hostile/libno_entry_point.so" "has no entry point"
refuse "$work/build_hostile/libbad_entry.so" "returned no description"
refuse "$work/build_hostile/libname_clash.so" "'rk4', a name already taken by a built-in integrator"
refuse "$work/build_hostile/libthrows_registering.so" "threw while registering its entries (configuration file not found)"
refuse "$work/build_hostile/libregisters_nothing.so" "registered nothing"
# The same plugin twice, and two plugins adding the same name.
status=0
"$tb" --plugin "$rk3" --plugin "$rk3" list >/dev/null 2>"$work/twice.err" || status=$?
[ "$status" -eq 2 ] && grep -q "loaded twice" "$work/twice.err" || fail "the same plugin twice: expected status 2"
status=0
"$tb" --plugin "$rk3" --plugin "$work/rk3_changed.so" list >/dev/null 2>"$work/clash2.err" || status=$?
[ "$status" -eq 2 ] && grep -q "plugin name 'rk3_example' is already that of $rk3" "$work/clash2.err" ||
  fail "two plugins under one name: expected status 2 naming the first file: $(cat "$work/clash2.err")"
# A study from a plugin: listed, run by `study` with its own file, and its jobs fingerprinted.
study="$work/build_hostile/libstudy_plugin.so"
"$tb" --plugin "$study" list >"$work/list_study.txt"
grep -q "^  initial_energy .*plugin study_example 1.0" "$work/list_study.txt" || fail "list does not show the plugin's study"
"$tb" --plugin "$study" study initial_energy "$case_file" "$work/T_spring_chain.toml" --plugin "$chain" --out "$work/study" \
  >/dev/null 2>"$work/study.err" || { cat "$work/study.err"; fail "study from a plugin failed"; }
grep -q "^T_planar_pendulum_60deg,-4\.905$" "$work/study/initial_energy.csv" || fail "initial_energy.csv lacks the pendulum's energy"
grep -qE "^T_spring_chain,[0-9][0-9.e-]*$" "$work/study/initial_energy.csv" || fail "initial_energy.csv lacks the plugin model's energy"
echo "study from a plugin: $(tr '\n' ' ' <"$work/study/initial_energy.csv")"
# An exception in a plugin's step: that run fails, the others run.
status=0
"$tb" --plugin "$work/build_hostile/libthrows_in_step.so" run "$case_file" --out "$work/throwing" >"$work/throwing.out" 2>&1 ||
  status=$?
[ "$status" -eq 1 ] || fail "a throwing step: expected status 1 (a failed run), got $status"
grep -q "throwing_method .*plugin bug in step" "$work/throwing.out" || fail "the throwing run's row does not give the reason"
grep -q "rk4 .*ok" "$work/throwing.out" || fail "the other runs did not go on"
echo "throwing step: $(grep throwing_method "$work/throwing.out")"
# Every fault of a plugin's step is that run's failure (app/running/isolation.hpp, the integrator contract
# of app/running/runner.cpp): a crash, an abort, a non-standard throw, exit(), a hang past --time-limit,
# NaN returned as success, a state of the wrong size, a time that does not advance. The built-in
# runs of the same command complete, and the status is 1.
faulty="$work/build_hostile/libfaulty_steps.so"
status=0
"$tb" --plugin "$faulty" --time-limit 2 run "$case_file" --out "$work/faulty" >"$work/faulty.out" 2>&1 || status=$?
[ "$status" -eq 1 ] || { cat "$work/faulty.out"; fail "faulty plugin steps: expected status 1 (failed runs), got $status"; }
expect_row() {  # integrator, the failure its row must give (at step 100: t = 0.099 s after 99 steps)
  grep -qE "^  $1 +failed: $2 at t = 0\.099 s, step 100$" "$work/faulty.out" ||
    { cat "$work/faulty.out"; fail "$1: expected 'failed: $2 at t = 0.099 s, step 100'"; }
}
where="in plugin faulty_steps, integrator"
expect_row faulty_segv "crashed \(SIGSEGV\) $where faulty_segv, case T_planar_pendulum_60deg"
expect_row faulty_fpe "crashed \(SIGFPE\) $where faulty_fpe, case T_planar_pendulum_60deg"
expect_row faulty_abort "crashed \(SIGABRT\) $where faulty_abort, case T_planar_pendulum_60deg"
expect_row faulty_exit "crashed \(the process exited with status 3 before returning its result\), integrator faulty_exit, case T_planar_pendulum_60deg"
expect_row faulty_hang "hung: no progress for 2 s \(the per-run time limit, --time-limit\) $where faulty_hang, case T_planar_pendulum_60deg"
expect_row faulty_throw_int "exception: a non-standard exception \(not derived from std::exception\)"
expect_row faulty_nan_success "integrator contract: a step returned success with a non-finite state \(NaN/Inf\); expected it to fail \(StepFailure::Kind::Diverged\)"
expect_row faulty_wrong_size "integrator contract: a step returned success with a state of size [0-9]+; expected the formulation's [0-9]+"
expect_row faulty_stuck_time "integrator contract: a step returned success without advancing time \\(t stayed at 0\\.099 s\\)"
for ok in rk4 rattle ida; do
  grep -qE "^  $ok +ok" "$work/faulty.out" || { cat "$work/faulty.out"; fail "$ok did not complete beside the faulty runs"; }
done
# Their time series are kept up to the fault, with no row past it.
last="$(tail -n 1 "$work/faulty/T_planar_pendulum_60deg/faulty_nan_success/timeseries.csv" | cut -d, -f1)"
awk -v t="$last" 'BEGIN { exit !(t + 0 <= 0.099 && t + 0 > 0) }' || fail "faulty_nan_success's time series ends at t = $last"
grep -qi nan "$work/faulty/T_planar_pendulum_60deg/faulty_nan_success/timeseries.csv" && fail "NaN rows in the time series"
echo "faulty plugin steps: $(grep -c 'failed:' "$work/faulty.out") failed rows, status $status"
# In a study's job of many runs (the stability map's probes), each crashed probe is a failed probe.
"$tb" --plugin "$faulty" --time-limit 1 study stability_map "$case_file" --jobs "$jobs" --out "$work/faulty_map" \
  >/dev/null 2>"$work/faulty_map.err" || { cat "$work/faulty_map.err"; fail "stability_map beside faulty plugin steps failed"; }
grep -q '^T_planar_pendulum_60deg,faulty_segv,.*crashed (SIGSEGV) in plugin faulty_steps, integrator faulty_segv at t = ' \
  "$work/faulty_map/stability_map.csv" || fail "the stability map's faulty_segv row does not give the crash"
grep -qE '^T_planar_pendulum_60deg,rk4,,,map,[0-9.e-]+,' "$work/faulty_map/stability_map.csv" ||
  fail "the stability map has no rk4 row beside the faulty ones"
# A crash in a plugin study's own code (no run to carry it): status 1 naming the job and the
# plugin, after the other job ran and was stored.
status=0
"$tb" --plugin "$work/build_hostile/libcrashing_study.so" study crashing_study "$case_file" "$work/T_spring_chain.toml" \
  --plugin "$chain" --jobs 1 --out "$work/crashing_study" >/dev/null 2>"$work/crashing_study.err" || status=$?
[ "$status" -eq 1 ] || { cat "$work/crashing_study.err"; fail "a crashing study: expected status 1, got $status"; }
grep -q "crashed (SIGSEGV) in plugin crashing_study_example outside any run" "$work/crashing_study.err" ||
  { cat "$work/crashing_study.err"; fail "a crashing study: the message does not name the crash and the plugin"; }
[ "$(find "$work/crashing_study/.jobs" -type f | wc -l)" -eq 1 ] || fail "a crashing study: the other job was not stored"
if [ -n "$mpiexec" ]; then
  mpi=("$mpiexec" -n 2 --oversubscribe)
  if [ "$(id -u)" -eq 0 ]; then mpi+=(--allow-run-as-root); fi
  export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
  "${mpi[@]}" "$tb" table --plugin "$rk3" "$case_file" --jobs 1 --out "$work/table_mpi" >/dev/null 2>"$work/mpi.err" ||
    { cat "$work/mpi.err"; fail "table --plugin under mpirun failed"; }
  "$tb" table --plugin "$rk3" "$case_file" --jobs 2 --out "$work/table_threads" >/dev/null 2>&1 || true
  row() { grep "^T_planar_pendulum_60deg,rk3," "$1/summary.csv" | cut -d, -f1-10; }
  [ -n "$(row "$work/table_mpi")" ] && [ "$(row "$work/table_mpi")" = "$(row "$work/table_threads")" ] ||
    fail "rk3 under mpirun: '$(row "$work/table_mpi")', threaded: '$(row "$work/table_threads")'"
  echo "mpirun -n 2 table --plugin: rk3 row as threaded: $(row "$work/table_mpi")"
fi
bash "$src/tests/plugins/check_gate.sh" "$tb" "$work/build_hostile" "$case_file" "$work"
# The adaptive example: its settings listed, an ok run with its own dense output on the case's grid.
"$tb" --plugin "$bs23" list >"$work/list_bs23.txt"
grep -q "^  bs23 .*plugin bs23_example 1.0.0" "$work/list_bs23.txt" || fail "list does not show bs23"
grep -q "^      rtol " "$work/list_bs23.txt" || fail "list does not show bs23's rtol"
"$tb" --plugin "$bs23" run "$case_file" --integrator bs23 --t-end 2 --out "$work/bs23_run" >/dev/null 2>&1 ||
  fail "run --integrator bs23 failed"
grep -q "^T_planar_pendulum_60deg,bs23,.*,ok," "$work/bs23_run/summary.csv" || fail "no ok row for bs23"
echo "adaptive example: $(grep '^T_planar_pendulum_60deg,bs23,' "$work/bs23_run/summary.csv" | cut -d, -f1-8)"
# The partitioned example: it runs the unconstrained elastic pendulum, and is n/a on the rod.
"$tb" --plugin "$symplectic_euler" run "$prefix/share/tetherbench/cases/T_elastic_pendulum.toml" --integrator symplectic_euler \
  --t-end 2 --out "$work/se_run" >/dev/null 2>&1 || fail "run --integrator symplectic_euler on the elastic pendulum failed"
grep -q "^T_elastic_pendulum,symplectic_euler,.*,ok," "$work/se_run/summary.csv" || fail "no ok row for symplectic_euler"
"$tb" --plugin "$symplectic_euler" run "$case_file" --integrator symplectic_euler --integrator rk4 --t-end 0.1 --out "$work/se_na" \
  >"$work/se_na.out" 2>&1 || true
grep -q "symplectic_euler .*n/a: .*integrates q' = v, M v' = f without constraints; this form has 1" "$work/se_na.out" ||
  fail "symplectic_euler is not n/a with its reason on the planar pendulum: $(cat "$work/se_na.out")"
echo "partitioned example: ok on T_elastic_pendulum, n/a on the planar pendulum"
# The study example, with the rk3 example: rk3's observed order within orders.csv's flag rule (0.5) of 3.
"$tb" --plugin "$observed_order" --plugin "$rk3" study observed_order "$case_file" --jobs "$jobs" --out "$work/oo" \
  >/dev/null 2>"$work/oo.err" || { cat "$work/oo.err"; fail "study observed_order from a plugin failed"; }
rk3_order="$(grep '^T_planar_pendulum_60deg,rk3,3,' "$work/oo/observed_order.csv" | cut -d, -f5)"
awk -v p="$rk3_order" 'BEGIN { exit !(p != "" && p - 3 <= 0.5 && 3 - p <= 0.5) }' ||
  fail "observed_order.csv: rk3's observed order '$rk3_order', expected 3 +- 0.5"
echo "study example: rk3 observed order $rk3_order (declared 3); $(($(wc -l <"$work/oo/observed_order.csv") - 1)) rows"
# The Python package of the moved installation (built unless configured with TETHERBENCH_WITH_PYTHON=OFF).
if [ -d "$prefix/lib/python3/dist-packages/tetherbench" ]; then
  (cd "$work" && PYTHONPATH="$prefix/lib/python3/dist-packages" /usr/bin/python3 - "$prefix" "$rk3" "$case_file" >"$work/python.out" 2>&1 <<'PY'
import os, sys
prefix, rk3, case_file = sys.argv[1:]
import tetherbench as tb
where = os.path.dirname(tb.__file__)
assert where == os.path.join(prefix, "lib", "python3", "dist-packages", "tetherbench"), where
assert tb.data_dir() == os.path.join(prefix, "share", "tetherbench"), tb.data_dir()
assert tb.load_plugin(rk3) == ["integrator rk3"]
res = tb.run(case_file, integrators=["rk4", "rk3"], t_end=1.0)
assert list(res.summary.status) == ["ok", "ok"], res
print("python: tetherbench %s from %s; rk4 and rk3 ok, max dE %.3g and %.3g" % (
    tb.__version__, where, res.summary.energy_err_max[0], res.summary.energy_err_max[1]))
PY
  ) || { cat "$work/python.out"; fail "the installed Python package failed"; }
  cat "$work/python.out"
else
  grep -q "TETHERBENCH_WITH_PYTHON:BOOL=OFF" "$build/CMakeCache.txt" || fail "no Python package was installed"
  echo "install_examples: the build was configured without the Python package: its check does not apply"
fi
echo "install_examples: ok"
