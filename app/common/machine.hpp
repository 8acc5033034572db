#pragma once
// What the machine is, for the provenance of timings (the host column, build_info.csv).

#include <optional>
#include <string>

namespace tb {

// The first value of `key` in /proc/cpuinfo ("model name", "flags"), or nullopt.
std::optional<std::string> cpuinfo_value(const std::string& key);

// The machine's type for the timings' provenance: the CPU model, or "unknown".
const std::string& host_type();

}  // namespace tb
