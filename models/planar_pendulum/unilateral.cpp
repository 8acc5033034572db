#include "models/planar_pendulum/unilateral.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/format.hpp"
#include "core/kelvin_voigt_contact.hpp"

namespace tb::planar_pendulum {

double taut_tension(const Parameters& p, const Eigen::Vector4d& s) {
  const Eigen::Vector2d r = s.head<2>(), v = s.tail<2>();
  return p.m * (p.g * r.y() + v.squaredNorm()) / r.norm();
}

double taut_tension_rate(const Parameters& p, const Eigen::Vector4d& s) {
  // d/dt [m (g z + |v|^2) / |r|] = m (g v_z + 2 v.a) / |r| - m (g z + |v|^2) v_r / |r|^2,
  // a = g e_z - (T / m) r-hat.
  const Eigen::Vector2d r = s.head<2>(), v = s.tail<2>();
  const double n = r.norm(), T = taut_tension(p, s), v_r = r.dot(v) / n;
  const double v_dot_a = p.g * v.y() - T / p.m * v_r;
  return p.m * (p.g * v.y() + 2.0 * v_dot_a) / n - T * v_r / n;
}

double motion_time_scale(const Parameters& p, const Eigen::Vector4d& start) {
  if (p.g > 0.0) return std::sqrt(p.l / p.g);
  const double speed = start.tail<2>().norm();
  return speed > 0.0 ? p.l / speed : 1.0;
}

double tension_scale(const Parameters& p) { return p.m * (p.g > 0.0 ? p.g : 1.0) / p.l; }

void link_tension_function(const Parameters& p, const Eigen::Vector4d& s, double& value, double& rate) {
  const double k = tension_scale(p);
  value = taut_tension(p, s) / k;
  rate = taut_tension_rate(p, s) / k;
}

void link_gap_function(const Parameters& p, const Eigen::Vector4d& s, double& value, double& rate) {
  const Eigen::Vector2d r = s.head<2>(), v = s.tail<2>();
  const double n = r.norm();
  value = n - p.l;
  rate = n > 0.0 ? r.dot(v) / n : 0.0;
}

bool apply_impact(const Parameters& p, Eigen::Vector4d& s, double& lost, double tol) {
  const Eigen::Vector2d r = s.head<2>();
  const double n = r.norm();
  if (!(n >= p.l * (1.0 - tol))) return false;
  const Eigen::Vector2d r_hat = r / n;
  const double v_r = r_hat.dot(s.tail<2>());
  if (!(v_r > 0.0)) return false;
  s.tail<2>() -= (1.0 + p.restitution) * v_r * r_hat;
  s.head<2>() = p.l * r_hat;
  lost = 0.5 * p.m * (1.0 - p.restitution * p.restitution) * v_r * v_r;
  return true;
}

namespace {
// A tension this small (relative to m g, or m (1 m/s^2) in free space) at a located opening is its zero to the locator's
// bracket (a few ulps of t times dT/dt): the link opens there.
constexpr double kOpeningTension = 1e-8;
// A rebound's flight shorter than this fraction of the motion's time scale (sqrt(l / g); l / |v0| in free
// space) ends the run as a Zeno accumulation.
constexpr double kZenoFlight = 1e-6;

// The outward radial acceleration of a free flight from the circle at state s, a_r = |v|^2 / l + g r-hat_z (the
// centripetal need of its speed and gravity's outward part), so that a rebound leaving at u flies 2 u / a_r and
// reaches u^2 / (2 a_r) inside; 0 or less: it does not come back.
double outward_radial_acceleration(const Parameters& p, const Eigen::Vector4d& s) {
  return s.tail<2>().squaredNorm() / p.l + p.g * s.head<2>().normalized().y();
}

// A root at the circle moving inwards in the first half of the flight a rebound has just begun (the flight from
// the rebound's state: out at u = e v_r-, back after 2 u / a_r, a_r = |v|^2 / l + g r-hat_z its outward radial
// acceleration) is no switch of the exact motion, which is inside then: the solver took the whole flight in one
// step, or its error in the gap exceeds the flight's depth u^2 / (2 a_r), and its interpolant is back on the circle
// early (at the step's start, or a third of the way into the flight: cvode at rtol 1e-8). Restarting from the slack side makes the same step, and the same root, again (CVODE at
// rtol 1e-4 on the e = 0.5 drop: 1000 restarts 1.6 ps apart after a rebound at 3.3e-3 m/s, 0.42 ms and 0.34 um
// deep, at t = 0.7646 s, where the exact rebounds are still 13 ms long: its rebounds are lost once their depth
// falls to its error in the gap, about rtol l, so it stops early by ~4 sqrt(2 rtol l / a_r)). Its own rebounds have
// accumulated: reported as such.
void throw_if_rebound_unresolved(const Parameters& p, double t, const Eigen::Vector4d& s, const JumpLog& log) {
  if (log.records().empty() || !(p.restitution > 0.0)) return;
  const LoggedSwitch& last = log.records().back();
  if (last.kind != LoggedSwitch::Kind::Touched || !(t >= last.t)) return;
  const double u = p.restitution * last.closing_rate * p.l;  // the rebound's inward speed (m/s)
  const double a_r = outward_radial_acceleration(p, s);
  if (!(a_r > 0.0) || !(u > 0.0)) return;
  const double flight = 2.0 * u / a_r, depth = u * u / (2.0 * a_r);
  if (!(t - last.t < 0.5 * flight)) return;
  throw std::runtime_error("Zeno accumulation of the solver's own rebounds at t = " + format_g(t, 10) + " s: its rebound at " +
                           format_g(last.t, 10) + " s (out at " + format_g(u, 3) + " m/s, a flight of " + format_g(flight, 3) +
                           " s, " + format_g(depth, 3) + " m deep) is back on the circle, moving inwards, " +
                           format_g(t - last.t, 3) + " s later, before half its flight: the flight is below what its tolerance resolves; an "
                           "event-driven method cannot pass an accumulation point");
}
}  // namespace

bool hybrid_jump(const Parameters& p, double t, double time_scale, double tension, Eigen::Vector4d& s, double& work, bool& taut,
                 JumpLog& log) {
  if (taut) {
    if (!(tension <= kOpeningTension * tension_scale(p) * p.l)) return false;  // not its zero: no event
    taut = false;
    log.begin_jump(t);
    log.add(t, 0, LoggedSwitch::Kind::Opened);
    log.end_jump(0.0);
    return true;
  }
  const Eigen::Vector2d r_hat = s.head<2>().normalized();
  const double v_r = r_hat.dot(s.tail<2>());
  double lost = 0.0;
  if (!apply_impact(p, s, lost)) {
    // No closing: inside the circle, or at it but moving inwards. The latter is a locator's root on an
    // interpolant that is off by its tolerance in a very short flight (CVODE near a Zeno point): the
    // mass is put 8 ulps of l inside, on the slack side, so that its real exit is a sign change.
    if (!(s.head<2>().norm() >= p.l)) return false;
    throw_if_rebound_unresolved(p, t, s, log);
    s.head<2>() *= (p.l / s.head<2>().norm()) * (1.0 - 8.0 * std::numeric_limits<double>::epsilon());
    return true;
  }
  if (p.restitution > 0.0) {
    // Zeno: after a rebound the mass leaves the circle at e v_r and the free flight's outward radial
    // acceleration a_r brings it back after 2 e v_r / a_r; the rebounds shrink by e each, so they
    // accumulate within 2 e v_r / (a_r (1 - e)). Below a micro-second of the motion's time scale the
    // locator would chase them through round-off: reported, never looped on.
    const double a_r = outward_radial_acceleration(p, s);
    const double flight = a_r > 0.0 ? 2.0 * p.restitution * v_r / a_r : std::numeric_limits<double>::infinity();
    if (flight < kZenoFlight * time_scale)
      throw std::runtime_error("Zeno accumulation of impacts at t = " + format_g(t, 10) + " s: the impact at v_r = " +
                               format_g(v_r, 3) + " m/s rebounds at " + format_g(p.restitution * v_r, 3) + " m/s and flies " +
                               format_g(flight, 3) + " s, and the rebounds (each e = " +
                               format_g(p.restitution) + " times the last) accumulate within " +
                               format_g(flight / (1.0 - p.restitution), 3) +
                               " s; an event-driven method cannot pass an accumulation point");
  }
  // Where the mass flies on from the limit (a rebound, or a plastic impact the link cannot hold), it
  // starts 8 ulps of l inside the circle, on the slack side of its event function |r| - l: from exactly
  // 0 (the taut side) a short flight back to the circle would be a dip inside one step, which a
  // locator finds only if a probe falls in it (a 1.7 ms flight in a 71 ms step was missed).
  const bool flies_on = !(p.restitution == 0.0 && taut_tension(p, s) >= 0.0);
  if (flies_on) s.head<2>() *= 1.0 - 8.0 * std::numeric_limits<double>::epsilon();
  work += lost;
  log.begin_jump(t);
  log.add(t, 0, flies_on ? LoggedSwitch::Kind::Touched : LoggedSwitch::Kind::Snapped, v_r / p.l);
  log.end_jump(lost);
  // After a plastic impact (e = 0: no radial velocity left) the link holds if it pulls; where the
  // free motion would leave the circle inwards (T < 0) the mass stays in flight from the limit. After
  // a rebound (e > 0) the mass moves inwards: a flight.
  taut = !flies_on;
  return true;
}

PenaltyLink penalty_link(const Parameters& p, const Eigen::Vector4d& start) {
  PenaltyLink out;
  const double T = motion_time_scale(p, start);
  out.k = p.penalty_stiffness > 0.0 ? p.penalty_stiffness : p.m * (100.0 / T) * (100.0 / T);
  out.omega = std::sqrt(out.k / p.m);
  out.zeta = restitution_damping_ratio(p.restitution);  // core/kelvin_voigt_contact.hpp: e exact for a free contact
  out.c = 2.0 * out.zeta * std::sqrt(out.k * p.m);
  out.contact_time = contact_window(out.omega, out.zeta);
  out.words = "the string as a linear spring-dashpot acting while stretched (delta = |r| - l > 0): k = " + format_g(out.k, 4) +
              " N/m (contact frequency " + format_g(out.omega, 4) + " rad/s" +
              (p.penalty_stiffness > 0.0 ? ", [model] penalty_stiffness" : ", 100 / " + format_g(T, 4) + " s, the default") +
              "), c = " + format_g(out.c, 4) + " N s/m (damping ratio " + format_g(out.zeta, 4) +
              (p.restitution > 0.0 ? ", the linear oscillator's for e = " + format_g(p.restitution) : ", critical for e = 0") +
              "); the force is not clipped at 0, so the dashpot pushes while the string is stretched and shortening "
              "faster than k delta / c (not a unilateral link at the impulse level); a snap's loss is read over " +
              (out.zeta < 1.0 ? "its contact, up to the link's opening (at most 1.5 pi / omega_d = " + format_g(out.contact_time, 3) + " s)"
                              : "10 / omega = " + format_g(out.contact_time, 3) + " s (a critical contact never ends)") +
              "; its dashpot's work, during the swing too, booked as the impacts' loss";
  return out;
}

Observation observe_unilateral(const Parameters& p, const Eigen::Vector4d& s, double tension, double impact_loss) {
  Observation o = observe(p, s, tension);
  const Eigen::Vector2d r = s.head<2>(), v = s.tail<2>();
  const double n = r.norm();
  o.constraint_err = std::max(0.0, n - p.l);
  o.constraint_rate_err = n >= p.l && n > 0.0 ? std::max(0.0, r.dot(v) / n) : 0.0;
  o.external_work = 0.0 - impact_loss;  // +0 before any impact
  return o;
}

}  // namespace tb::planar_pendulum
