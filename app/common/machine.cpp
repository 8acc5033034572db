#include "app/common/machine.hpp"

#include <fstream>

namespace tb {

std::optional<std::string> cpuinfo_value(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name != key) continue;
    std::string value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(value.begin());
    return value;
  }
  return std::nullopt;
}

const std::string& host_type() {
  static const std::string type = cpuinfo_value("model name").value_or("unknown");
  return type;
}

}  // namespace tb
