#include "models/planar_pendulum/mechanics.hpp"

#include <cmath>

namespace tb::planar_pendulum {

Eigen::Vector4d physical_from_polar(const Parameters& p, double theta, double omega) {
  const double s = std::sin(theta), c = std::cos(theta);
  // seed 004 "Example: Pendulum": p = l [sin, -cos] with y up; here z = -y points down.
  return {p.l * s, p.l * c, p.l * c * omega, -p.l * s * omega};
}

Eigen::Vector4d initial_physical(const Parameters& p, const InitialCondition& ic) {
  return ic.cartesian ? *ic.cartesian : physical_from_polar(p, ic.theta, ic.omega);
}

Observation observe(const Parameters& p, const Eigen::Vector4d& s, double tension) {
  const Eigen::Vector2d r(s[0], s[1]), v(s[2], s[3]);
  const double r_norm = r.norm();
  Observation o;
  o.kinetic = 0.5 * p.m * v.squaredNorm();
  o.energy = o.kinetic - p.m * p.g * r[1];
  o.momentum = p.g == 0.0 ? p.m * (r[1] * v[0] - r[0] * v[1]) : 0.0;  // about the pivot, where it is a momentum map (mechanics.hpp)
  o.constraint_err = std::abs(r_norm - p.l);
  o.constraint_rate_err = r_norm > 0.0 ? std::abs(r.dot(v)) / r_norm : v.norm();
  o.extra = {s[0], s[1], s[2], s[3], tension};
  return o;
}

std::vector<std::string> extra_column_names() { return {"x", "z", "vx", "vz", "tension"}; }

}  // namespace tb::planar_pendulum
