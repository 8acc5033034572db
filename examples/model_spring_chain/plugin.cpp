// The plugin's one entry point: what it adds to tetherbench's catalogue.
#include "core/plugin.hpp"
#include "model.hpp"

namespace {
void register_entries(tb::PluginRegistrar& add) { add.model(my_models::spring_chain::info()); }
}  // namespace

TETHERBENCH_PLUGIN("spring_chain_example", SPRING_CHAIN_PLUGIN_VERSION, register_entries)
