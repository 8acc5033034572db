// The lumped-mass baseline for Model B with the reel locked (seed 002 case 1, Table 1's "RK"
// column). With s_p fixed, Model B is Model A with a string of length L - s_p (locked_reel.hpp),
// so the string pendulum's lumped ODE is reused as it is; this adapter maps its state and observables to Model B's layout and columns. With the reel
// free, the lumped baseline (Driscoll et al.) has no reel mechanism and is not offered.

#include "models/reel_pendulum/locked_lumped_form.hpp"

#include "models/reel_pendulum/locked_reel.hpp"

namespace tb::reel_pendulum {

LockedLumpedForm::LockedLumpedForm(const Parameters& p, const InitialCondition& ic)
    : p_(p),
      s0_(ic.s0),
      lumped_(locked_reel_as_model_a(p, ic.s0), locked_reel_as_model_a(ic), string_pendulum::StringMass::Lumped) {}

void LockedLumpedForm::rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const { lumped_.rhs(t, y, dydt); }
bool LockedLumpedForm::project(Eigen::VectorXd& y) const { return lumped_.project(y); }

Observation LockedLumpedForm::observe(double t, const Eigen::VectorXd& y) const {
  // Model A's columns: x, y, z, vx, vy, vz, Omega_x..z, stretched_length, body_tilt_deg.
  Observation o = lumped_.observe(t, y);
  const std::vector<double> a = o.extra;
  const int N = p_.N;
  const double l = (p_.L - s0_) / N;
  // Node 2 against the guide way; a slack tension-only element carries none (Mechanics::guide_way_strain).
  const Eigen::Vector3d x2 = y.segment<3>(0);
  const double strain = element_slack(l, x2, p_.tension_only) ? 0.0 : (x2.norm() - l) / l;
  o.extra = {s0_, 0.0, p_.L - s0_, a[9], p_.EA * strain, 0.0, 0.0, o.energy, a[0], a[1], a[2], a[6], a[7], a[8], a[10]};
  return o;
}

Eigen::VectorXd LockedLumpedForm::physical_state(const Eigen::VectorXd& y) const {
  return locked_reel_physical_state(s0_, y);  // Model A's ODE state is its physical state
}

}  // namespace tb::reel_pendulum
