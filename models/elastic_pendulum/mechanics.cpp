// The elastic pendulum's potential, forces and observables (see mechanics.hpp).

#include "models/elastic_pendulum/mechanics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tb::elastic_pendulum {

// The spring's stretch |x| - l0, or none while a tension-only spring is slack.
double Mechanics::acting_stretch(const Vec3& x) const {
  const double stretch = x.norm() - p_.l0;
  return p_.tension_only ? std::max(0.0, stretch) : stretch;
}

double Mechanics::tension(const Vec3& x) const { return p_.k * acting_stretch(x); }

double Mechanics::potential_energy(const Vec3& x) const {
  const double stretch = acting_stretch(x);
  return 0.5 * p_.k * stretch * stretch - p_.m * p_.g * x.z();
}

Vec3 Mechanics::potential_gradient(const Vec3& x) const {
  const Vec3 weight = p_.m * p_.g * Vec3::UnitZ();
  const double r = x.norm();  // once: this is every step's force
  if (p_.tension_only && r < p_.l0) return -weight;  // a slack spring: no force, whatever its direction
  // At the pivot the spring force has no direction: report NaN so integrators fail the step.
  if (!(r > 0.0)) return Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
  return (p_.k * (r - p_.l0) / r) * x - weight;
}

Mat3 Mechanics::potential_hessian(const Vec3& x) const {
  if (slack(x)) return Mat3::Zero();
  const double r = x.norm();
  if (!(r > 0.0)) return Mat3::Constant(std::numeric_limits<double>::quiet_NaN());
  return p_.k * ((1.0 - p_.l0 / r) * Mat3::Identity() + (p_.l0 / (r * r * r)) * x * x.transpose());
}

Observation Mechanics::observe(const Vec3& x, const Vec3& v) const {
  Observation o;
  o.kinetic = 0.5 * p_.m * v.squaredNorm();
  o.energy = o.kinetic + potential_energy(x);
  // Gravity and the central spring force exert no moment about the vertical through the pivot.
  o.momentum = p_.m * x.cross(v).z();
  o.extra = {x.x(), x.y(), x.z(), v.x(), v.y(), v.z(), x.norm(), tension(x)};
  return o;
}

std::vector<std::string> Mechanics::extra_column_names() { return {"x", "y", "z", "vx", "vy", "vz", "spring_length", "tension"}; }

}  // namespace tb::elastic_pendulum
