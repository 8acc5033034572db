#pragma once
// `tetherbench check-plugin PLUGIN... [--fixture FILE]...`: every conformance check on every entry
// of the plugins (conformance/integrator_checks.hpp, conformance/model_checks.hpp), as a table
// of one row per check: pass, FAIL with the first failed assertion, or n/a with why.
//
//   - an integrator runs on the bench's test models (the suite's: suite/conformance_bench.cpp);
//   - a model runs on each fixture case given for it with --fixture (a model without one fails
//     its "fixture case" check, naming the option), checked with the catalogue's integrators;
//   - a study is listed, not checked: a study has no generic contract (what it plans and writes
//     is its own).

#include <string>
#include <vector>

#include "conformance/integrator_checks.hpp"
#include "conformance/model_checks.hpp"

namespace tb::conformance {

// The checks of one loaded plugin's entries, in the order of its entries (integrators, models,
// studies), each entry's checks in their own order.
std::vector<Check> check_plugin(const Catalogue::Plugin& plugin, const Catalogue& catalogue, const IntegratorBench& bench,
                                const std::vector<ModelFixture>& fixtures);

// The table: a header, one line per check (entry, check, result, details with the measured
// numbers), and a closing count.
std::string format_checks(const std::vector<Check>& checks);

// Whether none failed (the command's exit status 0).
bool all_passed(const std::vector<Check>& checks);

}  // namespace tb::conformance
