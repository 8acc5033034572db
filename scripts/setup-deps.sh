#!/usr/bin/env bash
# Installs every build, test and report dependency of tetherbench from Debian's archive.
# Idempotent: packages already present are skipped, so the README commands can call it each time.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev          # linear algebra (fixed-size blocks, block-tridiagonal solves)
  libboost-dev           # Boost.Odeint (header-only) for RK4 / Dormand-Prince RK45
  libsundials-dev        # SUNDIALS IDA (index-1 DAE) and CVODE (ODE forms) integrators
  libsuitesparse-dev     # KLU (klu.h), IDA's sparse direct solver (SUNLinSol_KLU)
  libbenchmark-dev       # Google Benchmark: per-step cost and its growth with N
  catch2                 # unit and property tests
  libfccp-dev            # fast-cpp-csv-parser: reading reference data and envelopes
  libcli11-dev           # command line of the tetherbench tool
  libtoml11-dev          # case files
  python3-matplotlib     # plots in reports/ (run with /usr/bin/python3)
  pybind11-dev           # the Python package `tetherbench` (python/)
  python3-dev            # Python.h for the pybind11 module
  python3-numpy python3-pandas  # arrays and DataFrames the Python package returns
  python3-pytest         # the Python package's tests (ctest runs them)
  python3-nbclient python3-nbformat python3-ipykernel  # runs examples/python/compare.ipynb (Debian's Jupyter kernel) in those tests
  libopenmpi-dev openmpi-bin  # MPI: report/table/study over mpirun ranks (optional at build time; CI tests it)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "tetherbench setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
