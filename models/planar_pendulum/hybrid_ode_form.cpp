// The unilateral link's hybrid ODE (forms.hpp HybridOdeForm; issue 48): free flight while slack,
// the Cartesian index-1 pendulum while taut, and the mode changed (with the impact law at a
// closing) at each switch an event-locating integrator stops at.

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/format.hpp"

#include "models/planar_pendulum/forms.hpp"
#include "models/planar_pendulum/unilateral.hpp"

namespace tb::planar_pendulum {

namespace {
constexpr int kWork = 4, kMode = 5;
bool taut_mode(const Eigen::VectorXd& y) { return y[kMode] > 0.5; }
}  // namespace

double HybridOdeForm::baumgarte_rate() const {
  return p_.g > 0.0 ? 4.0 * std::sqrt(p_.g / p_.l) : 4.0 / motion_time_scale(p_, initial_physical(p_, ic_));
}

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
    const double k = tension_scale(p_);
    // The motion's tension, without the stabilisation's terms 2p r.v + p^2 C, which answer the solver's drift: the
    // opening is where the link stops pulling (core/hybrid_constrained_ode.hpp: Stabilisation, as on the cables).
    s[0] = taut_tension(p_, state) / k;
    rate[0] = taut_tension_rate(p_, state) / k;  // only a probe's guide
  } else {
    const Eigen::Vector2d r = state.head<2>();
    s[0] = r.norm() - p_.l;
    rate[0] = r.dot(state.tail<2>()) / r.norm();
  }
}

HybridOdeForm::HybridOdeForm(const Parameters& p, const InitialCondition& ic)
    : p_(p), ic_(ic), time_scale_(motion_time_scale(p, initial_physical(p, ic))), zeno_(time_scale_) {}

bool HybridOdeForm::apply_jump(double t, Eigen::VectorXd& y) const {
  Eigen::Vector4d s = y.head<4>();
  bool taut = taut_mode(y);
  zeno_.on_jump(t);
  if (!hybrid_jump(p_, t, time_scale_, taut ? taut_tension(p_, s) : 0.0, s, y[kWork], taut, log_))
    return false;
  y.head<4>() = s;
  y[kMode] = taut ? 1.0 : 0.0;
  return true;
}

Observation HybridOdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return observe_unilateral(p_, y.head<4>(), taut_mode(y) ? stabilised_tension(y) : 0.0, y[kWork]);
}

}  // namespace tb::planar_pendulum
