// The free rigid body's observables and state layout (see mechanics.hpp).

#include "models/free_rigid_body/mechanics.hpp"
#include "core/metric_registry.hpp"

namespace tb::free_rigid_body {

Mat3 read_attitude(const Eigen::VectorXd& y) {
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = y(3 * i + j);
  return R;
}

void write_attitude(const Mat3& R, Eigen::VectorXd& y) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) y(3 * i + j) = R(i, j);
}

Observation Mechanics::observe(const Mat3& R, const Vec3& Omega) const {
  Observation o;
  const Vec3 Pi = p_.J * Omega;  // body angular momentum
  o.kinetic = 0.5 * Omega.dot(Pi);
  o.energy = o.kinetic;          // no potential: torque-free
  const Vec3 pi = R * Pi;        // spatial angular momentum, conserved as a vector
  o.momentum = pi.z();
  o.orthogonality_err = so3::orthogonality_error(R);
  // |Pi|, the Casimir of the Lie-Poisson bracket on so(3)*: constant on the coadjoint orbit for
  // any Hamiltonian, so a method that moves Pi by rotations only (the LGVI's Pi' = F^T Pi) keeps
  // it to round-off, and one that adds increments to Omega (RK4) drifts off the sphere.
  static const size_t casimir = invariant_slot("casimir");
  o.invariants[casimir] = Pi.norm();
  o.extra = {pi.x(), pi.y(), pi.z(), Omega.x(), Omega.y(), Omega.z()};
  return o;
}

std::vector<std::string> Mechanics::extra_column_names() { return {"pi_x", "pi_y", "pi_z", "Omega_x", "Omega_y", "Omega_z"}; }

Eigen::VectorXd Mechanics::pack(const Mat3& R, const Vec3& Omega) const {
  Eigen::VectorXd y(12);
  write_attitude(R, y);
  y.tail<3>() = Omega;
  return y;
}

}  // namespace tb::free_rigid_body
