#!/usr/bin/env bash
# The main job: `tetherbench report` — every bundled case with every applicable integrator,
# work-precision sweeps, measured orders, the papers' figures side by side, benchmarks and
# plots, all in reports/ (index: reports/index.md).
# Extra arguments go to `tetherbench report` (e.g. --out DIR, --no-benchmarks, a case file).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
if [ "$#" -eq 0 ]; then set -- --out "$root/reports"; fi
exec "$root/build/tetherbench" report "$@"
