#include "core/violable_invariants.hpp"

#include <cmath>

#include "core/metrics.hpp"

namespace tb {

bool ViolableInvariants::covers(const MetricSpec& metric) const {
  switch (metric.violable) {
    case Violable::Always: return true;
    case Violable::Momentum: return momentum;
    case Violable::LinearMomentum: return linear_momentum;
    case Violable::Constraints: return constraints;
    case Violable::ConstraintRates: return constraint_rates;
    case Violable::Rotations: return rotations;
    case Violable::Invariant: return invariants.at(metric.slot);
  }
  return true;
}

bool ViolableInvariants::covers(const std::string& metric) const { return covers(metric_spec(metric)); }

std::string ViolableInvariants::why_not(const MetricSpec& metric) const {
  if (covers(metric)) return "";
  switch (metric.violable) {
    case Violable::Momentum: return "no momentum map";
    case Violable::LinearMomentum: return "no linear momentum conserved";
    case Violable::Constraints: return "no constraint";
    // Positions constrained but their rate zero by the form's own equations (q' = omega x q).
    case Violable::ConstraintRates: return constraints ? "constraint rate 0 by construction" : "no constraint";
    case Violable::Rotations: return "no rotation integrated";
    case Violable::Invariant: return std::string(invariant_specs().at(metric.slot).absent);
    case Violable::Always: break;
  }
  return "";
}

std::string ViolableInvariants::not_integrated() const {
  std::string out;
  for (const auto& m : metric_registry())
    if (!covers(m)) {
      if (!out.empty()) out += ' ';
      out += m.name;
    }
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
  const Observation o = form.observe(0.0, form.initial_state());
  for (size_t i = 0; i < kInvariantSlots; ++i) v.invariants[i] = std::isfinite(o.invariants[i]);
  return v;
}

}  // namespace tb
