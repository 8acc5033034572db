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
// The executable (app/running/plugins.hpp) opens the library, reads the entry, refuses it unless it
// was compiled against this very kernel version (the kernel's types cross the boundary by
// value, so another version is not binary compatible), calls the function, and checks every
// name against the catalogue. Whatever the function throws refuses the plugin. Once loaded,
// a plugin's entries are catalogue entries like the built-in ones; the fingerprints of their
// results include the plugin's version and the hash of its file.
//
// Integrators and models need only the kernel (tetherbench::kernel); a study includes
// "app/input/study.hpp" and links tetherbench::app.

#include "core/integrator.hpp"
#include "core/kernel_version.hpp"
#include "core/model.hpp"

namespace tb {

struct StudyInfo;  // app/input/study.hpp

// What a plugin's registration function adds to. Implemented by the executable.
class PluginRegistrar {
 public:
  virtual ~PluginRegistrar() = default;
  virtual void integrator(IntegratorInfo info) = 0;
  virtual void model(ModelInfo info) = 0;
  virtual void study(const StudyInfo& info) = 0;
};

}  // namespace tb

// What the plugin was compiled with, recorded by TETHERBENCH_PLUGIN at the plugin's own compile
// time (build_info.csv; the report warns when a plugin is not an optimised build, since its
// runtimes are then not comparable with the suite's). `optimised` and `asserts` come from what
// the compiler itself defines (__OPTIMIZE__ for any -O1 or higher, NDEBUG), so they hold however
// the plugin was built; the build type and flags come from the tetherbench CMake package (its
// targets give a plugin target TETHERBENCH_PLUGIN_BUILD_TYPE and TETHERBENCH_PLUGIN_CXX_FLAGS:
// the configuration and the flags CMake passes for it), and are "" for a plugin built otherwise.
#if defined(__OPTIMIZE__)
#define TETHERBENCH_PLUGIN_OPTIMISED 1
#else
#define TETHERBENCH_PLUGIN_OPTIMISED 0
#endif
#if defined(NDEBUG)
#define TETHERBENCH_PLUGIN_ASSERTS 0
#else
#define TETHERBENCH_PLUGIN_ASSERTS 1
#endif
#ifndef TETHERBENCH_PLUGIN_BUILD_TYPE
#define TETHERBENCH_PLUGIN_BUILD_TYPE ""
#endif
#ifndef TETHERBENCH_PLUGIN_CXX_FLAGS
#define TETHERBENCH_PLUGIN_CXX_FLAGS ""
#endif
#if defined(__clang__)
#define TETHERBENCH_PLUGIN_COMPILER "Clang " __clang_version__
#elif defined(__GNUC__)
#define TETHERBENCH_PLUGIN_COMPILER "GNU " __VERSION__
#else
#define TETHERBENCH_PLUGIN_COMPILER ""
#endif

extern "C" {
// The one entry point's data. Its first member is the kernel version so that a plugin of any
// version can be refused before anything else of it is read (a plugin of an older kernel,
// whose entry ends after register_entries, is refused there: its build members are never read).
struct tetherbench_plugin_entry {
  const char* kernel_version;  // TETHERBENCH_KERNEL_VERSION the plugin was compiled against
  const char* name;            // the plugin's own name, for messages and the report's manifest
  const char* version;         // the plugin's own version, part of its results' fingerprints
  void (*register_entries)(tb::PluginRegistrar&);
  // How it was built (above): for build_info.csv and the report's warning.
  int optimised;               // 1: compiled with optimisation (__OPTIMIZE__)
  int asserts;                 // 1: assertions on (NDEBUG not defined)
  const char* build_type;      // CMake's configuration ("Release", "Debug", ...), "" unknown
  const char* cxx_flags;       // the compile flags CMake passed for it, "" unknown
  const char* compiler;        // compiler and version
};
}

// The symbol the executable looks up.
#define TETHERBENCH_PLUGIN_ENTRY_SYMBOL "tetherbench_plugin"

#define TETHERBENCH_PLUGIN(NAME, VERSION, REGISTER_FUNCTION)                                                 \
  extern "C" __attribute__((visibility("default"))) const tetherbench_plugin_entry* tetherbench_plugin() { \
    static const tetherbench_plugin_entry entry{TETHERBENCH_KERNEL_VERSION,    NAME,                          \
                                                VERSION,                       &REGISTER_FUNCTION,            \
                                                TETHERBENCH_PLUGIN_OPTIMISED,  TETHERBENCH_PLUGIN_ASSERTS,    \
                                                TETHERBENCH_PLUGIN_BUILD_TYPE, TETHERBENCH_PLUGIN_CXX_FLAGS,  \
                                                TETHERBENCH_PLUGIN_COMPILER};                                 \
    return &entry;                                                                                           \
  }
