#include "core/violable_invariants.hpp"

#include <stdexcept>
#include <string_view>

#include "core/metrics.hpp"

namespace tb {

namespace {

// Each metric by its exact name and the declaration it rests on (nullptr: always violable, the
// energy balance). tests/test_not_integrated.cpp checks that every name of metric_names() has
// its row, so a new metric cannot fall through to a default.
struct MetricInvariant {
  std::string_view metric;
  bool ViolableInvariants::*declared;
};
constexpr MetricInvariant kMetricInvariants[] = {
    {"energy_err_max", nullptr},
    {"energy_err_mean", nullptr},
    {"energy_err_rel_ke", nullptr},
    {"energy_drift_rate", nullptr},
    {"energy_drift_rate_abs", nullptr},
    {"momentum_err_max", &ViolableInvariants::momentum},
    {"momentum_err_mean", &ViolableInvariants::momentum},
    {"constraint_err_max", &ViolableInvariants::constraints},
    {"constraint_rate_err_max", &ViolableInvariants::constraint_rates},
    {"linear_momentum_err_max", &ViolableInvariants::linear_momentum},
    {"orthogonality_err_max", &ViolableInvariants::rotations},
    {"orthogonality_err_mean", &ViolableInvariants::rotations},
};

}  // namespace

bool ViolableInvariants::covers(const std::string& metric) const {
  std::string_view name = metric;
  constexpr std::string_view kShared = "_shared";
  if (name.size() > kShared.size() && name.substr(name.size() - kShared.size()) == kShared)
    name.remove_suffix(kShared.size());
  for (const auto& m : kMetricInvariants)
    if (m.metric == name) return m.declared == nullptr || this->*m.declared;
  throw std::out_of_range("metric '" + metric + "' has no row in core/violable_invariants.cpp");
}

std::string ViolableInvariants::not_integrated() const {
  std::string out;
  for (const auto& name : metric_names())
    if (!covers(name)) out += (out.empty() ? "" : " ") + name;
  return out;
}

ViolableInvariants violable_invariants(const Model& model, const Formulation& form) {
  const IntegratedConstraints c = form.integrated_constraints();
  ViolableInvariants v;
  v.momentum = model.has_momentum_map();
  v.linear_momentum = model.conserves_linear_momentum();
  v.constraints = c.positions;
  v.constraint_rates = c.rates;
  v.rotations = model.integrates_rotations();
  return v;
}

}  // namespace tb
