#include "conformance/final_state.hpp"

#include <stdexcept>

namespace tb::conformance {

IntegratorSettings settings_of(const IntegratorInfo& info, double h) { return IntegratorSettings::defaults(info.settings, h); }

void set_if_declared(IntegratorSettings& s, const std::string& key, double value) {
  if (s.declares(key)) s.set(key, value);
}

std::unique_ptr<Formulation> formulation_for(const Model& model, const IntegratorInfo& info) {
  std::string why_not;
  auto f = model.make_formulation(info.consumes, why_not);
  if (!f) throw std::runtime_error(info.name + " does not apply: " + why_not);
  return f;
}

FinalState run_to(const Model& model, const IntegratorInfo& info, double t_end, double h, double rtol, double atol) {
  auto form = formulation_for(model, info);
  IntegratorSettings s = settings_of(info, h);
  set_if_declared(s, "rtol", rtol);
  set_if_declared(s, "atol", atol);
  FinalState out;
  out.outcome = integrate(*form, info, s, t_end, t_end, {});
  out.physical = form->physical_state(out.outcome.final_state);
  return out;
}

}  // namespace tb::conformance
