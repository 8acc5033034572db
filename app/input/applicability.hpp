#pragma once
// Which integrator runs which case: the applicability rule and the runs a case contributes.
// Case input, not running: selecting a case's integrators (app/input/integrator_selection.hpp) and
// loading a case (app/input/case_loading.hpp) ask it before anything runs, and the runner
// (app/running/runner.hpp) takes the keys it makes.

#include <optional>
#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/run_records.hpp"
#include "core/integrator.hpp"

namespace tb {

// The one applicability rule (list, run, table, report): the case's [case] integrators list
// allows the integrator, the model offers its equation type in that discretisation, and the
// integrator does not decline that form (IntegratorInfo::why_not).
std::optional<std::string> why_not_applicable(const Case& c, const IntegratorInfo& info, const std::string& discretisation);

// The runs a case contributes to the tables, in order: for the default discretisation every
// integrator (those that do not apply shown as n/a), for the others only those that apply.
std::vector<RunKey> runs_of(const Case& c, const std::vector<IntegratorInfo>& integrators);

}  // namespace tb
