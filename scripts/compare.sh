#!/usr/bin/env bash
# The main job: `tetherbench report` — every bundled case with every applicable integrator,
# work-precision sweeps, measured orders, the papers' claims judged, benchmarks and
# plots, all in reports/ (index: reports/index.md).
# Extra arguments go to `tetherbench report` (e.g. --out DIR, --no-benchmarks, a case file).
# Run again, it reuses every stored job, benchmark part and figure of the same build and inputs
# in the output folder; --fresh runs everything again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
if [ "$#" -eq 0 ]; then set -- --out "$root/reports"; fi
# Status 1 means the report was written and some runs failed or diverged: benchmark results,
# marked in the tables (reports/summary.md), not a failure of this command.
status=0
"$root/build/tetherbench" report "$@" || status=$?
if [ "$status" -eq 1 ]; then
  echo "compare.sh: some runs failed or diverged at their step; they are results, marked in the tables" >&2
  exit 0
fi
exit "$status"
