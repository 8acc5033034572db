#include "app/input/case_loading.hpp"

#include <set>

#include "app/input/applicability.hpp"

namespace tb {

std::vector<Case> load_cases(const Catalogue& catalogue, const std::vector<std::string>& files,
                             const std::vector<std::string>& overrides, const RunLimits& run_limits) {
  std::vector<Case> cases;
  std::set<std::string> names;
  for (const auto& f : files) {
    cases.push_back(load_case(f, catalogue));
    const Case& c = cases.back();
    if (!names.insert(c.name).second)
      throw InputError(f + ": key 'case.name': expected a name not used by another case of this command, got '" + c.name +
                       "' (their outputs would overwrite each other)");
    check_limits(c, run_limits);
    check_settings_act(c, catalogue);
  }
  apply_setting_overrides(cases, overrides, catalogue);
  return cases;
}

void apply_setting_overrides(std::vector<Case>& cases, const std::vector<std::string>& overrides, const Catalogue& catalogue) {
  for (const auto& o : overrides) {
    for (auto& c : cases) apply_setting_override(c, o, catalogue);
    // The override must be able to act: its integrator runs at least one of the cases.
    const std::string name = o.substr(0, o.find('.'));
    const IntegratorInfo& info = *catalogue.find_integrator(name);
    std::string reasons;
    bool runs_one = false;
    for (const auto& c : cases)
      for (const auto& d : c.model->discretisations()) {
        const auto why = why_not_applicable(c, info, d);
        if (!why) runs_one = true;
        else if (reasons.empty()) reasons = c.name + ": " + *why;
      }
    if (!runs_one && !cases.empty())
      throw InputError("--set " + o + ": integrator " + name + " runs none of the cases, so the setting could never act (" +
                       reasons + ")");
    // ... and acts on at least one of their forms (IntegratorInfo::idle_setting).
    const std::string key = o.substr(o.find('.') + 1, o.find('=') - o.find('.') - 1);
    std::string idle;
    bool acts_on_one = false;
    for (const auto& c : cases) {
      const auto why = idle_setting(c, info, key);
      if (why && why->empty()) acts_on_one = true;
      else if (why && idle.empty()) idle = c.name + ": " + *why;
    }
    if (!acts_on_one && !cases.empty())
      throw InputError("--set " + o + ": expected a setting that acts on one of the cases, got " + key +
                       ", which has nothing to act on in any (" + idle + ")");
  }
}

}  // namespace tb
