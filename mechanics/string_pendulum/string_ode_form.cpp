#include "mechanics/string_pendulum/string_ode_form.hpp"

#include "numerics/manifold_projection.hpp"

namespace tb::string_pendulum {

StringOdeForm::StringOdeForm(const Parameters& p, const InitialCondition& ic, StringMass string_mass)
    : mech_(p, string_mass), ic_(ic) {}

Eigen::VectorXd StringOdeForm::initial_state() const { return mech_.pack(mech_.initial_state(ic_)); }

void StringOdeForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  const int N = mech_.params().N;
  mech_.unpack_into(y, state_);
  mech_.accelerations(state_, acc_);
  dydt.resize(y.size());
  dydt.segment(0, 3 * N) = y.segment(3 * N, 3 * N);    // rdot = v
  dydt.segment(3 * N, 3 * N) = acc_.segment(0, 3 * N);  // vdot
  const Mat3 Rdot = state_.R * so3::hat(state_.Omega);  // seed 000 eq. (1)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) dydt(6 * N + 3 * i + j) = Rdot(i, j);
  dydt.segment<3>(6 * N + 9) = acc_.segment<3>(3 * N);  // Omegadot
}

bool StringOdeForm::project(Eigen::VectorXd& y) const {
  manifold::project_rotation(y, 6 * mech_.params().N);
  return true;
}

lie::HomogeneousProduct StringOdeForm::manifold() const {
  const int N = mech_.params().N;
  return lie::HomogeneousProduct(state_size(), {{6 * N, 6 * N + 9}}, {}, {{0, 3 * N, 3 * N}});  // [r, v, R, Omega]
}

Observation StringOdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return mech_.observe(mech_.unpack(y));
}

}  // namespace tb::string_pendulum
