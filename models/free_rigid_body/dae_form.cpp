// The free rigid body as an implicit DAE in natural coordinates (SPEC "Formulations", the
// form the `ida` integrator consumes): R as 9 numbers with the orthonormality correction of
// seed 004 §3 ("What about the orthonormality condition?"):
//   F_R     = R' - R (hat(Omega) + Xi),   Xi = gamma/2 ((R^T R)^{-1} - I),
//   F_Omega = J Omega' - (J Omega) × Omega.
// The slide's derivation gives, with A = R^T R,
//   d/dt (A - I) = A hat(Omega) + hat(Omega)^T A - gamma (A - I),
// exactly (not only to first order): the symmetric defect A - I is damped at rate gamma while
// A hat(Omega) - hat(Omega) A merely rotates it. There are no constraints with multipliers (a
// free body has no couplings), so every component is differential and b.p is unused.
//
// Jacobian dF/dy + cj dF/dy' (IDA's iteration matrix):
//   dF_R/dR' = I,   dF_Omega/dOmega' = J                             (times cj)
//   dF_R/dOmega_l = -R hat(e_l)
//   dF_R/dR [dR]  = -dR (hat(Omega) + Xi) - R dXi,
//       dXi = -gamma/2 A^{-1} dA A^{-1}   (d(A^{-1}) = -A^{-1} dA A^{-1}),   dA = dR^T R + R^T dR
//   dF_Omega/dOmega = hat(Omega) J - hat(J Omega)   (from d(J Omega × Omega) = -hat(Omega) J dOmega + hat(J Omega) dOmega)

#include "models/free_rigid_body/forms.hpp"

namespace tb::free_rigid_body {
namespace {

Mat3 orthonormality_correction(const Mat3& R, double gamma) {
  if (gamma == 0.0) return Mat3::Zero();
  return 0.5 * gamma * ((R.transpose() * R).inverse() - Mat3::Identity());  // 3x3: closed-form inverse
}

}  // namespace

Eigen::VectorXd DaeForm::consistent_initial_state(const BaumgarteParameters& /*b*/) const { return initial_state(); }

Eigen::VectorXd DaeForm::consistent_initial_derivative(const BaumgarteParameters& b) const {
  // F is solved for y' explicitly: R' = R (hat(Omega) + Xi), Omega' = J^{-1} ((J Omega) × Omega).
  const Eigen::VectorXd y = consistent_initial_state(b);
  const Mat3 R = read_attitude(y);
  const Vec3 Omega = y.tail<3>();
  Eigen::VectorXd yp(12);
  write_attitude(R * (so3::hat(Omega) + orthonormality_correction(R, b.gamma)), yp);
  yp.tail<3>() = mech_.angular_acceleration(Omega);
  return yp;
}

void DaeForm::residual(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                       Eigen::VectorXd& F) const {
  const Mat3 R = read_attitude(y);
  const Vec3 Omega = y.tail<3>();
  const Mat3& J = mech_.params().J;
  F.resize(12);
  write_attitude(read_attitude(yp) - R * (so3::hat(Omega) + orthonormality_correction(R, b.gamma)), F);
  F.tail<3>() = J * yp.tail<3>() - (J * Omega).cross(Omega);
}

void DaeForm::jacobian(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& /*yp*/, double cj,
                       const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& entries) const {
  const Mat3 R = read_attitude(y);
  const Vec3 Omega = y.tail<3>();
  const Mat3& J = mech_.params().J;
  const Mat3 A_inv = b.gamma != 0.0 ? Mat3((R.transpose() * R).inverse()) : Mat3::Identity();  // used only if gamma != 0
  const Mat3 W = so3::hat(Omega) + orthonormality_correction(R, b.gamma);
  entries.clear();
  entries.reserve(81 + 27 + 9 + 9 + 9);
  for (int k = 0; k < 9; ++k) entries.emplace_back(k, k, cj);  // dF_R/dR'
  // dF_R/dR, one column per entry R_ab (index 3a + b).
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 3; ++c) {
      Mat3 dR = Mat3::Zero();
      dR(a, c) = 1.0;
      Mat3 col = -dR * W;
      if (b.gamma != 0.0) col += 0.5 * b.gamma * R * A_inv * (dR.transpose() * R + R.transpose() * dR) * A_inv;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) entries.emplace_back(3 * i + j, 3 * a + c, col(i, j));
    }
  // dF_R/dOmega_l = -R hat(e_l).
  for (int l = 0; l < 3; ++l) {
    const Mat3 col = -R * so3::hat(Vec3::Unit(l));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) entries.emplace_back(3 * i + j, 9 + l, col(i, j));
  }
  const Mat3 dOmega = so3::hat(Omega) * J - so3::hat(J * Omega) + cj * J;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) entries.emplace_back(9 + i, 9 + j, dOmega(i, j));
}

Observation DaeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return mech_.observe(read_attitude(y), y.tail<3>());
}

}  // namespace tb::free_rigid_body
