// The plugin's one entry point: what it adds to tetherbench's catalogue.
#include "core/plugin.hpp"
#include "symplectic_euler.hpp"

namespace {
void register_entries(tb::PluginRegistrar& add) { add.integrator(my_methods::symplectic_euler_info()); }
}  // namespace

TETHERBENCH_PLUGIN("symplectic_euler_example", SYMPLECTIC_EULER_PLUGIN_VERSION, register_entries)
