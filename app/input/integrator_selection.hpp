#pragma once
// `--integrator NAME` (repeatable) of `table` and `report`: the command runs only the named
// integrators, in every table and every study. The catalogue is narrowed to them -- studies
// iterate the catalogue's integrators, so they need no selection of their own -- while the
// reference and cross-check solvers stay available (a cross-check solver left out is kept as a
// reference-only method, as the catalogue allows), and the integrators left out stay known by
// name (Catalogue::left_out): a case's sweep or a paper claim naming one is no error, it is
// simply not run. The cases' own sweeps are narrowed the same way (a setting sweep, tolerance
// sweep or parameter map of an integrator left out is dropped; a comparison run by one is
// dropped from the sweep that had it).

#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/catalogue.hpp"

namespace tb {

// The catalogue with only `names` compared (all of it when `names` is empty). InputError naming
// `option` on an unknown name (listing the names) or a name given twice.
Catalogue selected_catalogue(const Catalogue& catalogue, const std::vector<std::string>& names,
                             const std::string& option = "--integrator");

// The cases as the selection runs them (above). InputError naming `option` when none of the
// selected integrators runs any of the cases (with each one's reason), and naming the --set
// assignment when it sets an integrator left out (it could never act).
std::vector<Case> selected_cases(const std::vector<Case>& cases, const Catalogue& selected,
                              const std::vector<std::string>& overrides, const std::string& option = "--integrator");

// InputError naming the --set assignment (NAME.KEY=VALUE) whose integrator is not among `selected`
// (chosen with `option`): it could never act.
void refuse_settings_of_others(const std::vector<std::string>& overrides, const std::vector<std::string>& selected,
                               const std::string& option = "--integrator");

// `--integrator NAME`... of `run` and `gate`: the named integrators of the catalogue, in the order
// given (all of them when none is named). InputError naming `option` on an unknown name (listing
// the names) or a name given twice.
std::vector<IntegratorInfo> chosen_integrators(const Catalogue& catalogue, const std::vector<std::string>& names,
                                               const std::string& option = "--integrator");

}  // namespace tb
