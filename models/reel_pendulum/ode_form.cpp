// Model B as a first-order ODE: the continuous Euler-Lagrange equations of the same
// semi-discrete Lagrangian (configuration-dependent, bordered block-tridiagonal mass matrix,
// Carnot and control forces on s_p), R as 9 numbers.

#include "models/reel_pendulum/forms.hpp"

#include "numerics/manifold_projection.hpp"

namespace tb::reel_pendulum {

OdeForm::OdeForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic), body_{p.M, p.rho_c, p.J, p.g} {}

Eigen::VectorXd OdeForm::initial_state() const { return mech_.pack(mech_.initial_state(ic_)); }

void OdeForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  const int N = mech_.params().N;
  State& s = state_;
  mech_.unpack_into(y, s);
  mech_.accelerations(s, acc_);
  dydt.resize(y.size());
  dydt(0) = s.sdot;
  dydt(1) = acc_(3 * N + 3);
  dydt.segment(2, 3 * N) = y.segment(2 + 3 * N, 3 * N);  // qdot = v
  dydt.segment(2 + 3 * N, 3 * N) = acc_.segment(0, 3 * N);
  const Mat3 Rdot = s.R * so3::hat(s.Omega);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) dydt(2 + 6 * N + 3 * i + k) = Rdot(i, k);
  dydt.segment<3>(6 * N + 11) = acc_.segment<3>(3 * N);
  dydt(6 * N + 14) = mech_.carnot_force(s) * s.sdot;              // Carnot power (21)
  dydt(6 * N + 15) = mech_.params().u / mech_.params().d * s.sdot;  // control power
}

bool OdeForm::project(Eigen::VectorXd& y) const {
  manifold::project_rotation(y, 2 + 6 * mech_.params().N);
  return true;
}

lie::HomogeneousProduct OdeForm::manifold() const {
  const int N = mech_.params().N;
  // [s, sdot, r, v, R, Omega, works]: R in SO(3), the nodes, and s when the reel is free (listed
  // after the nodes, so that the reel's rate is the last rate, the border of the mass matrix).
  // Locked, s and sdot = 0 are constants: free entries that follow the ODE's own y' = 0.
  std::vector<lie::PositionFactor> positions{{2, 2 + 3 * N, 3 * N}};
  if (!mech_.params().reel_locked) positions.push_back({0, 1, 1});
  return lie::HomogeneousProduct(state_size(), {{2 + 6 * N, 2 + 6 * N + 9}}, {}, positions);
}

Observation OdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const { return mech_.observe(mech_.unpack(y)); }

}  // namespace tb::reel_pendulum
