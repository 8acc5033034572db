#include "models/planar_pendulum/unilateral.hpp"

#include <algorithm>
#include <cmath>

namespace tb::planar_pendulum {

double taut_tension(const Parameters& p, const Eigen::Vector4d& s) {
  const Eigen::Vector2d r = s.head<2>(), v = s.tail<2>();
  return p.m * (p.g * r.y() + v.squaredNorm()) / r.norm();
}

double taut_tension_rate(const Parameters& p, const Eigen::Vector4d& s) {
  // d/dt [m (g z + |v|^2) / |r|] = m (g v_z + 2 v.a) / |r| - m (g z + |v|^2) v_r / |r|^2,
  // a = g e_z - (T / m) r-hat.
  const Eigen::Vector2d r = s.head<2>(), v = s.tail<2>();
  const double n = r.norm(), T = taut_tension(p, s), v_r = r.dot(v) / n;
  const double v_dot_a = p.g * v.y() - T / p.m * v_r;
  return p.m * (p.g * v.y() + 2.0 * v_dot_a) / n - T * v_r / n;
}

double motion_time_scale(const Parameters& p, const Eigen::Vector4d& start) {
  if (p.g > 0.0) return std::sqrt(p.l / p.g);
  const double speed = start.tail<2>().norm();
  return speed > 0.0 ? p.l / speed : 1.0;
}

double tension_scale(const Parameters& p) { return p.m * (p.g > 0.0 ? p.g : 1.0) / p.l; }

void link_tension_function(const Parameters& p, const Eigen::Vector4d& s, double& value, double& rate) {
  const double k = tension_scale(p);
  value = taut_tension(p, s) / k;
  rate = taut_tension_rate(p, s) / k;
}

void link_gap_function(const Parameters& p, const Eigen::Vector4d& s, double& value, double& rate) {
  const Eigen::Vector2d r = s.head<2>(), v = s.tail<2>();
  const double n = r.norm();
  value = n - p.l;
  rate = n > 0.0 ? r.dot(v) / n : 0.0;
}

bool apply_impact(const Parameters& p, Eigen::Vector4d& s, double& lost, double tol) {
  const Eigen::Vector2d r = s.head<2>();
  const double n = r.norm();
  if (!(n >= p.l * (1.0 - tol))) return false;
  const Eigen::Vector2d r_hat = r / n;
  const double v_r = r_hat.dot(s.tail<2>());
  if (!(v_r > 0.0)) return false;
  s.tail<2>() -= (1.0 + p.restitution) * v_r * r_hat;
  s.head<2>() = p.l * r_hat;
  lost = 0.5 * p.m * (1.0 - p.restitution * p.restitution) * v_r * v_r;
  return true;
}

Observation observe_unilateral(const Parameters& p, const Eigen::Vector4d& s, double tension, double impact_loss) {
  Observation o = observe(p, s, tension);
  const Eigen::Vector2d r = s.head<2>(), v = s.tail<2>();
  const double n = r.norm();
  o.constraint_err = std::max(0.0, n - p.l);
  o.constraint_rate_err = n >= p.l && n > 0.0 ? std::max(0.0, r.dot(v) / n) : 0.0;
  o.external_work = 0.0 - impact_loss;  // +0 before any impact
  return o;
}

}  // namespace tb::planar_pendulum
