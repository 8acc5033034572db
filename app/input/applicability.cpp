#include "app/input/applicability.hpp"

namespace tb {

std::optional<std::string> why_not_applicable(const Case& c, const IntegratorInfo& info, const std::string& discretisation) {
  if (!c.lists(info.name)) return std::string("not among this case's [case] integrators");
  // Each reason says who declined what: the model the equation type the integrator consumes (in
  // this discretisation), with the model's reason, or the integrator the form that was built,
  // with the integrator's. Neither is ever a text written for another integrator of that type.
  const std::string form = to_string(info.consumes) + " form";
  const std::string of_discretisation = discretisation.empty() ? "" : " of its " + discretisation + " discretisation";
  std::string why_not;
  if (!c.model->offers(info.consumes, discretisation, why_not))
    return c.model->name() + " offers no " + form + of_discretisation + ": " + why_not;
  // A model whose motion jumps at its switches (an impact) runs only under methods that say how they
  // treat a jump (issue 48): the others would integrate the smooth motion through it.
  // A compliant discretisation of the links (a penalty regularisation) has no jump: every method runs it.
  if (const SwitchingFunctions* sw = c.model->switching();
      sw && !sw->impacts.empty() && !sw->compliant_in(discretisation) && info.impacts_by.empty())
    return info.name + " declines " + c.model->name() + "'s " + form + of_discretisation + ": " + sw->impacts +
           "; the method has neither event location nor an impact law, so it would step through the velocity jump "
           "as if the motion were smooth";
  // An integrator that declines some forms of its kind (IntegratorInfo::why_not: e.g. no
  // analytic tangents) is judged on the form itself, built here (only for such integrators).
  if (info.why_not)
    if (auto built = c.model->make_formulation(info.consumes, discretisation, why_not))
      if (std::string why = info.why_not(*built); !why.empty())
        return info.name + " declines " + c.model->name() + "'s " + form + of_discretisation + ": " + why;
  return std::nullopt;
}

std::vector<RunKey> runs_of(const Case& c, const std::vector<IntegratorInfo>& integrators) {
  std::vector<RunKey> keys;
  const auto discretisations = c.model->discretisations();
  for (size_t d = 0; d < discretisations.size(); ++d)
    for (const auto& info : integrators)
      if (d == 0 || !why_not_applicable(c, info, discretisations[d])) keys.push_back({&c, &info, discretisations[d]});
  return keys;
}

}  // namespace tb
