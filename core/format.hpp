#pragma once
// Numbers in messages and tables (printf's %g with a chosen number of significant digits), and
// the time stamp of provenance lines.

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace tb {

inline std::string format_g(double x, int significant_digits = 6) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", significant_digits, x);
  return buf;
}

// The items with `sep` between them; separators start after the first non-empty item, so
// leading empty items leave no separator behind ("", "b" -> "b").
inline std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

// printf's %e with three decimals ("1.234e-05"), for times and residuals in solver messages.
inline std::string format_e(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3e", x);
  return buf;
}

// The current time as "2026-11-23 00:30:00 UTC", for provenance lines.
inline std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  return buf;
}

}  // namespace tb
