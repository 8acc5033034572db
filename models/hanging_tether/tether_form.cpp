#include "models/hanging_tether/forms.hpp"

#include "models/hanging_tether/shapes.hpp"
#include "models/hanging_tether/static_equilibrium.hpp"

namespace tb::hanging_tether {

TetherForm::TetherForm(const Parameters& p, InitialShape shape) : mech_(p), shape_(shape) {}

Eigen::VectorXd initial_tether_state(const Mechanics& mech, InitialShape shape) {
  const Parameters& p = mech.params();
  State s;
  switch (shape) {
    case InitialShape::Straight: s.r = straight_shape(p); break;
    case InitialShape::Parabola: s.r = parabola_shape(p, p.length); break;
    case InitialShape::SlackMiddle: s.r = slack_middle_shape(p, 0.02); break;
    case InitialShape::Equilibrium: s.r = solve_static_equilibrium(mech).r; break;
  }
  s.v.assign(p.N + 1, Vec3::Zero());  // at rest, the anchor too (a drive starts at rest)
  return mech.pack(s);
}

Eigen::VectorXd TetherForm::initial_state() const { return initial_tether_state(mech_, shape_); }

void TetherForm::rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  const int n = mech_.free_nodes();
  mech_.unpack_into(t, y, state_);
  mech_.accelerations(state_, acc_);
  dydt.resize(y.size());
  dydt.head(3 * n) = y.segment(3 * n, 3 * n);
  dydt.segment(3 * n, 3 * n) = acc_;
  dydt(6 * n) = mech_.dissipation_power(state_);
  if (mech_.driven()) dydt(6 * n + 1) = mech_.drive_power(state_);
}

Observation TetherForm::observe(double t, const Eigen::VectorXd& y) const { return mech_.observe(mech_.unpack(t, y)); }

}  // namespace tb::hanging_tether
