// Registers nothing.
#include "core/plugin.hpp"

namespace {
void register_entries(tb::PluginRegistrar&) {}
}  // namespace

TETHERBENCH_PLUGIN("empty", "1.0", register_entries)
