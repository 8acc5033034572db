#include "core/stability_criterion.hpp"

#include <cmath>
#include <limits>

#include "core/format.hpp"

namespace tb {

std::string Instability::describe() const {
  const std::string when = " at t = " + format_g(t, 4) + " s";
  switch (bound) {
    case Bound::EnergyGain: return "energy gain " + format_g(value, 3) + " × max KE" + when;
    case Bound::Constraint: return "constraint error " + format_g(value, 3) + " > " + format_g(limit, 3) + when;
    case Bound::Orthogonality: return "orthogonality error " + format_g(value, 3) + " > " + format_g(limit, 3) + when;
    case Bound::NonFinite: return "non-finite energy" + when;
  }
  return "";
}

double energy_gain_rel(const ConservationMetrics& m) {
  const double gain = m.energy_gain_max;
  if (std::isnan(gain)) return gain;
  if (!(gain > kRoundOffGain * m.energy_magnitude)) return 0.0;  // round-off, not growth
  return m.kinetic_max > 0.0 ? gain / m.kinetic_max : std::numeric_limits<double>::infinity();
}

std::optional<Instability> judge_stability(const ConservationMetrics& m, const StabilityCriterion& criterion) {
  if (m.samples == 0) return std::nullopt;  // nothing observed: nothing to judge
  const double gain = energy_gain_rel(m);
  if (!std::isfinite(m.energy_gain_max) || !std::isfinite(m.kinetic_max))
    return Instability{Instability::Bound::NonFinite, gain, criterion.energy_fraction, m.energy_gain_t};
  if (gain > criterion.energy_fraction)
    return Instability{Instability::Bound::EnergyGain, gain, criterion.energy_fraction, m.energy_gain_t};
  if (!(m.constraint_err_max <= criterion.constraint_bound))
    return Instability{Instability::Bound::Constraint, m.constraint_err_max, criterion.constraint_bound, m.constraint_err_t};
  if (!(m.orthogonality_err_max <= criterion.constraint_bound))
    return Instability{Instability::Bound::Orthogonality, m.orthogonality_err_max, criterion.constraint_bound,
                       m.orthogonality_err_t};
  return std::nullopt;
}

std::optional<Instability> judge_sample(double t, const Observation& o, const StabilityCriterion& criterion) {
  const double balance = o.energy - o.external_work;
  if (!std::isfinite(balance) || !std::isfinite(o.kinetic))
    return Instability{Instability::Bound::NonFinite, balance, criterion.energy_fraction, t};
  if (!(o.constraint_err <= criterion.constraint_bound))
    return Instability{Instability::Bound::Constraint, o.constraint_err, criterion.constraint_bound, t};
  if (!(o.orthogonality_err <= criterion.constraint_bound))
    return Instability{Instability::Bound::Orthogonality, o.orthogonality_err, criterion.constraint_bound, t};
  return std::nullopt;
}

}  // namespace tb
