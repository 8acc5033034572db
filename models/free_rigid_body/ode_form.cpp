// The free rigid body as a first-order ODE in embedded coordinates (SPEC "Formulations"):
// R as 9 numbers with R' = R hat(Omega), and Euler's equations J Omega' = (J Omega) × Omega.
// Nothing keeps R on SO(3): its orthogonality error is the integrator's truncation error.

#include "models/free_rigid_body/forms.hpp"

#include "numerics/manifold_projection.hpp"

namespace tb::free_rigid_body {

void OdeForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  const Vec3 Omega = y.tail<3>();
  dydt.resize(12);
  write_attitude(read_attitude(y) * so3::hat(Omega), dydt);
  dydt.tail<3>() = mech_.angular_acceleration(Omega);
}

bool OdeForm::project(Eigen::VectorXd& y) const {
  manifold::project_rotation(y, 0);
  return true;
}

Observation OdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return mech_.observe(read_attitude(y), y.tail<3>());
}

}  // namespace tb::free_rigid_body
