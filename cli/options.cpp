#include "cli/options.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <unistd.h>

#include "core/format.hpp"
#include "app/running/runner.hpp"

namespace tb::cli {

namespace {
std::string shown(const std::string& text) { return "'" + text + "'"; }
}  // namespace

double positive_number(const std::string& option, const std::string& text, const std::string& unit) {
  char* end = nullptr;
  const double x = text.empty() ? NAN : std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x) || !(x > 0.0))
    throw InputError(option + ": expected a finite number > 0" + (unit.empty() ? "" : " (" + unit + ")") + ", got " +
                     shown(text));
  return x;
}

double non_negative_number(const std::string& option, const std::string& text, const std::string& unit) {
  char* end = nullptr;
  const double x = text.empty() ? NAN : std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x) || !(x >= 0.0))
    throw InputError(option + ": expected a finite number >= 0" + (unit.empty() ? "" : " (" + unit + ")") + ", got " +
                     shown(text));
  return x;
}

int count(const std::string& option, const std::string& text, int max) {
  char* end = nullptr;
  const long x = text.empty() ? 0 : std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || x < 1 || x > max)
    throw InputError(option + ": expected an integer from 1 to " + std::to_string(max) + ", got " + shown(text));
  return int(x);
}

void refuse_repeats(const std::string& option, const std::vector<std::string>& names) {
  std::set<std::string> seen;
  for (const auto& n : names)
    if (!seen.insert(n).second) throw InputError(option + ": " + shown(n) + " is given twice (each run once)");
}

RunLimits limits(const std::optional<std::string>& steps, const std::optional<std::string>& samples,
                 const std::optional<std::string>& state) {
  RunLimits l;
  if (steps) l.max_steps = positive_number("--max-steps", *steps);
  if (samples) l.max_samples = positive_number("--max-samples", *samples);
  if (state) l.max_state = positive_number("--max-state", *state);
  return l;
}

}  // namespace tb::cli
