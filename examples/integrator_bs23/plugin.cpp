// The plugin's one entry point: what it adds to tetherbench's catalogue.
#include "bs23.hpp"
#include "core/plugin.hpp"

namespace {
void register_entries(tb::PluginRegistrar& add) { add.integrator(my_methods::bs23_info()); }
}  // namespace

TETHERBENCH_PLUGIN("bs23_example", BS23_PLUGIN_VERSION, register_entries)
