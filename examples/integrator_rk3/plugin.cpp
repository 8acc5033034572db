// The plugin's one entry point: what it adds to tetherbench's catalogue.
#include "core/plugin.hpp"
#include "rk3.hpp"

namespace {
void register_entries(tb::PluginRegistrar& add) { add.integrator(my_methods::rk3_info()); }
}  // namespace

TETHERBENCH_PLUGIN("rk3_example", RK3_PLUGIN_VERSION, register_entries)
