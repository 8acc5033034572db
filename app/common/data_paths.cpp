#include "app/common/data_paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/table_reader.hpp"  // InputError

namespace fs = std::filesystem;

namespace tb {

namespace {

// What is missing of a data folder, or "".
std::string missing_parts(const fs::path& root) {
  std::error_code ec;
  std::string missing;
  for (const char* part : {"cases", "reference", "scripts"})
    if (!fs::is_directory(root / part, ec)) missing += std::string(missing.empty() ? "" : ", ") + part + "/";
  return missing;
}

// The directory of the running executable (/proc/self/exe).
std::string executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path().string() : exe.parent_path().string();
}

}  // namespace

DataPaths find_data_paths(const std::optional<std::string>& data_dir_option, const std::vector<std::string>& anchors) {
  const fs::path exe_dir = executable_dir();
  DataPaths paths;
  auto take = [&](const fs::path& root) {
    paths.root = fs::weakly_canonical(root).string();
    // Each part resolved: in a build tree they are links to the source folders, and messages
    // should name the file a user edits.
    paths.cases = fs::weakly_canonical(fs::path(paths.root) / "cases").string();
    paths.reference = fs::weakly_canonical(fs::path(paths.root) / "reference").string();
    paths.scripts = fs::weakly_canonical(fs::path(paths.root) / "scripts").string();
    paths.benchmarks = (exe_dir / "tetherbench_benchmarks").string();
    std::error_code ec;
    paths.reference_in_checkout = fs::exists(fs::path(paths.reference).parent_path() / ".git", ec);
    return paths;
  };
  auto given = [&](const std::string& root, const std::string& by) {
    if (root.empty()) throw InputError(by + ": expected a folder holding cases/, reference/ and scripts/, got an empty path");
    if (const std::string missing = missing_parts(root); !missing.empty())
      throw InputError(by + " " + root + ": expected a tetherbench data folder holding cases/, reference/ and scripts/ (missing " +
                       missing + ")");
    return take(root);
  };
  if (data_dir_option) return given(*data_dir_option, "--data-dir");
  if (const char* env = std::getenv("TETHERBENCH_DATA_DIR")) return given(env, "TETHERBENCH_DATA_DIR");
  std::string looked;
  std::vector<fs::path> from(anchors.begin(), anchors.end());
  if (from.empty()) from.push_back(exe_dir);
  for (const fs::path& anchor : from)
    for (const fs::path& root : {anchor / "share" / "tetherbench", anchor.parent_path() / "share" / "tetherbench"}) {
      if (missing_parts(root).empty()) return take(root);
      looked += (looked.empty() ? "" : ", ") + root.string();
    }
  throw InputError("tetherbench cannot find its data (cases/, reference/, scripts/): looked in " + looked +
                   "; expected an installation (cmake --install) or a build tree, or give --data-dir DIR or TETHERBENCH_DATA_DIR");
}

std::vector<std::string> bundled_case_files(const DataPaths& data) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(data.cases))
    if (entry.path().extension() == ".toml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace tb
