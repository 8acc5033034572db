#!/usr/bin/env bash
# cmake/build_identity.cmake, the identity every stored job's fingerprint carries (issue 43), on a
# small source tree of its own: it follows what is compiled (a source's content, a new source,
# the compiler settings) and nothing else (a README, the commit alone); an unchanged tree leaves
# the generated file untouched, so nothing recompiles; the commit and a dirty tree are recorded
# at build time beside the hash.
# Usage: build_identity.sh SOURCE_DIR (the repository, for the script)
set -euo pipefail
script="$1/cmake/build_identity.cmake"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
tree="$tmp/tree"
out="$tmp/identity.cpp"
mkdir -p "$tree/core" "$tree/cmake" "$tree/docs"
echo 'int a = 1;' > "$tree/core/a.cpp"
echo 'project(x)' > "$tree/CMakeLists.txt"
echo 'notes' > "$tree/docs/README.md"

failures=0
check() {  # check WHAT CONDITION...
  local what="$1"; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
identify() { cmake -DSOURCE_DIR="$tree" -DOUTPUT="$out" "-DBUILD_SETTINGS=$1" -P "$script"; }
hash_now() { sed -n 's|^// identity \([0-9a-f]*\) .*|\1|p' "$out"; }

identify "gcc 12|-O3"
h1="$(hash_now)"
check "a 16-hex-digit identity" test "${#h1}" -eq 16
check "outside git: 'not a git checkout'" grep -q '"not a git checkout"' "$out"

touch -d '2000-01-01 00:00:00' "$out"
identify "gcc 12|-O3"
check "an unchanged tree leaves the generated file untouched" test "$(stat -c %Y "$out")" -eq "$(date -d '2000-01-01 00:00:00' +%s)"

echo 'more notes' > "$tree/docs/README.md"
identify "gcc 12|-O3"
check "a file that is not compiled does not change it" test "$(hash_now)" = "$h1"

echo 'int a = 2;' > "$tree/core/a.cpp"
identify "gcc 12|-O3"
h2="$(hash_now)"
check "a changed source changes it" test "$h2" != "$h1"

echo 'int a = 1;' > "$tree/core/a.cpp"
identify "gcc 12|-O3"
check "the same content gives the same identity again" test "$(hash_now)" = "$h1"

echo 'int b = 1;' > "$tree/core/b.hpp"
identify "gcc 12|-O3"
h3="$(hash_now)"
check "a new source changes it" test "$h3" != "$h1"

identify "gcc 12|-O2"
check "other compiler settings change it" test "$(hash_now)" != "$h3"
identify "gcc 12|-O3"

if command -v git >/dev/null 2>&1; then
  git -C "$tree" init -q
  git -C "$tree" add -A
  git -C "$tree" -c user.name=t -c user.email=t@t commit -q -m one
  identify "gcc 12|-O3"
  commit="$(git -C "$tree" rev-parse --short=12 HEAD)"
  check "a commit alone keeps the identity" test "$(hash_now)" = "$h3"
  check "the commit and a clean tree are recorded" grep -q "\"$commit\", \"clean\"" "$out"
  echo 'int b = 2;' > "$tree/core/b.hpp"
  identify "gcc 12|-O3"
  check "an uncommitted change is a new identity" test "$(hash_now)" != "$h3"
  check "and is recorded as such" grep -q "\"$commit\", \"uncommitted changes\"" "$out"
fi

if [ "$failures" -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all build identity checks passed"
