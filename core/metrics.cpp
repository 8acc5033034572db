#include "core/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tb {

double centre_of_mass_energy_change(const Eigen::Vector3d& P0, const Eigen::Vector3d& dP, double total_mass) {
  // |P0 + dP|^2/(2M) - |P0|^2/(2M), without the difference of two O(|P0|^2) terms.
  return (P0.dot(dP) + 0.5 * dP.squaredNorm()) / total_mass;
}

void MetricsAccumulator::add(double t, const Observation& o) {
  const double balance = o.energy - o.external_work;  // E(t) - W(t): conserved up to the scheme's error
  if (n_ == 0) {
    e0_ = balance;
    energy_first_ = o.energy;
    pi0_ = o.momentum;
    p0_ = o.linear_momentum;
    x0_ = o.centre_of_mass;
    mass_ = o.total_mass;
    t0_ = t;
    gain_t_ = c_t_ = o_t_ = t;
    inv0_ = o.invariants;
    for (size_t i = 0; i < kInvariantSlots; ++i)
      if (std::isfinite(inv0_[i])) inv_max_[i] = 0.0;  // NaN stays NaN: the model has no such invariant
  }
  ++n_;
  const double de = balance - e0_;
  const double dpi = std::abs(o.momentum - pi0_);
  e_max_ = std::max(e_max_, std::abs(de));
  if (!std::isnan(gain_max_) && !(de <= gain_max_)) gain_max_ = de, gain_t_ = t;  // a NaN stays
  if (o.constraint_err > c_max_) c_t_ = t;
  if (o.orthogonality_err > o_max_) o_t_ = t;
  e_sum_ += std::abs(de);
  pi_max_ = std::max(pi_max_, dpi);
  pi_sum_ += dpi;
  c_max_ = std::max(c_max_, o.constraint_err);
  cr_max_ = std::max(cr_max_, o.constraint_rate_err);
  p_max_ = std::max(p_max_, (o.linear_momentum - p0_).norm());  // NaN (not conserved) stays NaN below
  // The energy error whose growth law is fitted: the internal one where the centre of mass is
  // free (a momentum drift's |dP|^2/(2M) grows like t^2 when dP grows like t, whatever the method
  // does to the motion: that mechanism is the linear momentum's, reported by its own columns).
  double de_law = de;
  if (has_free_centre_of_mass()) {
    const Eigen::Vector3d dP = o.linear_momentum - p0_;
    const double de_com = centre_of_mass_energy_change(p0_, dP, mass_);
    de_law = de - de_com;
    e_com_max_ = std::max(e_com_max_, std::abs(de_com));
    e_int_max_ = std::max(e_int_max_, std::abs(de_law));
    x_drift_max_ = std::max(x_drift_max_, (o.centre_of_mass - x0_ - p0_ * ((t - t0_) / mass_)).norm());
  }
  o_max_ = std::max(o_max_, o.orthogonality_err);
  o_sum_ += o.orthogonality_err;
  ke_max_ = std::max(ke_max_, o.kinetic);
  w_max_ = std::max(w_max_, std::abs(o.external_work));
  energy_last_ = o.energy;
  w_last_ = o.external_work;
  for (size_t i = 0; i < kInvariantSlots; ++i)
    if (!std::isnan(inv_max_[i]) && !(std::abs(o.invariants[i] - inv0_[i]) <= inv_max_[i]))
      inv_max_[i] = std::abs(o.invariants[i] - inv0_[i]);  // a non-finite value is kept: never hidden by max
  e_envelope_.add(t, std::abs(de_law));
  pi_envelope_.add(t, dpi);
  e_magnitude_ = std::max(e_magnitude_, std::abs(o.kinetic) + std::abs(o.energy - o.kinetic));
  const double s = t - t0_;
  st_ += s;
  se_ += de;
  stt_ += s * s;
  ste_ += s * de;
}

ConservationMetrics MetricsAccumulator::result() const {
  ConservationMetrics m;
  m.samples = n_;
  if (n_ == 0) return m;
  m.energy_err_max = e_max_;
  m.energy_err_mean = e_sum_ / double(n_);
  m.energy_err_rel_ke = ke_max_ > 0.0 ? e_max_ / ke_max_ : 0.0;
  m.energy_gain_max = gain_max_;
  m.energy_gain_t = gain_t_;
  m.constraint_err_t = c_t_;
  m.orthogonality_err_t = o_t_;
  const double n = double(n_);
  const double denom = n * stt_ - st_ * st_;
  m.energy_drift_rate = denom > 0.0 ? (n * ste_ - st_ * se_) / denom : 0.0;
  m.momentum_err_max = pi_max_;
  m.momentum_err_mean = pi_sum_ / n;
  m.constraint_err_max = c_max_;
  m.constraint_rate_err_max = cr_max_;
  m.linear_momentum_err_max = p0_.allFinite() ? p_max_ : std::numeric_limits<double>::quiet_NaN();
  if (has_free_centre_of_mass()) {
    m.energy_err_com_max = e_com_max_;
    m.energy_err_internal_max = e_int_max_;
    m.com_drift_max = x_drift_max_;
  }
  m.orthogonality_err_max = o_max_;
  m.orthogonality_err_mean = o_sum_ / n;
  m.kinetic_max = ke_max_;
  m.energy_magnitude = e_magnitude_;
  m.momentum_magnitude = std::abs(pi0_);
  m.linear_momentum_magnitude = p0_.allFinite() ? p0_.norm() : std::numeric_limits<double>::quiet_NaN();
  m.external_work_max = w_max_;
  m.energy_first = energy_first_;
  m.energy_last = energy_last_;
  m.external_work_last = w_last_;
  m.invariant_err_max = inv_max_;
  for (size_t i = 0; i < kInvariantSlots; ++i) m.invariant_magnitude[i] = std::abs(inv0_[i]);
  // The envelopes only: their laws need the run's round-off floors, the model's slowest period and
  // the integrator's traits, which the runner knows (run_case).
  m.energy_growth.envelope = e_envelope_.points();
  m.energy_growth.err_max = has_free_centre_of_mass() ? e_int_max_ : e_max_;
  m.momentum_growth.envelope = pi_envelope_.points();
  m.momentum_growth.err_max = pi_max_;
  return m;
}

}  // namespace tb
