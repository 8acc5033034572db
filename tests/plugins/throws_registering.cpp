// Throws while registering.
#include <stdexcept>

#include "core/plugin.hpp"

namespace {
void register_entries(tb::PluginRegistrar&) { throw std::runtime_error("configuration file not found"); }
}  // namespace

TETHERBENCH_PLUGIN("thrower", "1.0", register_entries)
