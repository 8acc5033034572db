#pragma once
// Numbers in messages and tables: printf's %g with a chosen number of significant digits.

#include <cstdio>
#include <string>

namespace tb {

inline std::string format_g(double x, int significant_digits = 6) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", significant_digits, x);
  return buf;
}

}  // namespace tb
