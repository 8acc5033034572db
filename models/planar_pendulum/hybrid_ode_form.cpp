// The unilateral link's hybrid ODE (forms.hpp HybridOdeForm; issue 48): free flight while slack,
// the Cartesian index-1 pendulum while taut, and the mode changed (with the impact law at a
// closing) at each switch an event-locating integrator stops at.

#include <cmath>

#include "models/planar_pendulum/forms.hpp"
#include "models/planar_pendulum/unilateral.hpp"

namespace tb::planar_pendulum {

namespace {
constexpr int kWork = 4, kMode = 5;
bool taut_mode(const Eigen::VectorXd& y) { return y[kMode] > 0.5; }
// A tension this small (relative to m g) at a located opening is its zero to the locator's
// bracket (a few ulps of t times dT/dt): the link opens there.
constexpr double kOpeningTension = 1e-8;
}  // namespace

double HybridOdeForm::baumgarte_rate() const { return 4.0 * std::sqrt(p_.g / p_.l); }

Eigen::VectorXd HybridOdeForm::initial_state() const {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(6);
  y.head<4>() = initial_physical(p_, ic_);
  // Taut where the start is on the circle and the link pulls there; slack otherwise.
  const Eigen::Vector4d s = y.head<4>();
  y[kMode] = s.head<2>().norm() >= p_.l * (1.0 - 1e-12) && taut_tension(p_, s) >= 0.0 ? 1.0 : 0.0;
  return y;
}

double HybridOdeForm::stabilised_tension(const Eigen::VectorXd& y) const {
  // lambda = m (g z + |v|^2 + 2p r.v + p^2 C) / |r|^2 with C = (|r|^2 - l^2)/2 (seed 004 §3, as
  // CartesianDaeForm::multiplier); the tension is lambda |r|. C in increment form: (|r| - l)(|r| + l)/2.
  const Eigen::Vector2d r = y.head<2>(), v = y.segment<2>(2);
  const double n = r.norm(), b = baumgarte_rate();
  const double C = 0.5 * (n - p_.l) * (n + p_.l);
  return p_.m * (p_.g * r.y() + v.squaredNorm() + 2.0 * b * r.dot(v) + b * b * C) / n;
}

void HybridOdeForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  dydt = Eigen::VectorXd::Zero(6);
  dydt.head<2>() = y.segment<2>(2);
  dydt[3] = p_.g;
  if (taut_mode(y)) {
    const Eigen::Vector2d r = y.head<2>();
    dydt.segment<2>(2) -= stabilised_tension(y) / (p_.m * r.norm()) * r;
  }
}

void HybridOdeForm::switching_values(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& s,
                                     Eigen::VectorXd& rate) const {
  s.resize(1);
  rate.resize(1);
  const Eigen::Vector4d state = y.head<4>();
  if (taut_mode(y)) {
    const double k = p_.m * p_.g / p_.l;
    s[0] = stabilised_tension(y) / k;
    rate[0] = taut_tension_rate(p_, state) / k;  // the unstabilised rate: only a probe's guide
  } else {
    const Eigen::Vector2d r = state.head<2>();
    s[0] = r.norm() - p_.l;
    rate[0] = r.dot(state.tail<2>()) / r.norm();
  }
}

bool HybridOdeForm::apply_jump(double /*t*/, Eigen::VectorXd& y) const {
  if (taut_mode(y)) {
    if (!(stabilised_tension(y) <= kOpeningTension * p_.m * p_.g)) return false;  // not its zero: no event
    y[kMode] = 0.0;
    return true;
  }
  Eigen::Vector4d s = y.head<4>();
  double lost = 0.0;
  if (!apply_impact(p_, s, lost)) return false;  // inside the circle, or leaving the limit: no closing
  y.head<4>() = s;
  y[kWork] += lost;
  // After the impact the link holds only if it pulls; where the free motion would leave the
  // circle inwards (T < 0) the mass stays in flight from the limit.
  y[kMode] = taut_tension(p_, s) >= 0.0 ? 1.0 : 0.0;
  return true;
}

Observation HybridOdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return observe_unilateral(p_, y.head<4>(), taut_mode(y) ? stabilised_tension(y) : 0.0, y[kWork]);
}

}  // namespace tb::planar_pendulum
