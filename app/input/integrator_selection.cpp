#include "app/input/integrator_selection.hpp"

#include <algorithm>
#include <set>

#include "app/input/applicability.hpp"
#include "core/table_reader.hpp"  // InputError

namespace tb {

Catalogue selected_catalogue(const Catalogue& catalogue, const std::vector<std::string>& names, const std::string& option) {
  if (names.empty()) return catalogue;
  std::set<std::string> chosen;
  for (const auto& name : names) {
    if (!catalogue.find_integrator(name))
      throw InputError(option + ": unknown integrator '" + name + "' (expected one of: " +
                       join_names(catalogue.integrator_names()) + ")");
    if (!chosen.insert(name).second) throw InputError(option + ": '" + name + "' is given twice (each run once)");
  }
  Catalogue selected = catalogue;
  selected.integrators.clear();
  for (const auto& info : catalogue.integrators) {
    if (chosen.count(info.name)) selected.integrators.push_back(info);
    else selected.left_out.push_back(info.name);
  }
  // The cross-check of the reference solutions and the event check are read whichever integrators
  // run: left out, each stays as a method that only computes references (Catalogue::crosscheck and
  // event_check look there too).
  for (const std::string& keep : {catalogue.crosscheck_integrator, catalogue.event_check_integrator})
    if (!keep.empty() && !chosen.count(keep) && catalogue.find_integrator(keep))
      selected.reference_solvers.push_back(*catalogue.find_integrator(keep));
  std::sort(selected.reference_solvers.begin(), selected.reference_solvers.end(),
            [](const IntegratorInfo& a, const IntegratorInfo& b) { return a.name < b.name; });
  selected.validate();  // a logic error here is the selection's, not the user's
  return selected;
}

void refuse_settings_of_others(const std::vector<std::string>& overrides, const std::vector<std::string>& selected,
                               const std::string& option) {
  for (const auto& o : overrides) {
    const std::string name = o.substr(0, o.find('.'));
    if (std::find(selected.begin(), selected.end(), name) == selected.end())
      throw InputError("--set " + o + ": integrator " + name + " is not among the " + option +
                       " selection, so the setting could never act (selected: " + join_names(selected) + ")");
  }
}

std::vector<Case> selected_cases(const std::vector<Case>& cases, const Catalogue& selected,
                              const std::vector<std::string>& overrides, const std::string& option) {
  if (selected.left_out.empty()) return cases;
  refuse_settings_of_others(overrides, selected.integrator_names(), option);
  const auto runs = [&](const std::string& name) { return selected.find_integrator(name) != nullptr; };
  std::vector<Case> out = cases;
  std::string reasons;
  bool any = false;
  for (auto& c : out) {
    // Each study's own table, as its study narrows it (StudySection::restricted).
    for (auto it = c.sections.begin(); it != c.sections.end();)
      if (auto kept = it->second->restricted(runs)) {
        it->second = std::move(kept);
        ++it;
      } else {
        it = c.sections.erase(it);
      }
    // [report.ranking] integrators keeps its names: a name left out simply matches no run.
    for (const auto& key : runs_of(c, selected.integrators)) {
      if (const auto why = why_not_applicable(c, *key.integrator, key.discretisation))
        reasons += "; " + c.name + " " + key.label() + ": " + *why;
      else
        any = true;
    }
  }
  if (!any && !cases.empty())
    throw InputError(option + ": none of the chosen integrators (" + join_names(selected.integrator_names()) +
                     ") runs any of the cases (" + (reasons.empty() ? std::string("no run") : reasons.substr(2)) + ")");
  return out;
}

std::vector<IntegratorInfo> chosen_integrators(const Catalogue& catalogue, const std::vector<std::string>& names,
                                               const std::string& option) {
  if (names.empty()) return catalogue.integrators;
  std::vector<IntegratorInfo> chosen;
  std::set<std::string> seen;
  for (const auto& name : names) {
    if (!seen.insert(name).second) throw InputError(option + ": '" + name + "' is given twice (each run once)");
    const IntegratorInfo* info = catalogue.find_integrator(name);
    if (!info)
      throw InputError(option + ": unknown integrator '" + name + "' (expected one of: " +
                       join_names(catalogue.integrator_names()) + ")");
    chosen.push_back(*info);
  }
  return chosen;
}

}  // namespace tb
