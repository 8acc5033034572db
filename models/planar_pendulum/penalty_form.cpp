// The unilateral link's penalty regularisation as an ODE (forms.hpp PenaltyOdeForm; issue 48's "no
// events" baseline): the mass in free flight, pulled back along r-hat by a linear spring-dashpot while
// the string is stretched (unilateral.hpp PenaltyLink).

#include <algorithm>
#include <cmath>

#include "core/kelvin_voigt_contact.hpp"
#include "models/planar_pendulum/forms.hpp"
#include "models/planar_pendulum/unilateral.hpp"

namespace tb::planar_pendulum {

namespace {
constexpr int kDashpotWork = 4;
}  // namespace

PenaltyOdeForm::PenaltyOdeForm(const Parameters& p, const InitialCondition& ic) : p_(p), ic_(ic) {
  const PenaltyLink link = penalty_link(p, initial_physical(p, ic));
  k_ = link.k;
  c_ = link.c;
}

Eigen::VectorXd PenaltyOdeForm::initial_state() const {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(5);
  y.head<4>() = initial_physical(p_, ic_);
  return y;
}

double PenaltyOdeForm::link_force(const Eigen::Vector4d& s) const {
  const Eigen::Vector2d r = s.head<2>();
  const double n = r.norm(), stretch = n - p_.l;
  if (!(stretch > 0.0)) return 0.0;
  return k_ * stretch + engaged(stretch) * c_ * r.dot(s.tail<2>()) / n;  // k delta + c delta', delta' = v_r
}

// The dashpot engages over the first 1e-9 l of stretch (core/kelvin_voigt_contact.hpp: a continuous force).
double PenaltyOdeForm::engaged(double stretch) const { return dashpot_engaged(stretch, p_.l); }

double PenaltyOdeForm::dashpot_power(const Eigen::Vector4d& s) const {
  const Eigen::Vector2d r = s.head<2>();
  const double n = r.norm();
  const double stretch = n - p_.l;
  if (!(stretch > 0.0)) return 0.0;
  const double v_r = r.dot(s.tail<2>()) / n;
  return engaged(stretch) * c_ * v_r * v_r;
}

void PenaltyOdeForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  dydt = Eigen::VectorXd::Zero(5);
  const Eigen::Vector4d s = y.head<4>();
  dydt.head<2>() = s.tail<2>();
  dydt[3] = p_.g;
  const double pull = link_force(s);
  if (pull != 0.0) dydt.segment<2>(2) -= pull / (p_.m * s.head<2>().norm()) * s.head<2>();
  dydt[kDashpotWork] = dashpot_power(s);
}

void PenaltyOdeForm::switching_values(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const {
  s.resize(1);
  rate.resize(1);
  link_gap_function(p_, y.head<4>(), s[0], rate[0]);  // delta = |r| - l and its rate v_r
}

Observation PenaltyOdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  const Eigen::Vector4d s = y.head<4>();
  Observation o = observe_unilateral(p_, s, link_force(s), y[kDashpotWork]);
  const double stretch = std::max(0.0, s.head<2>().norm() - p_.l);
  o.energy += 0.5 * k_ * stretch * stretch;  // the spring's, part of E: the dashpot alone takes energy out
  return o;
}

}  // namespace tb::planar_pendulum
