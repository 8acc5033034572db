#pragma once
// The plugin contract: how a shared library built against an installed tetherbench adds its
// integrators, models and studies to the catalogue (`tetherbench --plugin FILE ...`).
//
// A plugin defines exactly one entry point, with the macro at the end of this file:
//
//   #include "core/plugin.hpp"
//   void register_entries(tb::PluginRegistrar& add) { add.integrator(my_rk3_info()); }
//   TETHERBENCH_PLUGIN("my_methods", "1.0.0", register_entries)
//
// The executable (app/plugins.hpp) opens the library, reads the entry, refuses it unless it
// was compiled against this very kernel version (the kernel's types cross the boundary by
// value, so another version is not binary compatible), calls the function, and checks every
// name against the catalogue. Whatever the function throws refuses the plugin. Once loaded,
// a plugin's entries are catalogue entries like the built-in ones; the fingerprints of their
// results include the plugin's version and the hash of its file.
//
// Integrators and models need only the kernel (tetherbench::kernel); a study includes
// "app/study.hpp" and links tetherbench::app.

#include "core/integrator.hpp"
#include "core/kernel_version.hpp"
#include "core/model.hpp"

namespace tb {

struct StudyInfo;  // app/study.hpp

// What a plugin's registration function adds to. Implemented by the executable.
class PluginRegistrar {
 public:
  virtual ~PluginRegistrar() = default;
  virtual void integrator(IntegratorInfo info) = 0;
  virtual void model(ModelInfo info) = 0;
  virtual void study(const StudyInfo& info) = 0;
};

}  // namespace tb

extern "C" {
// The one entry point's data. Its first member is the kernel version so that a plugin of any
// version can be refused before anything else of it is read.
struct tetherbench_plugin_entry {
  const char* kernel_version;  // TETHERBENCH_KERNEL_VERSION the plugin was compiled against
  const char* name;            // the plugin's own name, for messages and the report's manifest
  const char* version;         // the plugin's own version, part of its results' fingerprints
  void (*register_entries)(tb::PluginRegistrar&);
};
}

// The symbol the executable looks up.
#define TETHERBENCH_PLUGIN_ENTRY_SYMBOL "tetherbench_plugin"

#define TETHERBENCH_PLUGIN(NAME, VERSION, REGISTER_FUNCTION)                                      \
  extern "C" __attribute__((visibility("default"))) const tetherbench_plugin_entry* tetherbench_plugin() { \
    static const tetherbench_plugin_entry entry{TETHERBENCH_KERNEL_VERSION, NAME, VERSION, &REGISTER_FUNCTION}; \
    return &entry;                                                                                \
  }
