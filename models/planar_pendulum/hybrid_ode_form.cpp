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
// A tension this small (relative to m g, or m (1 m/s^2) in free space) at a located opening is its zero to the locator's
// bracket (a few ulps of t times dT/dt): the link opens there.
constexpr double kOpeningTension = 1e-8;
// A rebound's flight shorter than this fraction of the motion's time scale (sqrt(l / g); l / |v0| in free
// space) ends the run as a Zeno accumulation.
constexpr double kZenoFlight = 1e-6;
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
    s[0] = stabilised_tension(y) / k;
    rate[0] = taut_tension_rate(p_, state) / k;  // the unstabilised rate: only a probe's guide
  } else {
    const Eigen::Vector2d r = state.head<2>();
    s[0] = r.norm() - p_.l;
    rate[0] = r.dot(state.tail<2>()) / r.norm();
  }
}

bool HybridOdeForm::apply_jump(double t, Eigen::VectorXd& y) const {
  if (taut_mode(y)) {
    if (!(stabilised_tension(y) <= kOpeningTension * tension_scale(p_) * p_.l)) return false;  // not its zero: no event
    y[kMode] = 0.0;
    return true;
  }
  Eigen::Vector4d s = y.head<4>();
  const Eigen::Vector2d r_hat = s.head<2>().normalized();
  const double v_r = r_hat.dot(s.tail<2>());
  double lost = 0.0;
  if (!apply_impact(p_, s, lost)) {
    // No closing: inside the circle, or at it but moving inwards. The latter is a locator's root on an
    // interpolant that is off by its tolerance in a very short flight (CVODE near a Zeno point): the
    // mass is put 8 ulps of l inside, on the slack side, so that its real exit is a sign change.
    if (!(s.head<2>().norm() >= p_.l)) return false;
    y.head<2>() = s.head<2>() * (p_.l / s.head<2>().norm()) * (1.0 - 8.0 * std::numeric_limits<double>::epsilon());
    return true;
  }
  if (p_.restitution > 0.0) {
    // Zeno: after a rebound the mass leaves the circle at e v_r and the free flight's outward radial
    // acceleration a_r = v_t^2 / l + g r-hat_z brings it back after 2 e v_r / a_r; the rebounds
    // shrink by e each, so they accumulate within 2 e v_r / (a_r (1 - e)). Below a micro-second of the
    // swing's time scale the locator would chase them through round-off: reported, never looped on.
    const double v_t2 = s.tail<2>().squaredNorm(), a_r = v_t2 / p_.l + p_.g * r_hat.y();
    const double flight = a_r > 0.0 ? 2.0 * p_.restitution * v_r / a_r : std::numeric_limits<double>::infinity();
    if (flight < kZenoFlight * motion_time_scale(p_, initial_physical(p_, ic_)))
      throw std::runtime_error("Zeno accumulation of impacts at t = " + format_g(t, 10) + " s: the rebound at v_r = " +
                               format_g(v_r, 3) + " m/s flies " + format_g(flight, 3) + " s, and the rebounds (each e = " +
                               format_g(p_.restitution) + " times the last) accumulate within " +
                               format_g(flight / (1.0 - p_.restitution), 3) +
                               " s; an event-driven method cannot pass an accumulation point");
  }
  // Where the mass flies on from the limit (a rebound, or a plastic impact the link cannot hold), it
  // starts 8 ulps of l inside the circle, on the slack side of its event function |r| - l: from exactly
  // 0 (the taut side) a short flight back to the circle would be a dip inside one step, which a
  // locator finds only if a probe falls in it (a 1.7 ms flight in a 71 ms step was missed).
  const bool flies_on = !(p_.restitution == 0.0 && taut_tension(p_, s) >= 0.0);
  if (flies_on) s.head<2>() *= 1.0 - 8.0 * std::numeric_limits<double>::epsilon();
  y.head<4>() = s;
  y[kWork] += lost;
  // After a plastic impact (e = 0: no radial velocity left) the link holds if it pulls; where the
  // free motion would leave the circle inwards (T < 0) the mass stays in flight from the limit. After
  // a rebound (e > 0) the mass moves inwards: a flight.
  y[kMode] = flies_on ? 0.0 : 1.0;
  return true;
}

Observation HybridOdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return observe_unilateral(p_, y.head<4>(), taut_mode(y) ? stabilised_tension(y) : 0.0, y[kWork]);
}

}  // namespace tb::planar_pendulum
