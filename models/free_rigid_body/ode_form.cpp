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

void OdeForm::rate_residual(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                            Eigen::VectorXd& S) const {
  const Mat3& J = mech_.params().J;
  const Vec3 Omega = y.tail<3>(), JO = J * Omega, Wd = vdot.head<3>();
  r = J * Wd - JO.cross(Omega);
  // |J||Omega'| and the two products of each component of the cross product (|J||Omega| for JO).
  const Vec3 JOa = J.cwiseAbs() * Omega.cwiseAbs(), Oa = Omega.cwiseAbs();
  S = J.cwiseAbs() * Wd.cwiseAbs();
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    S(i) += JOa(j) * Oa(k) + JOa(k) * Oa(j);
  }
}

void OdeForm::rate_tangent_entries(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& /*vdot*/,
                                   std::vector<Eigen::Triplet<double>>& M, std::vector<Eigen::Triplet<double>>& /*K*/,
                                   std::vector<Eigen::Triplet<double>>& C) const {
  const Mat3& J = mech_.params().J;
  const Vec3 Omega = y.tail<3>();
  // d((J Omega) x Omega) = (J dOmega) x Omega + (J Omega) x dOmega = (hat(J Omega) - hat(Omega) J) dOmega.
  const Mat3 dr = so3::hat(Omega) * J - so3::hat(J * Omega);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (J(i, j) != 0.0) M.emplace_back(i, j, J(i, j));
      if (dr(i, j) != 0.0) C.emplace_back(i, j, dr(i, j));
    }
}

bool OdeForm::project(Eigen::VectorXd& y) const {
  manifold::project_rotation(y, 0);
  return true;
}

Observation OdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return mech_.observe(read_attitude(y), y.tail<3>());
}

}  // namespace tb::free_rigid_body
