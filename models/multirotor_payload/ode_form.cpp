// Model C as a first-order ODE in embedded coordinates (seed 003 §3.1 and §4.1 eqs.
// (30)-(32)), for RK4 and RK45: q_i as 3-vectors with qdot_i = omega_i x q_i, R as 9 numbers
// with Rdot = R hat(Omega), J_Q Omegadot = J_Q Omega x Omega (tau = 0).
//
// The seed's accelerations (V_p', omega_i') come from a dense (3 + 3n)-square system in the
// mass terms M_0i, M_ij. The same equations in joint coordinates, with one multiplier per
// link (the component of the link equation along q_i that the seed's projection q_i x (.)
// removes), are block-tridiagonal: M_J J'' - T(tau) = phi, q_i . (J''_i - J''_{i-1}) = -l |qdot_i|^2
// (the second derivative of |q_i|^2 = 1). Then V_p' = J''_0, q_i'' = (J''_i - J''_{i-1})/l
// and omega_i' = q_i x q_i'' (which is the seed's omega_i' since omega_i' . q_i = 0).
//
// With the attachment offset (mechanics.hpp) the Euler-Lagrange equations of joint n and of the
// attitude are seed 000's for its body hanging from the string's end (§IV; the Newton-Euler
// equations of the multirotor with the cable's pull at J_n):
//   (M_J J'')_n - tau_n q_n - m_Q R hat(rho_c) Omega' = phi_n - m_Q R (Omega x (Omega x rho_c)),
//   J_A Omega' + m_Q rho_c x R^T J''_n = (J_A Omega) x Omega + rho_c x R^T F_Q e3,
// the first from d/dt (m_Q (J_n' + R (Omega x rho_c))), the second the moment balance about the
// attachment point (about the centre of mass it is J_Q Omega' + Omega x J_Q Omega = (-rho_c) x
// R^T (cable's pull); Omega x J_A Omega collects Omega x J_Q Omega and the m_Q rho_c x (Omega x
// (Omega x rho_c)) of the centre's acceleration). Omega' is eliminated (Mechanics::top_block,
// top_rhs), the KKT solve gives J'', and Omega' = Mechanics::rotational_solution.

#include "models/multirotor_payload/forms.hpp"

#include <limits>

#include "numerics/manifold_projection.hpp"

namespace tb::multirotor_payload {

OdeForm::OdeForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic), kkt_(mech_) {
  q_.assign(p.multirotors, std::vector<Vec3>(p.links));
  top_.assign(p.multirotors, Mat3::Zero());
  torque_rhs_.assign(p.multirotors, Vec3::Zero());
}

Eigen::VectorXd OdeForm::initial_state() const {
  Eigen::VectorXd y;
  mech_.pack(mech_.initial_state(ic_), y);
  return y;
}

void OdeForm::rhs(double, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  const Parameters& p = mech_.params();
  const int n = p.links;
  const double l = p.link_length();
  dydt.resize(y.size());
  kkt_rhs_.setZero(kkt_.size());
  kkt_rhs_.head<3>() = mech_.payload_joint_force();
  dydt.segment<3>(0) = y.segment<3>(3);
  int k = 6;
  for (int a = 0; a < p.multirotors; ++a) {
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R(y.data() + k);
    const Vec3 Omega = y.segment<3>(k + 9);
    Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> Rdot(dydt.data() + k);
    Rdot = R * so3::hat(Omega);
    dydt.segment<3>(k + 9) = mech_.inverse_inertia() * (p.J_Q * Omega).cross(Omega);
    Vec3 top_force = Vec3::Zero();  // joint n's extra right-hand side with the offset (header)
    if (mech_.attachment_offset()) {
      const Vec3& rho_c = mech_.centre_offset();
      const Mat3& JA = mech_.attachment_inertia();
      const Mat3 Rm = R;
      torque_rhs_[a] = (JA * Omega).cross(Omega) + rho_c.cross(Rm.transpose() * (mech_.body_force() * Vec3::UnitZ()));
      top_[a] = mech_.top_block(Rm);
      top_force = -p.multirotor_mass * (Rm * Omega.cross(Omega.cross(rho_c))) + mech_.top_rhs(Rm, torque_rhs_[a]);
    }
    k += 12;
    for (int i = 1; i <= n; ++i, k += 6) {
      const Vec3 q = y.segment<3>(k), omega = y.segment<3>(k + 3);
      const Vec3 qdot = omega.cross(q);
      q_[a][i - 1] = q;
      dydt.segment<3>(k) = qdot;
      const int o = CableTreeKkt::offset(n, a, i);
      kkt_rhs_(o) = -l * qdot.squaredNorm();
      kkt_rhs_.segment<3>(o + 1) = mech_.joint_force(i);
    }
    if (mech_.attachment_offset()) kkt_rhs_.segment<3>(CableTreeKkt::offset(n, a, n) + 1) += top_force;
  }
  if (!kkt_.solve(1.0, q_, q_, kkt_rhs_, kkt_sol_, mech_.attachment_offset() ? &top_ : nullptr)) {
    dydt.setConstant(std::numeric_limits<double>::quiet_NaN());  // the integrator fails the step
    return;
  }
  dydt.segment<3>(3) = kkt_sol_.head<3>();
  k = 6;
  for (int a = 0; a < p.multirotors; ++a) {
    if (mech_.attachment_offset()) {
      const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R(y.data() + k);
      dydt.segment<3>(k + 9) =
          mech_.rotational_solution(R, torque_rhs_[a], kkt_sol_.segment<3>(CableTreeKkt::offset(n, a, n) + 1));
    }
    k += 12;
    Vec3 previous = kkt_sol_.head<3>();
    for (int i = 1; i <= n; ++i, k += 6) {
      const Vec3 Jddot = kkt_sol_.segment<3>(CableTreeKkt::offset(n, a, i) + 1);
      dydt.segment<3>(k + 3) = q_[a][i - 1].cross((Jddot - previous) / l);
      previous = Jddot;
    }
  }
}

lie::HomogeneousProduct OdeForm::manifold() const {
  const Parameters& p = mech_.params();
  std::vector<lie::RotationFactor> rotations;
  std::vector<lie::DirectionFactor> directions;
  int k = 6;  // after X_p, V_p
  for (int a = 0; a < p.multirotors; ++a) {
    rotations.push_back({k, k + 9});
    k += 12;
    for (int i = 0; i < p.links; ++i, k += 6) directions.push_back({k, k + 3});
  }
  return lie::HomogeneousProduct(state_size(), std::move(rotations), std::move(directions), {{0, 3, 3}});  // X_p, V_p
}

// omega_i -= (q_i . omega_i) q_i leaves qdot_i = omega_i x q_i unchanged: only the component
// the ODE never uses (and that the exact flow keeps at zero) is removed.
bool OdeForm::project(Eigen::VectorXd& y) const {
  const Parameters& p = mech_.params();
  int k = 6;
  for (int a = 0; a < p.multirotors; ++a) {
    manifold::project_rotation(y, k);
    k += 12;
    for (int i = 0; i < p.links; ++i, k += 6) manifold::project_direction_and_rate(y.segment<3>(k), y.segment<3>(k + 3));
  }
  return true;
}

}  // namespace tb::multirotor_payload
