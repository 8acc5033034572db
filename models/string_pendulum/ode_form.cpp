// Model A as a first-order ODE in embedded coordinates (SPEC "Formulations"): state
// [r_2..r_{N+1}, v_2..v_{N+1}, R (9 numbers, row-major), Omega]; Rdot = R hat(Omega), and
// the accelerations from one O(N) block-tridiagonal mass-matrix solve per evaluation.
// embedded_ode_rhs() is shared with LumpedForm (lumped_form.cpp), which differs only by the
// string mass model of its Mechanics.

#include "models/string_pendulum/forms.hpp"

namespace tb::string_pendulum {

OdeForm::OdeForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}

Eigen::VectorXd OdeForm::initial_state() const { return mech_.pack(mech_.initial_state(ic_)); }

void embedded_ode_rhs(const Mechanics& mech, const Eigen::VectorXd& y, State& s, Eigen::VectorXd& acc,
                      Eigen::VectorXd& dydt) {
  const int N = mech.params().N;
  mech.unpack_into(y, s);
  mech.accelerations(s, acc);
  dydt.resize(y.size());
  dydt.segment(0, 3 * N) = y.segment(3 * N, 3 * N);     // rdot = v
  dydt.segment(3 * N, 3 * N) = acc.segment(0, 3 * N);   // vdot
  const Mat3 Rdot = s.R * so3::hat(s.Omega);            // seed 000 eq. (1)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) dydt(6 * N + 3 * i + j) = Rdot(i, j);
  dydt.segment<3>(6 * N + 9) = acc.segment<3>(3 * N);  // Omegadot
}

void OdeForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  embedded_ode_rhs(mech_, y, state_, acc_, dydt);
}

Observation OdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const { return mech_.observe(mech_.unpack(y)); }

}  // namespace tb::string_pendulum
