#include "app/writing/manifest.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "app/common/build_identity.hpp"
#include "app/input/catalogue.hpp"
#include "app/jobs/distributed.hpp"
#include "app/running/external_steps.hpp"
#include "app/common/machine.hpp"
#include "app/running/plugins.hpp"
#include "core/format.hpp"

#if !defined(TETHERBENCH_VERSION) || !defined(TETHERBENCH_DEPENDENCIES)
#error "TETHERBENCH_VERSION and TETHERBENCH_DEPENDENCIES must be defined by the build (CMakeLists.txt)"
#endif

namespace fs = std::filesystem;

namespace tb {

namespace {

std::string first_line(const std::string& file, const std::string& otherwise) {
  std::ifstream in(file);
  std::string line;
  return in && std::getline(in, line) && !line.empty() ? line : otherwise;
}

}  // namespace

std::string suite_version_number() { return TETHERBENCH_VERSION; }

std::string suite_version() {
  const BuildIdentity& build = build_identity();
  // No comma: build_info.csv keeps the row unquoted ("version,0.2.0 (git ...)").
  const bool dirty = build.tree == "uncommitted changes";
  return std::string(TETHERBENCH_VERSION) + " (git " + build.commit + (dirty ? "; uncommitted changes" : "") + ")";
}

std::string code_identity() { return "build " + build_identity().hash; }

std::vector<std::pair<std::string, std::string>> reproducibility_manifest(const Catalogue& catalogue,
                                                                          const ManifestContext& context) {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back("version", suite_version());
  rows.emplace_back("build", describe(build_identity()));
  rows.emplace_back("compiler", TETHERBENCH_COMPILER);
  rows.emplace_back("flags", TETHERBENCH_FLAGS);
  rows.emplace_back("build_type", TETHERBENCH_BUILD_TYPE);
  // "SUNDIALS=6.4.1|KLU=1.3.9|...": one row each, "dependency NAME".
  std::stringstream deps(TETHERBENCH_DEPENDENCIES);
  for (std::string dep; std::getline(deps, dep, '|');) {
    const auto eq = dep.find('=');
    const std::string version = dep.substr(eq + 1);
    rows.emplace_back("dependency " + dep.substr(0, eq), version.empty() ? "unknown (its CMake package states no version)" : version);
  }
  rows.emplace_back("dependency MPI library", mpi_library_version());
  rows.emplace_back("cpu_model", cpuinfo_value("model name").value_or("unavailable (/proc/cpuinfo has no model name)"));
  rows.emplace_back("cpu_flags", cpuinfo_value("flags").value_or("unavailable (/proc/cpuinfo has no flags)"));
  rows.emplace_back("cpu_governor", first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
                                               "unavailable (no cpufreq on this machine: a virtual machine or container)"));
  rows.emplace_back("cpu_count", std::to_string(std::max(1u, std::thread::hardware_concurrency())));
  // A report of some integrators only (--integrator): its recommendations are among those.
  if (!catalogue.left_out.empty())
    rows.emplace_back("integrators", join_names(catalogue.integrator_names()) + " (chosen with --integrator; not run: " +
                                         join_names(catalogue.left_out) + ")");
  if (catalogue.plugins.empty()) rows.emplace_back("plugins", "none");
  for (const auto& p : catalogue.plugins) {
    std::string entries;
    for (const auto& e : p.entries) entries += (entries.empty() ? "" : "; ") + e;
    rows.emplace_back("plugin " + p.name, p.version + ", file hash " + p.hash + ", " + p.file + " (" + entries + ")");
    // As its TETHERBENCH_PLUGIN recorded them at the plugin's compile time (core/plugin.hpp).
    rows.emplace_back("plugin " + p.name + " build", plugin_build(p));
    rows.emplace_back("plugin " + p.name + " flags",
                      p.cxx_flags.empty() ? "unknown (not built with the tetherbench CMake package)" : p.cxx_flags);
    rows.emplace_back("plugin " + p.name + " compiler", p.compiler.empty() ? "unknown" : p.compiler);
  }
  rows.emplace_back("date", utc_now());
  rows.emplace_back("workers", std::to_string(context.workers));
  rows.emplace_back("command", context.command);
  rows.emplace_back("processes", std::to_string(context.processes));
  return rows;
}

void write_manifest(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& rows) {
  fs::create_directories(dir);
  const fs::path file = fs::path(dir) / "build_info.csv";
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << "key,value\n";
  for (const auto& [key, value] : rows) {
    if (value.find_first_of(",\"\n") == std::string::npos) {
      out << key << "," << value << "\n";
      continue;
    }
    std::string quoted = "\"";
    for (char c : value) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    out << key << "," << quoted << "\"\n";
  }
}

}  // namespace tb
