#!/usr/bin/env bash
# Builds and runs the whole test suite (unit, physics and command-line tests) with CTest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
cd "$root/build"
exec ctest --output-on-failure -j"$(nproc)"
