#pragma once
// Loads plugins (core/plugin.hpp) into a catalogue: `tetherbench --plugin FILE` (repeatable) and
// the environment variable TETHERBENCH_PLUGINS (files separated by ':'), the variable's first.
//
// Every way a plugin can be wrong is an input error (exit status 2, before anything runs)
// naming the file and what was expected: a file that is missing or not a shared library, one
// without the entry point, one built against another kernel version, one whose registration
// throws, one that adds a name the catalogue already has (built-in or from another plugin), and
// one whose entries the catalogue's own checks refuse (an adaptive method without rtol, ...).
// A loaded plugin is never unloaded: the catalogue's factories point into it.

#include <string>
#include <vector>

#include "app/input/catalogue.hpp"

namespace tb {

struct PluginFile {
  std::string file;
  std::string given_by;  // "--plugin" or "TETHERBENCH_PLUGINS", for messages
};

// The plugin files named by the environment variable (empty when unset), then by the options.
std::vector<PluginFile> plugin_files(const std::vector<std::string>& from_options);

// Adds every plugin's entries to `catalogue` (InputError on any refusal; the catalogue is then
// not to be used). The catalogue stays sorted by name and is validated after each plugin.
void load_plugins(const std::vector<PluginFile>& files, Catalogue& catalogue);

// "optimised (build type Release, assertions off)": how a plugin was compiled, as recorded by
// its TETHERBENCH_PLUGIN (core/plugin.hpp).
std::string plugin_build(const Catalogue::Plugin& plugin);
// One sentence per plugin compiled without optimisation (its runtimes are not comparable with
// the suite's): the report prints them on stderr and index.md's build section shows them.
std::vector<std::string> unoptimised_plugin_warnings(const Catalogue& catalogue);

}  // namespace tb
