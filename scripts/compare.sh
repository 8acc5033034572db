#!/usr/bin/env bash
# The main job: every bundled case with every applicable integrator, tables in reports/.
# Extra arguments go to `tetherbench table` (e.g. a case file, or --out DIR).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
if [ "$#" -eq 0 ]; then set -- --out "$root/reports"; fi
exec "$root/build/tetherbench" table "$@"
