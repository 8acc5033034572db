#pragma once
// The reproducibility manifest of a report (build_info.csv, shown in index.md): the suite's
// version and source commit, the compiler and flags, every dependency's version as built
// against, the MPI library in use, the machine (CPU model, instruction-set flags, frequency
// governor), every plugin loaded (name, version, file hash, file, and how it was compiled: optimised or
// not, build type, flags, compiler), and how the report was run.

#include <string>
#include <utility>
#include <vector>

namespace tb {

struct Catalogue;

// "0.2.0 (git abc1234)", "0.2.0 (git abc1234; uncommitted changes)": the version, and the commit
// the build was compiled from with whether the tree had uncommitted changes then
// (app/common/build_identity.hpp; never read at run time).
std::string suite_version();
// "build 3f9a0c21d4e5b678": part of every job's fingerprint, so that a stored result is reused
// only by a build of the same code (app/common/build_identity.hpp).
std::string code_identity();
// The version alone ("0.2.0"): `tetherbench --version` and tetherbench.__version__ in Python.
std::string suite_version_number();

struct ManifestContext {
  std::string data_root;  // app/common/data_paths.hpp
  std::string command;    // the command line
  unsigned workers = 1;
  int processes = 1;
};

// key, value rows in the order written.
std::vector<std::pair<std::string, std::string>> reproducibility_manifest(const Catalogue& catalogue,
                                                                          const ManifestContext& context);

// Writes build_info.csv (key,value) into `dir`.
void write_manifest(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& rows);

}  // namespace tb
