#pragma once
// The cases of one command (or one call of the Python package), loaded and checked together
// before anything runs: the command line's CASE_FILE... with --set, and tetherbench.load_case
// and tetherbench.run(settings=...) in python/ -- the same checks and the same messages.

#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/limits.hpp"

namespace tb {

// Loads the cases and applies the --set overrides, refusing: a case name given twice (their
// outputs would overwrite each other), a case over the run limits, a setting a case file gives
// that acts on nothing, and the overrides apply_setting_overrides refuses.
std::vector<Case> load_cases(const Catalogue& catalogue, const std::vector<std::string>& files,
                             const std::vector<std::string>& overrides, const RunLimits& limits);

// `--set NAME.KEY=VALUE` on loaded cases (apply_setting_override, app/input/case.hpp), refusing an
// override for an integrator that runs none of the cases, or one that acts on none of their
// forms (IntegratorInfo::idle_setting): it could never act.
void apply_setting_overrides(std::vector<Case>& cases, const std::vector<std::string>& overrides, const Catalogue& catalogue);

}  // namespace tb
