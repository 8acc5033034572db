// Model A with the lumped-mass string (SPEC "Model B", "Lumped-mass model": the papers'
// baseline, after Driscoll et al.) as a first-order ODE: the same embedded coordinates and
// right-hand-side code as OdeForm, on a Mechanics whose string mass is lumped (diagonal).
// Integrated by lumped_rk2 (FormulationKind::LumpedMass); observed by the same Mechanics code.

#include "models/string_pendulum/forms.hpp"

namespace tb::string_pendulum {

LumpedForm::LumpedForm(const Parameters& p, const InitialCondition& ic) : mech_(p, StringMass::Lumped), ic_(ic) {}

Eigen::VectorXd LumpedForm::initial_state() const { return mech_.pack(mech_.initial_state(ic_)); }

void LumpedForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  embedded_ode_rhs(mech_, y, state_, acc_, dydt);
}

Observation LumpedForm::observe(double /*t*/, const Eigen::VectorXd& y) const { return mech_.observe(mech_.unpack(y)); }

}  // namespace tb::string_pendulum
