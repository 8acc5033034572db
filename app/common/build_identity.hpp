#pragma once
// The identity of this build (issue 43): what a stored job's fingerprint carries, so that a
// result is reused only by a build of the same code. Recorded at build time by
// cmake/build_identity.cmake (a hash of every compiled source and build file, the compiler,
// flags and dependency versions), never read from the source tree at run time: an
// installation, or a tree with uncommitted changes, is known by what it compiled.

#include <string>

namespace tb {

struct BuildIdentity {
  std::string hash;      // 16 hex digits: equal for builds of the same code with the same tools
  std::string commit;    // the source's commit when it was built ("not a git checkout")
  std::string tree;      // "clean", "uncommitted changes", or "" when not a git checkout
  std::string built_at;  // when this identity was first built ("YYYY-MM-DD HH:MM:SS UTC")
};

const BuildIdentity& build_identity();

// "3f9a0c21d4e5b678 (git d3414c9ab12c, uncommitted changes; built 2026-11-29 03:40:12 UTC)".
std::string describe(const BuildIdentity& build);

}  // namespace tb
