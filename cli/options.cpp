#include "cli/options.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <unistd.h>

#include "core/format.hpp"
#include "app/runner.hpp"

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

int count(const std::string& option, const std::string& text, int max) {
  char* end = nullptr;
  const long x = text.empty() ? 0 : std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || x < 1 || x > max)
    throw InputError(option + ": expected an integer from 1 to " + std::to_string(max) + ", got " + shown(text));
  return int(x);
}

std::string output_folder(const std::string& option, const std::string& text, const std::vector<std::string>& writes) {
  namespace fs = std::filesystem;
  if (text.empty()) throw InputError(option + ": expected a folder to write into, got an empty path");
  std::error_code ec;
  if (fs::exists(text, ec) && !fs::is_directory(text, ec))
    throw InputError(option + ": expected a folder to write into, got " + shown(text) + ", an existing file");
  // The folder will be made where the nearest existing ancestor is: it must be a folder we may
  // write into (--out FILE/sub is refused here, not by the filesystem after the runs).
  fs::path ancestor = fs::absolute(text, ec);
  while (!ancestor.empty() && !fs::exists(ancestor, ec) && ancestor != ancestor.parent_path()) ancestor = ancestor.parent_path();
  if (!fs::is_directory(ancestor, ec))
    throw InputError(option + ": expected a folder that can be made, got " + shown(text) + ": " + shown(ancestor.string()) +
                     " is an existing file, not a folder");
  if (access(ancestor.c_str(), W_OK | X_OK) != 0)
    throw InputError(option + ": expected a folder that can be made or written, got " + shown(text) + ": " +
                     shown(ancestor.string()) + " is not writable");
  for (const auto& name : writes) {
    const fs::path file = fs::path(text) / name;
    if (fs::exists(file, ec) && !fs::is_regular_file(file, ec))
      throw InputError(option + ": expected " + shown(text) + " to be writable as a report folder, but its " + name +
                       " exists and is not a regular file (a folder?)");
  }
  return text;
}

std::vector<std::string> files_named_in(const std::string& list) {
  std::vector<std::string> names;
  std::string name;
  for (char c : list + ",") {
    if (c == ',' || c == ' ' || c == ';') {
      if (name.find('.') != std::string::npos && name.find('/') == std::string::npos && name.find('*') == std::string::npos)
        names.push_back(name);
      name.clear();
    } else {
      name += c;
    }
  }
  return names;
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
