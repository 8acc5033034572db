// The plugin's one entry point: what it adds to tetherbench's catalogue.
#include "core/plugin.hpp"
#include "observed_order.hpp"

namespace {
void register_entries(tb::PluginRegistrar& add) { add.study(my_studies::observed_order_info()); }
}  // namespace

TETHERBENCH_PLUGIN("observed_order_example", OBSERVED_ORDER_PLUGIN_VERSION, register_entries)
