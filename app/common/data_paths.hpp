#pragma once
// Where the executable finds what it ships with: the bundled cases, the reference data and
// envelopes, the report's scripts and the benchmark binary. Nothing of the source tree is
// compiled in; the data are found relative to the running executable, so an installed or a
// moved build works the same:
//   --data-dir DIR                       (the option), else
//   TETHERBENCH_DATA_DIR                 (the environment), else
//   EXE_DIR/share/tetherbench            (the build tree: links to the source folders), else
//   EXE_DIR/../share/tetherbench         (an installation: PREFIX/bin/tetherbench).
// A library that is not the executable (the Python package's compiled part) names the folders to
// look from instead of EXE_DIR (`anchors`, each tried as EXE_DIR is).
// The folder must hold cases/, reference/ and scripts/.

#include <optional>
#include <string>
#include <vector>

namespace tb {

struct DataPaths {
  std::string root;        // the folder found
  std::string cases;       // ROOT/cases
  std::string reference;   // ROOT/reference
  std::string scripts;     // ROOT/scripts
  std::string benchmarks;  // EXE_DIR/tetherbench_benchmarks (may be absent: the report then skips benchmarks)
  // Whether `reference` is the folder of a source checkout (a build tree's links lead there):
  // a contributor's, which `tetherbench reference` may write; otherwise an installation or a
  // copy, which nothing writes into unless told to (app/common/reference_search.hpp).
  bool reference_in_checkout = false;
};

// InputError naming the option or variable and what was expected, or every place looked at.
// The bundled case files (DATA/cases/*.toml), sorted: what the commands and the Python package run
// when no case file is named.
std::vector<std::string> bundled_case_files(const DataPaths& data);

DataPaths find_data_paths(const std::optional<std::string>& data_dir_option, const std::vector<std::string>& anchors = {});

}  // namespace tb
