// Built as if against another kernel version: refused before its registration runs.
#include <stdexcept>

#include "core/plugin.hpp"

namespace {
void register_entries(tb::PluginRegistrar&) { throw std::logic_error("must never be called"); }
}  // namespace

extern "C" __attribute__((visibility("default"))) const tetherbench_plugin_entry* tetherbench_plugin() {
  static const tetherbench_plugin_entry entry{"0.0.1", "old_plugin", "1.0", &register_entries};
  return &entry;
}
