#pragma once
// Command-line values checked like case-file keys: every bad one is an InputError (exit
// status 2) naming the option, the value and what was expected, before anything is written.

#include <optional>
#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/limits.hpp"
#include "app/common/output_folder.hpp"  // output_folder, which the commands share with the Python package

namespace tb::cli {

// A finite number > 0 (the whole text: "1e-3", not "1e-3s").
double positive_number(const std::string& option, const std::string& text, const std::string& unit = "");
double non_negative_number(const std::string& option, const std::string& text, const std::string& unit = "");
// An integer in [1, max].
int count(const std::string& option, const std::string& text, int max);
// Names given at most once each.
void refuse_repeats(const std::string& option, const std::vector<std::string>& names);

// --max-steps, --max-samples, --max-state over the defaults (nullopt: not given).
RunLimits limits(const std::optional<std::string>& steps, const std::optional<std::string>& samples,
                 const std::optional<std::string>& state);

}  // namespace tb::cli
