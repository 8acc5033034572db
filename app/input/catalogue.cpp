#include "app/input/catalogue.hpp"

#include <algorithm>
#include <stdexcept>

namespace tb {

namespace {

template <class Info>
const Info* find_by_name(const std::vector<Info>& list, const std::string& name) {
  for (const auto& info : list)
    if (info.name == name) return &info;
  return nullptr;
}

template <class Info>
std::vector<std::string> names_of(const std::vector<Info>& list) {
  std::vector<std::string> names;
  for (const auto& info : list) names.push_back(info.name);
  return names;
}

void check_sorted_unique(const std::vector<std::string>& names, const std::string& what) {
  for (size_t i = 1; i < names.size(); ++i)
    if (!(names[i - 1] < names[i]))
      throw std::logic_error("catalogue: the " + what + " list must be sorted by name without duplicates ('" +
                             names[i - 1] + "' before '" + names[i] + "')");
  for (const auto& n : names)
    if (n.empty() || n.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      throw std::logic_error("catalogue: " + what + " name '" + n + "' must be lower-case letters, digits and '_'");
}

}  // namespace

const ModelInfo* Catalogue::find_model(const std::string& name) const { return find_by_name(models, name); }
const IntegratorInfo* Catalogue::find_integrator(const std::string& name) const { return find_by_name(integrators, name); }
const StudyInfo* Catalogue::find_study(const std::string& name) const { return find_by_name(studies, name); }
bool Catalogue::knows_integrator(const std::string& name) const {
  return find_integrator(name) || std::find(left_out.begin(), left_out.end(), name) != left_out.end();
}
std::vector<std::string> Catalogue::model_names() const { return names_of(models); }
std::vector<std::string> Catalogue::integrator_names() const { return names_of(integrators); }
std::vector<std::string> Catalogue::study_names() const { return names_of(studies); }

const IntegratorInfo& Catalogue::reference() const {
  const IntegratorInfo* info = find_by_name(reference_solvers, reference_integrator);
  if (!info)
    throw std::logic_error("catalogue: the reference solver '" + reference_integrator +
                           "' is not one of the reference solvers (" + join_names(names_of(reference_solvers)) + ")");
  return *info;
}

const IntegratorInfo& Catalogue::crosscheck() const {
  const IntegratorInfo* info = find_integrator(crosscheck_integrator);
  if (!info) info = find_by_name(reference_solvers, crosscheck_integrator);
  if (!info) throw std::logic_error("catalogue: the cross-check solver '" + crosscheck_integrator + "' is not an integrator");
  return *info;
}

std::vector<std::string> StepCostComparisons::named() const {
  std::vector<std::string> names = step_rates;
  for (const auto& r : ratios) names.insert(names.end(), {r.method, r.baseline});
  for (const auto& same : same_equations)
    for (const auto& p : same.pairs) names.insert(names.end(), {p.method, p.twin});
  return names;
}

std::vector<std::string> StepCostComparisons::models() const {
  std::vector<std::string> names;
  for (const auto& same : same_equations) names.push_back(same.model);
  for (const auto& r : model_ratios) names.insert(names.end(), {r.model, r.baseline});
  return names;
}

void Catalogue::validate() const {
  check_sorted_unique(model_names(), "model");
  check_sorted_unique(integrator_names(), "integrator");
  check_sorted_unique(study_names(), "study");
  for (const auto& m : models)
    if (!m.build) throw std::logic_error("catalogue: model '" + m.name + "' has no factory");
  for (const auto& s : studies) {
    if (!s.make) throw std::logic_error("catalogue: study '" + s.name + "' has no factory");
    const auto& taken = report_own_keys();
    if (std::find(taken.begin(), taken.end(), s.name) != taken.end())
      throw std::logic_error("catalogue: study '" + s.name + "' is named like a key of [report]; expected another name");
  }
  check_sorted_unique(names_of(reference_solvers), "reference solver");
  std::vector<IntegratorInfo> every = integrators;
  every.insert(every.end(), reference_solvers.begin(), reference_solvers.end());
  for (const auto& i : every) {
    if (!i.make) throw std::logic_error("catalogue: integrator '" + i.name + "' has no factory");
    if (i.order < 1) throw std::logic_error("catalogue: integrator '" + i.name + "' declares no order");
    std::vector<std::string> keys;
    for (const auto& spec : i.settings) {
      if (spec.type == SettingSpec::Type::Word && spec.words.empty())
        throw std::logic_error("catalogue: integrator '" + i.name + "' word setting '" + spec.name + "' lists no words");
      if (spec.is_number() ? !spec.accepts(spec.default_value) : !spec.accepts(spec.default_text))
        throw std::logic_error("catalogue: integrator '" + i.name + "' setting '" + spec.name + "' has a default outside " +
                               spec.expectation());
      if (spec.name == "h") throw std::logic_error("catalogue: integrator '" + i.name + "' redeclares the case's step h");
      keys.push_back(spec.name);
    }
    std::sort(keys.begin(), keys.end());
    if (std::adjacent_find(keys.begin(), keys.end()) != keys.end())
      throw std::logic_error("catalogue: integrator '" + i.name + "' declares a setting twice");
    if (i.adaptive && !IntegratorSettings::defaults(i.settings, 0.0).declares_tolerances())
      throw std::logic_error("catalogue: adaptive integrator '" + i.name + "' must declare its error tolerances rtol and atol (error_tolerance_settings)");
  }
  for (const auto& name : step_cost.named())
    if (!knows_integrator(name))
      throw std::logic_error("catalogue: the step-cost comparisons name '" + name + "', which is no integrator of the catalogue");
  for (const auto& same : step_cost.same_equations)
    if (same.max_iterations <= 0.0 || same.max_cost_ratio <= 0.0 || same.why.empty())
      throw std::logic_error("catalogue: the step-cost comparison of the same discrete equations on '" + same.model +
                             "' must declare both bounds and why");
  for (const auto& r : reference_solvers)
    if (find_integrator(r.name))
      throw std::logic_error("catalogue: reference solver '" + r.name +
                             "' is also a compared integrator: a reference must come from a method not under test");
  for (const IntegratorInfo* solver : {&reference(), &crosscheck()})
    if (!solver->adaptive || solver->consumes != FormulationKind::EmbeddedOde)
      throw std::logic_error("catalogue: the reference / cross-check solver '" + solver->name +
                             "' must be an adaptive ODE integrator");
  if (reference_integrator == crosscheck_integrator)
    throw std::logic_error("catalogue: the cross-check solver must differ from the reference solver '" +
                           reference_integrator + "'");
  if (const IntegratorInfo* check = event_check()) {
    if (!check->adaptive) throw std::logic_error("catalogue: the event check solver '" + check->name + "' must be adaptive");
    if (check->name == crosscheck_integrator)
      throw std::logic_error("catalogue: the event check solver must differ from the cross-check solver '" + crosscheck_integrator + "'");
  }
}

const IntegratorInfo* Catalogue::event_check() const {
  if (event_check_integrator.empty()) return nullptr;
  const IntegratorInfo* info = find_integrator(event_check_integrator);
  if (!info) info = find_by_name(reference_solvers, event_check_integrator);
  if (!info) throw std::logic_error("catalogue: the event check solver '" + event_check_integrator + "' is not an integrator");
  return info;
}

std::string Catalogue::origin(const std::string& kind, const std::string& name) const {
  const auto it = origins.find(kind + " " + name);
  return it == origins.end() ? std::string() : it->second;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace tb
