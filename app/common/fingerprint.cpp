#include "app/common/fingerprint.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/format.hpp"

namespace tb {

std::string canonical_toml(const toml::value& v) {
  switch (v.type()) {
    case toml::value_t::table: {
      std::vector<std::string> keys;
      for (const auto& kv : v.as_table()) keys.push_back(kv.first);
      std::sort(keys.begin(), keys.end());
      std::string out = "{";
      for (const auto& k : keys) out += k + "=" + canonical_toml(v.as_table().at(k)) + ";";
      return out + "}";
    }
    case toml::value_t::array: {
      std::string out = "[";
      for (const auto& e : v.as_array()) out += canonical_toml(e) + ",";
      return out + "]";
    }
    case toml::value_t::integer: return format_g(double(v.as_integer()), 17);
    case toml::value_t::floating: return format_g(v.as_floating(), 17);
    case toml::value_t::string: return "\"" + v.as_string().str + "\"";
    case toml::value_t::boolean: return v.as_boolean() ? "true" : "false";
    default: return toml::format(v);
  }
}

std::string fingerprint_of(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace tb
