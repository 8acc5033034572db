#include "app/running/plugins.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "app/common/fingerprint.hpp"
#include "app/running/isolation.hpp"
#include "app/input/study.hpp"
#include "core/plugin.hpp"
#include "core/table_reader.hpp"  // InputError

namespace fs = std::filesystem;

namespace tb {

namespace {

constexpr const char* kExpected = "a shared library built with TETHERBENCH_PLUGIN against tetherbench::kernel " TETHERBENCH_KERNEL_VERSION;

// Collects one plugin's entries; the catalogue is changed only once all of them are known.
class Collector : public PluginRegistrar {
 public:
  void integrator(IntegratorInfo info) override { integrators.push_back(std::move(info)); }
  void model(ModelInfo info) override { models.push_back(std::move(info)); }
  void study(const StudyInfo& info) override { studies.push_back(info); }
  std::vector<IntegratorInfo> integrators;
  std::vector<ModelInfo> models;
  std::vector<StudyInfo> studies;
};

std::string file_contents_hash(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return fingerprint_of(bytes.str());
}

template <class Info>
void sort_by_name(std::vector<Info>& list) {
  std::sort(list.begin(), list.end(), [](const Info& a, const Info& b) { return a.name < b.name; });
}

// The kind of entry (and who owns it) that already uses `name`, or "".
std::string holder_of(const Catalogue& catalogue, const std::string& kind, const std::string& name) {
  const bool taken = kind == "integrator"
                         ? catalogue.find_integrator(name) != nullptr ||
                               std::any_of(catalogue.reference_solvers.begin(), catalogue.reference_solvers.end(),
                                           [&](const IntegratorInfo& i) { return i.name == name; })
                     : kind == "model" ? catalogue.find_model(name) != nullptr
                                       : catalogue.find_study(name) != nullptr;
  if (!taken) return "";
  const std::string origin = catalogue.origin(kind, name);
  return origin.empty() ? "a built-in " + kind : "the " + kind + " of " + origin;
}

// Opens the library at `path` and returns its entry, once it is known to be a plugin of this
// kernel version.
const tetherbench_plugin_entry& open_plugin(const std::string& where, const std::string& file, const std::string& path,
                                            const Catalogue& catalogue) {
  std::error_code ec;
  if (fs::is_directory(file, ec))
    throw InputError(where + ": is a directory; expected the plugin's shared library file in it (" +
                     std::string(kExpected) + "), e.g. " + (fs::path(file) / "libNAME.so").string());
  if (!fs::is_regular_file(file, ec))
    throw InputError(where + ": no such file (expected " + std::string(kExpected) + ")");
  for (const auto& p : catalogue.plugins)
    if (fs::equivalent(p.file, path, ec))
      throw InputError(where + ": loaded twice (also given as " + p.file + "); expected each plugin once");
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw InputError(where + ": cannot be loaded (" + std::string(why ? why : "unknown reason") + "); expected " + kExpected);
  }
  using EntryPoint = const tetherbench_plugin_entry* (*)();
  auto entry_point = reinterpret_cast<EntryPoint>(dlsym(handle, TETHERBENCH_PLUGIN_ENTRY_SYMBOL));
  if (!entry_point)
    throw InputError(where + ": has no entry point '" TETHERBENCH_PLUGIN_ENTRY_SYMBOL "'; expected " + kExpected +
                     " (core/plugin.hpp)");
  const tetherbench_plugin_entry* entry = entry_point();
  if (!entry || !entry->kernel_version)
    throw InputError(where + ": its entry point returned no description; expected " + kExpected);
  if (std::string(entry->kernel_version) != TETHERBENCH_KERNEL_VERSION)
    throw InputError(where + ": built against tetherbench kernel " + entry->kernel_version + "; expected a plugin built against " +
                     TETHERBENCH_KERNEL_VERSION + " (this tetherbench): rebuild it against this installation");
  if (!entry->name || !*entry->name || !entry->version || !*entry->version || !entry->register_entries)
    throw InputError(where + ": its entry has no name, version or registration function; expected all three");
  return *entry;
}

// What the plugin's registration function adds; it must add something and must not throw.
Collector collect_entries(const std::string& where, const tetherbench_plugin_entry& entry) {
  Collector added;
  try {
    entry.register_entries(added);
  } catch (const std::exception& e) {
    throw InputError(where + ": plugin " + entry.name + " threw while registering its entries (" + e.what() +
                     "); expected registration to succeed");
  } catch (...) {
    throw InputError(where + ": plugin " + entry.name + " threw a non-standard exception while registering its entries; "
                     "expected registration to succeed");
  }
  if (added.integrators.empty() && added.models.empty() && added.studies.empty())
    throw InputError(where + ": plugin " + entry.name + " registered nothing; expected at least one integrator, model or study");
  return added;
}

// Adds the entries under names of their own, keeps the lists sorted and validates the result.
void add_entries(const std::string& where, Catalogue::Plugin plugin, Collector& added, Catalogue& catalogue) {
  const std::string origin = "plugin " + plugin.name + " " + plugin.version + ", file hash " + plugin.hash;
  auto claim = [&](const std::string& kind, const std::string& name) {
    if (const std::string holder = holder_of(catalogue, kind, name); !holder.empty())
      throw InputError(where + ": plugin " + plugin.name + " adds " + kind + " '" + name + "', a name already taken by " +
                       holder + "; expected a name of its own");
    plugin.entries.push_back(kind + " " + name);
    catalogue.origins[kind + " " + name] = origin;
  };
  for (auto& i : added.integrators) claim("integrator", i.name), catalogue.integrators.push_back(std::move(i));
  for (auto& m : added.models) claim("model", m.name), catalogue.models.push_back(std::move(m));
  for (auto& s : added.studies) claim("study", s.name), catalogue.studies.push_back(std::move(s));
  name_plugin(plugin.file, plugin.name, origin);  // for crash isolation (app/running/isolation.hpp)
  sort_by_name(catalogue.integrators);
  sort_by_name(catalogue.models);
  sort_by_name(catalogue.studies);
  catalogue.plugins.push_back(plugin);
  try {
    catalogue.validate();
  } catch (const std::logic_error& e) {
    throw InputError(where + ": plugin " + plugin.name + " adds an entry the catalogue refuses: " + e.what());
  }
}

void load_one(const PluginFile& given, Catalogue& catalogue) {
  const std::string where = given.given_by + " " + given.file;
  // An absolute path: dlopen would otherwise search the library path for a bare name.
  const std::string path = fs::absolute(given.file).string();
  const tetherbench_plugin_entry& entry = open_plugin(where, given.file, path, catalogue);
  // A plugin's name is what the manifest, build_info.csv and its results' origin name it by: two
  // files under one name would be two plugins that nothing can tell apart.
  for (const auto& p : catalogue.plugins)
    if (p.name == entry.name)
      throw InputError(where + ": plugin name '" + entry.name + "' is already that of " + p.file +
                       "; expected each plugin under a name of its own (TETHERBENCH_PLUGIN's first argument)");
  Collector added = collect_entries(where, entry);
  Catalogue::Plugin plugin;
  plugin.file = path;
  plugin.name = entry.name;
  plugin.version = entry.version;
  plugin.hash = file_contents_hash(path);
  // Read only once the kernel version matched (open_plugin): an older entry ends before them.
  plugin.optimised = entry.optimised != 0;
  plugin.asserts = entry.asserts != 0;
  plugin.build_type = entry.build_type ? entry.build_type : "";
  // The package joins the flags of several CMake variables: one space between words.
  std::istringstream words(entry.cxx_flags ? entry.cxx_flags : "");
  for (std::string word; words >> word;) plugin.cxx_flags += (plugin.cxx_flags.empty() ? "" : " ") + word;
  plugin.compiler = entry.compiler ? entry.compiler : "";
  add_entries(where, plugin, added, catalogue);
}

}  // namespace

std::vector<PluginFile> plugin_files(const std::vector<std::string>& from_options) {
  std::vector<PluginFile> files;
  if (const char* env = std::getenv("TETHERBENCH_PLUGINS")) {
    std::stringstream list(env);
    for (std::string file; std::getline(list, file, ':');)
      if (!file.empty()) files.push_back({file, "TETHERBENCH_PLUGINS"});
  }
  for (const auto& file : from_options) files.push_back({file, "--plugin"});
  return files;
}

void load_plugins(const std::vector<PluginFile>& files, Catalogue& catalogue) {
  for (const auto& file : files) load_one(file, catalogue);
}

std::string plugin_build(const Catalogue::Plugin& plugin) {
  const std::string type = plugin.build_type.empty() ? "build type unknown (not built with the tetherbench CMake package)"
                                                     : "build type " + plugin.build_type;
  return std::string(plugin.optimised ? "optimised" : "NOT optimised") + " (" + type + ", assertions " +
         (plugin.asserts ? "on" : "off") + ")";
}

std::vector<std::string> unoptimised_plugin_warnings(const Catalogue& catalogue) {
  std::vector<std::string> warnings;
  for (const auto& p : catalogue.plugins)
    if (!p.optimised)
      warnings.push_back("plugin " + p.name + " (" + p.file + ") is not an optimised build (" +
                         (p.build_type.empty() ? std::string("build type unknown") : "build type " + p.build_type) +
                         "; compiled without -O): its runtimes are not comparable with the others'; rebuild it with "
                         "-DCMAKE_BUILD_TYPE=Release");
  return warnings;
}

}  // namespace tb
