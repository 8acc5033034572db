// An entry point that describes nothing.
#include "core/plugin.hpp"

extern "C" __attribute__((visibility("default"))) const tetherbench_plugin_entry* tetherbench_plugin() { return nullptr; }
