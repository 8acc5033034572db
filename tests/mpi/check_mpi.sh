#!/usr/bin/env bash
# CI: `mpirun -n 3` (oversubscribed on a small machine; as root when CI runs as root) gives the
# same tables as the threaded run, in every column but the runtimes and their hosts: `table` and
# `report` over a few short cases. Usage: check_mpi.sh TETHERBENCH_BINARY MPIEXEC CASES_DIR
set -euo pipefail
bin="$1" mpiexec="$2" cases="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Copies of three short cases with their long_time runs cut to 20000 steps (10^5..10^6 in the
# bundled files: 11 s of the 13 s of job time): the long_time study still runs its own jobs, so
# its rows and growth fits cross the ranks, at a fiftieth of the cost.
short=()
for name in T_planar_pendulum_60deg T_elastic_pendulum T_free_rigid_body; do
  sed -E 's/^long_time_steps *= *[0-9]+/long_time_steps = 20000/' "$cases/$name.toml" >"$work/$name.toml"
  grep -q '^long_time_steps = 20000' "$work/$name.toml" || { echo "$name.toml: no long_time_steps to shorten"; exit 1; }
  short+=("$work/$name.toml")
done
mpi=("$mpiexec" -n 3 --oversubscribe)
if [ "$(id -u)" -eq 0 ]; then mpi+=(--allow-run-as-root); fi
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1

"$bin" table "${short[@]}" --jobs 2 --out "$work/table_threads" >/dev/null
"${mpi[@]}" "$bin" table "${short[@]}" --jobs 1 --out "$work/table_mpi" >/dev/null
"$bin" report "${short[@]}" --jobs 2 --no-benchmarks --no-plots --out "$work/report_threads" 2>/dev/null >/dev/null
"${mpi[@]}" "$bin" report "${short[@]}" --jobs 1 --no-benchmarks --no-plots --out "$work/report_mpi" 2>"$work/mpi.err" >/dev/null
grep -q "processes,3" "$work/report_mpi/build_info.csv" || { echo "build_info.csv does not record 3 processes"; exit 1; }
# The other ranks ran jobs: "jobs: R run, 0 reused; by rank: a, b, c" with b + c > 0.
shares="$(grep -o 'by rank: [0-9, ]*' "$work/mpi.err" | head -1)"
echo "report under mpirun -n 3: $shares"
IFS=', ' read -r _ _ r0 r1 r2 <<<"$shares"
if [ -z "${r2:-}" ] || [ $((r1 + r2)) -eq 0 ]; then echo "ranks 1 and 2 ran no job ($shares)"; cat "$work/mpi.err"; exit 1; fi

/usr/bin/python3 - "$work" <<'PY'
import csv, os, sys
work = sys.argv[1]

def table(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    keep = [i for i, c in enumerate(rows[0]) if not c.startswith("runtime") and c != "host"]
    # rankings by runtime are measured like the runtime columns
    work = rows[0].index("work") if "work" in rows[0] else None
    rows_kept = [r for k, r in enumerate(rows) if k == 0 or work is None or r[work] != "runtime"]
    return [[r[i] for i in keep] for r in rows_kept], rows

def compare(a_dir, b_dir):
    compared = 0
    for root, dirs, files in os.walk(a_dir):
        dirs[:] = [d for d in dirs if d != ".jobs"]
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), a_dir)
            if not name.endswith(".csv") or name in ("job_costs.csv", "jobs.csv", "build_info.csv") or "timeseries" in name:
                continue
            a, _ = table(os.path.join(a_dir, rel))
            b, raw = table(os.path.join(b_dir, rel))
            if a != b:
                sys.exit(f"MPI and threaded {rel} differ:\n{a}\n{b}")
            if "host" in raw[0] and "runtime_s" in raw[0]:  # every measured runtime names its host
                h, r = raw[0].index("host"), raw[0].index("runtime_s")
                if any(row[r] not in ("", "n/a") and not row[h] for row in raw[1:]):
                    sys.exit(f"{rel}: a runtime without its host")
            compared += 1
    return compared

n_table = compare(os.path.join(work, "table_threads"), os.path.join(work, "table_mpi"))
n_report = compare(os.path.join(work, "report_threads"), os.path.join(work, "report_mpi"))
missing = [t for t in ("summary.csv", "work_precision.csv", "stability_map.csv", "stability_probes.csv", "long_time.csv")
           if not os.path.exists(os.path.join(work, "report_mpi", t))]
if missing:
    sys.exit(f"the MPI report lacks {missing}")
if n_table < 1 or n_report < 4:
    sys.exit(f"too few tables compared ({n_table}, {n_report})")
rows = sum(1 for _ in open(os.path.join(work, "report_mpi", "summary.csv"))) - 1
print(f"mpirun -n 3 equals the threaded run: {n_table} table file(s), {n_report} report tables ({rows} full runs)")
PY
