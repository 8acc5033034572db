#include "core/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tb {

namespace {
struct NamedMetric {
  const char* name;
  double (*get)(const ConservationMetrics&);
};
const NamedMetric kMetrics[] = {
    {"energy_err_max", [](const ConservationMetrics& m) { return m.energy_err_max; }},
    {"energy_err_mean", [](const ConservationMetrics& m) { return m.energy_err_mean; }},
    {"energy_err_rel_ke", [](const ConservationMetrics& m) { return m.energy_err_rel_ke; }},
    {"energy_drift_rate", [](const ConservationMetrics& m) { return m.energy_drift_rate; }},
    {"energy_drift_rate_abs", [](const ConservationMetrics& m) { return std::abs(m.energy_drift_rate); }},
    {"momentum_err_max", [](const ConservationMetrics& m) { return m.momentum_err_max; }},
    {"momentum_err_mean", [](const ConservationMetrics& m) { return m.momentum_err_mean; }},
    {"constraint_err_max", [](const ConservationMetrics& m) { return m.constraint_err_max; }},
    {"constraint_rate_err_max", [](const ConservationMetrics& m) { return m.constraint_rate_err_max; }},
    {"linear_momentum_err_max", [](const ConservationMetrics& m) { return m.linear_momentum_err_max; }},
    {"orthogonality_err_max", [](const ConservationMetrics& m) { return m.orthogonality_err_max; }},
    {"orthogonality_err_mean", [](const ConservationMetrics& m) { return m.orthogonality_err_mean; }},
};
}  // namespace

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& m : kMetrics) n.push_back(m.name);
    return n;
  }();
  return names;
}

double metric_value(const ConservationMetrics& m, const std::string& name) {
  for (const auto& metric : kMetrics)
    if (name == metric.name) return metric.get(m);
  std::string known;
  for (const auto& n : metric_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::out_of_range("unknown metric '" + name + "' (known: " + known + ")");
}

void MetricsAccumulator::add(double t, const Observation& o) {
  const double balance = o.energy - o.external_work;  // E(t) - W(t): conserved up to the scheme's error
  if (n_ == 0) {
    e0_ = balance;
    pi0_ = o.momentum;
    p0_ = o.linear_momentum;
    t0_ = t;
    gain_t_ = c_t_ = o_t_ = t;
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
  o_max_ = std::max(o_max_, o.orthogonality_err);
  o_sum_ += o.orthogonality_err;
  ke_max_ = std::max(ke_max_, o.kinetic);
  w_max_ = std::max(w_max_, std::abs(o.external_work));
  e_envelope_.add(t, std::abs(de));
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
  m.orthogonality_err_max = o_max_;
  m.orthogonality_err_mean = o_sum_ / n;
  m.kinetic_max = ke_max_;
  m.energy_magnitude = e_magnitude_;
  m.momentum_magnitude = std::abs(pi0_);
  m.linear_momentum_magnitude = p0_.allFinite() ? p0_.norm() : std::numeric_limits<double>::quiet_NaN();
  m.external_work_max = w_max_;
  // The envelopes only: their laws need the run's round-off floors, the model's slowest period and
  // the integrator's traits, which the runner knows (run_case).
  m.energy_growth.envelope = e_envelope_.points();
  m.energy_growth.err_max = e_max_;
  m.momentum_growth.envelope = pi_envelope_.points();
  m.momentum_growth.err_max = pi_max_;
  return m;
}

}  // namespace tb
