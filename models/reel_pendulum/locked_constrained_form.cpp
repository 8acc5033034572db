// Model B's locked reel as Model A's constrained mechanical form (locked_constrained_form.hpp).

#include "models/reel_pendulum/locked_constrained_form.hpp"

#include "models/reel_pendulum/locked_reel.hpp"

namespace tb::reel_pendulum {

LockedConstrainedForm::LockedConstrainedForm(const Parameters& p, const InitialCondition& ic)
    : mech_(p), s0_(ic.s0), a_(locked_reel_as_model_a(p, ic.s0), locked_reel_as_model_a(ic)) {}

Eigen::VectorXd LockedConstrainedForm::physical_state(const Eigen::VectorXd& y) const {
  return locked_reel_physical_state(s0_, a_.physical_state(y));
}

Observation LockedConstrainedForm::observe(double t, const Eigen::VectorXd& y) const {
  // Model B's energy (with the locked reel's constant potential), pi3 and columns of the mapped
  // physical state; the attachment's drift as Model A's form measures it.
  const Observation a = a_.observe(t, y);
  Observation o = mech_.observe(mech_.unpack(physical_state(y)));
  o.constraint_err = a.constraint_err;
  o.constraint_rate_err = a.constraint_rate_err;
  return o;
}

}  // namespace tb::reel_pendulum
