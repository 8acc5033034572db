#include "models/planar_pendulum/unilateral_closed_forms.hpp"

#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "models/planar_pendulum/unilateral.hpp"

namespace tb::planar_pendulum {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
double degrees(double rad) { return rad * 180.0 / M_PI; }

// The amplitude parameter k = sin(theta_max / 2) of the libration through (theta, omega):
// k^2 = sin^2(theta/2) + omega^2 / (4 g / l), from omega^2 / 2 - (g/l) cos(theta) = -(g/l) cos(theta_max).
double libration_k(const Parameters& p, double theta, double omega) {
  const double s = std::sin(0.5 * theta);
  return std::sqrt(s * s + omega * omega * p.l / (4.0 * p.g));
}

// One phase of the motion: a flight from (r0, v0) or a swing from (theta0, omega0), from t0.
struct Phase {
  double t0 = 0.0;
  bool flight = false;
  Eigen::Vector2d r0 = Eigen::Vector2d::Zero(), v0 = Eigen::Vector2d::Zero();
  double theta0 = 0.0, omega0 = 0.0;
};

Eigen::Vector4d state_in(const Parameters& p, const Phase& ph, double t) {
  const double tau = t - ph.t0;
  if (ph.flight) {
    Eigen::Vector4d s;
    s.head<2>() = ph.r0 + tau * ph.v0 + Eigen::Vector2d(0.0, 0.5 * p.g * tau * tau);
    s.tail<2>() = ph.v0 + Eigen::Vector2d(0.0, p.g * tau);
    return s;
  }
  const auto tw = libration(p, ph.theta0, ph.omega0, tau);
  return physical_from_polar(p, (*tw)[0], (*tw)[1]);
}

}  // namespace

std::optional<Eigen::Vector2d> libration(const Parameters& p, double theta_a, double omega_a, double tau) {
  const double k = libration_k(p, theta_a, omega_a), w0 = std::sqrt(p.g / p.l);
  if (!(k < 1.0)) return std::nullopt;
  if (k == 0.0) return Eigen::Vector2d(0.0, 0.0);  // at rest at the bottom
  // u_a on the branch where cn(u_a) has omega_a's sign (dn > 0, cos(theta/2) > 0):
  // sn(2K - u) = sn(u), cn(2K - u) = -cn(u).
  const double phi = std::asin(std::clamp(std::sin(0.5 * theta_a) / k, -1.0, 1.0));
  const double F = boost::math::ellint_1(k, phi), K = boost::math::ellint_1(k);
  const double u_a = omega_a >= 0.0 ? F : 2.0 * K - F;
  double cn = 0.0, dn = 0.0;
  const double sn = boost::math::jacobi_elliptic(k, u_a + w0 * tau, &cn, &dn);
  const double half = std::asin(k * sn);
  // theta' from d/dt sin(theta/2) = k w0 cn dn: theta' = 2 k w0 cn dn / cos(theta/2).
  return Eigen::Vector2d(2.0 * half, 2.0 * k * w0 * cn * dn / std::cos(half));
}

namespace {

// The rebound in free space (g = 0): chords of the circle, each hit by Newton's law.
std::optional<SwitchingClosedForm> rebound_closed_form(const Parameters& p, const InitialCondition& ic) {
  if (!p.unilateral || p.g != 0.0) return std::nullopt;
  const Eigen::Vector4d s0 = initial_physical(p, ic);
  const double m = p.m, l = p.l, e = p.restitution;
  Eigen::Vector2d r = s0.head<2>(), v = s0.tail<2>();
  // A flight first: inside the circle, or on it moving inwards (a taut start is not this case).
  if (!(v.squaredNorm() > 0.0) || !(r.norm() < l || r.dot(v) < 0.0)) return std::nullopt;
  // The first hit: |r + v tau|^2 = l^2, a v^2 tau^2 + b tau + c = 0 with c = |r|^2 - l^2 <= 0, its positive
  // root in the cancellation-free form (q / a where b < 0, c / q where b >= 0).
  const double a = v.squaredNorm(), b = 2.0 * r.dot(v), c = r.squaredNorm() - l * l;
  const double q = -0.5 * (b + std::copysign(std::sqrt(std::max(0.0, b * b - 4.0 * a * c)), b));
  double t = b < 0.0 ? q / a : c / q;
  // Without gravity a flight is a chord: the angular momentum r x v is kept in flight and by the radial
  // impulse, so every hit has the same tangential speed v_t = |r x v| / l, and a chord leaves the circle
  // with the radial speed it meets it with, so the n-th hit (from 0) meets it with e^n v_r0 and the flight
  // after it lasts 2 l e v_r,n / (v_t^2 + e^2 v_r,n^2) (|r + v+ tau| = l with r.v+ = -l e v_r,n).
  std::vector<Phase> phases;
  Phase first;
  first.flight = true;
  first.r0 = r;
  first.v0 = v;
  phases.push_back(first);
  std::vector<std::pair<double, bool>> switches;
  SwitchingClosedForm answers;
  const double v_t = std::abs(r.x() * v.y() - r.y() * v.x()) / l;
  double v_r0 = kNaN, lost_total = 0.0;
  // Hits are followed until their flights are shorter than round-off of the time (the accumulation, e < 1),
  // or up to kMaxHits (e = 1, or a radial motion whose flights do not shrink).
  constexpr int kMaxHits = 10000;
  bool accumulates = false;
  for (int n = 0; n < kMaxHits; ++n) {
    r = phases.back().r0 + (t - phases.back().t0) * phases.back().v0;
    r *= l / r.norm();  // on the circle (round-off of the root)
    const Eigen::Vector2d n_hat = r / l;
    const double v_r = n_hat.dot(v);
    if (n == 0) v_r0 = v_r;
    const double lost = 0.5 * m * (1.0 - e * e) * v_r * v_r;
    lost_total += lost;
    switches.push_back({t, true});
    answers.impact_losses.push_back(lost);
    v -= (1.0 + e) * v_r * n_hat;
    Phase after;
    after.t0 = t;
    after.r0 = r;
    after.v0 = v;
    const double tau = e > 0.0 ? -2.0 * r.dot(v) / v.squaredNorm() : 0.0;
    if (!(tau > 16.0 * std::numeric_limits<double>::epsilon() * t)) {
      // e = 0, or the accumulation: the rest of the hits' flights (a geometric series, ratio e, to first
      // order in v_r) last 2 l e v_r,n / (v_t^2 (1 - e)); from then on the string is taut and the mass
      // slides round the circle at v_t (tension m v_t^2 / l).
      accumulates = true;
      after.flight = false;
      const double rest = e > 0.0 ? 2.0 * l * e * std::abs(v_r) / (v_t * v_t * (1.0 - e)) : 0.0;
      const double turn = e > 0.0 ? 2.0 * e * std::abs(v_r) / (v_t * (1.0 - e)) : 0.0;
      const double sense = r.x() * v.y() - r.y() * v.x() >= 0.0 ? 1.0 : -1.0;  // counter-clockwise in (x, z)
      after.t0 = t + rest;
      after.theta0 = std::atan2(r.y(), r.x()) + sense * turn;  // its angle in (x, z) from +x, here only
      after.omega0 = sense * v_t / l;
      phases.push_back(after);
      break;
    }
    after.flight = true;
    phases.push_back(after);
    switches.push_back({t, false});  // the rebound: the string is slack again at once
    t += tau;
  }
  if (!accumulates && !(e == 1.0 || v_t == 0.0)) return std::nullopt;
  const double t_accumulation = accumulates ? phases.back().t0 : kNaN;
  answers.name = "the rebound in free space";
  answers.basis = "a mass on a string in free space (g = 0) flies straight chords of the circle |r| = l; Newton's impact law "
                  "with e = " + format_g(e) + " takes (1 + e) of the radial velocity at each hit and keeps the tangential "
                  "speed (the angular momentum about the pivot is kept in flight and by the radial impulse), so the n-th hit "
                  "meets the circle with e^n v_r0 and loses 1/2 m (1 - e^2) e^(2n) v_r0^2; the string is slack again at once "
                  "after each hit (the rebound, listed as a switch to slack at the hit's time). With e < 1 the hits accumulate "
                  "(Zeno) at a finite time, after which the mass slides round the circle taut at v_t; the hits are listed up "
                  "to the accumulation, " + std::to_string(kMaxHits) + " at most";
  answers.quantities = {{"first hit time (s)", switches.front().first}, {"radial speed at the first hit (m/s)", v_r0},
                        {"tangential speed at every hit (m/s)", v_t}, {"restitution e", e},
                        {"energy lost at the first hit (J)", answers.impact_losses.front()},
                        {accumulates ? "energy lost by the accumulation, all hits (J)" : "energy lost by every hit followed (J)", lost_total}};
  if (switches.size() > 2) answers.quantities.push_back({"second hit time (s)", switches[2].first});
  if (accumulates) answers.quantities.push_back({"accumulation time (s)", t_accumulation});
  if (accumulates && e > 0.0) {  // e = 0 ends at the first hit: a plastic snap, no accumulation
    answers.accumulation_time = t_accumulation;
    answers.accumulation_loss = lost_total;
  }
  const double t_covered = switches.back().first;
  answers.exact = true;
  answers.switches = [switches](double t_end) {
    std::vector<std::pair<double, bool>> in;
    for (const auto& sw : switches)
      if (sw.first <= t_end) in.push_back(sw);
    return in;
  };
  answers.state = [p, phases, accumulates, t_covered](double t, Eigen::VectorXd& physical) {
    if (!accumulates && t > t_covered) return false;  // past the hits followed
    size_t i = 0;
    while (i + 1 < phases.size() && t >= phases[i + 1].t0) ++i;
    const Phase& ph = phases[i];
    physical.resize(4);
    if (ph.flight) {
      const double tau = t - ph.t0;
      physical << ph.r0 + tau * ph.v0, ph.v0;
      return true;
    }
    // Sliding round the circle: angle theta0 + omega0 (t - t0) in (x, z) from +x.
    const double phi = ph.theta0 + ph.omega0 * (t - ph.t0);
    physical << p.l * std::cos(phi), p.l * std::sin(phi), -p.l * ph.omega0 * std::sin(phi), p.l * ph.omega0 * std::cos(phi);
    return true;
  };
  return answers;
}

// The first return to the circle |r| = l of a flight under gravity (g along +z, e_z down) from r on it at
// v, r.v = rv < 0 (given exactly: after a rebound it is -l e v_r, which the dot product would give only
// to round-off of |r||v|). |r + v tau + g tau^2 / 2 e_z|^2 = l^2 is, divided by tau, the cubic
//   f(tau) = 2 r.v + (|v|^2 + g z) tau + g v_z tau^2 + g^2 tau^3 / 4,   f(0) = 2 r.v < 0,
// and the flight ends at its first root. A chord is at most 2 l long, so f >= 0 by
// tau_max = (|v| + sqrt(|v|^2 + 4 g l)) / g. The root is bracketed on a grid geometric near 0 (the
// short flights near an accumulation) and uniform beyond, then solved by TOMS 748 to round-off.
double return_time(const Eigen::Vector2d& r, const Eigen::Vector2d& v, double rv, double g, double l) {
  const double c1 = v.squaredNorm() + g * r.y(), c2 = g * v.y(), c3 = 0.25 * g * g;
  const auto f = [&](double tau) { return 2.0 * rv + tau * (c1 + tau * (c2 + tau * c3)); };
  const double tau_max = (v.norm() + std::sqrt(v.squaredNorm() + 4.0 * g * l)) / g;
  constexpr int kUniform = 4000, kGeometric = 80;
  double a = 0.0, fa = f(0.0);
  for (int k = -kGeometric; k <= kUniform; ++k) {
    const double b = k < 0 ? tau_max * std::ldexp(1.0 / kUniform, k) : tau_max * std::max(k, 1) / kUniform;
    if (!(b > a)) continue;
    const double fb = f(b);
    if (fb >= 0.0) {
      if (fb == 0.0) return b;
      std::uintmax_t iterations = 200;
      const auto [lo, hi] = boost::math::tools::toms748_solve(f, a, b, fa, fb, boost::math::tools::eps_tolerance<double>(),
                                                              iterations);
      return 0.5 * (lo + hi);
    }
    a = b;
    fa = fb;
  }
  return std::numeric_limits<double>::quiet_NaN();  // not reached: f(tau_max) >= 0
}

// The drop with rebounds (g > 0, 0 < e < 1): released at rest inside the circle, the mass falls to it;
// each hit takes (1 + e) of the radial velocity and the mass flies a parabola back to the circle. The
// flights shrink by about e each, and the hits accumulate (Zeno) at a finite time; from there the mass
// moves on the circle, taut, with the tangential velocity it has (the remaining hits take what is left of
// the radial velocity, all of it), and swings as the exact libration.
std::optional<SwitchingClosedForm> drop_rebounds_closed_form(const Parameters& p, const InitialCondition& ic) {
  const double m = p.m, l = p.l, g = p.g, e = p.restitution;
  if (!p.unilateral || !(g > 0.0) || !(e > 0.0 && e < 1.0)) return std::nullopt;
  const Eigen::Vector4d s0 = initial_physical(p, ic);
  const Eigen::Vector2d r0 = s0.head<2>();
  if (!(r0.norm() < l) || !s0.tail<2>().isZero()) return std::nullopt;
  std::vector<Phase> phases;
  Phase fall;
  fall.flight = true;
  fall.r0 = r0;
  phases.push_back(fall);
  // The fall: |r0 + g t^2/2 e_z| = l at z = sqrt(l^2 - x0^2).
  double t = std::sqrt(2.0 * (std::sqrt(l * l - r0.x() * r0.x()) - r0.y()) / g);
  std::vector<std::pair<double, bool>> switches;
  SwitchingClosedForm answers;
  double lost_total = 0.0, v_r0 = kNaN, theta_end = kNaN, omega_end = kNaN;
  constexpr int kMaxHits = 10000;
  constexpr double kLastFlight = 1e-12;  // in time scales sqrt(l / g)
  for (int n = 0; n < kMaxHits && std::isnan(theta_end); ++n) {
    const Eigen::Vector4d hit = state_in(p, phases.back(), t);
    const Eigen::Vector2d r = hit.head<2>() * (l / hit.head<2>().norm()), n_hat = r / l;  // on the circle (the root's round-off)
    Eigen::Vector2d v = hit.tail<2>();
    const double v_r = n_hat.dot(v);
    if (!(v_r > 0.0)) return std::nullopt;  // not a closing: no hit of this construction
    if (n == 0) v_r0 = v_r;
    const double lost = 0.5 * m * (1.0 - e * e) * v_r * v_r;
    lost_total += lost;
    switches.push_back({t, true});
    answers.impact_losses.push_back(lost);
    v -= (1.0 + e) * v_r * n_hat;
    const double tau = return_time(r, v, -l * e * v_r, g, l);
    if (!(tau > kLastFlight * std::sqrt(l / g))) {
      // The accumulation: the rest of the flights, each e times the last to relative O(tau / sqrt(l / g))
      // (2 e v_r,n / a_r, a_r = v_t^2 / l + g n_z the free flight's outward radial acceleration on the
      // circle), last 2 e v_r / (a_r (1 - e)); their hits take the rest of the radial velocity. Hits are
      // followed no further: their radial speeds (here ~1e-11 m/s) approach the round-off of n.v.
      const Eigen::Vector2d v_tangential = v - n_hat.dot(v) * n_hat;
      const double a_r = v_tangential.squaredNorm() / l + g * n_hat.y();
      if (!(a_r > 0.0)) return std::nullopt;  // the string would not hold: no accumulation of this kind
      lost_total += 0.5 * m * e * e * v_r * v_r;
      t += 2.0 * e * v_r / (a_r * (1.0 - e));
      // The pendulum's angle theta = atan2(x, z) (x = l sin(theta), z = l cos(theta)) and its rate.
      theta_end = std::atan2(r.x(), r.y());
      omega_end = (v_tangential.x() * std::cos(theta_end) - v_tangential.y() * std::sin(theta_end)) / l;
      Phase swing;
      swing.t0 = t;
      swing.theta0 = theta_end;
      swing.omega0 = omega_end;
      phases.push_back(swing);
      break;
    }
    Phase after;
    after.t0 = t;
    after.flight = true;
    after.r0 = r;
    after.v0 = v;
    phases.push_back(after);
    switches.push_back({t, false});  // the rebound: slack again at once
    t += tau;
  }
  if (std::isnan(theta_end)) return std::nullopt;
  // Taut for ever after where the libration stays below 90 degrees.
  const double amplitude = 2.0 * std::asin(std::min(1.0, libration_k(p, theta_end, omega_end)));
  if (!(amplitude < 0.5 * M_PI)) return std::nullopt;
  const double t_accumulation = phases.back().t0;
  answers.name = "the drop with rebounds";
  answers.basis = "a mass released at rest inside the circle falls freely to it; Newton's impact law with e = " + format_g(e) +
                  " takes (1 + e) of the radial velocity at each hit and the mass flies a parabola back to the circle (the "
                  "first root of a cubic, solved to round-off); the flights shrink by about e each, so the hits accumulate "
                  "(Zeno) at a finite time, after which the mass is on the circle with the tangential velocity it has, the "
                  "hits having taken all the radial velocity, and the exact libration (Jacobi's sn) follows, taut while its "
                  "amplitude stays below 90 degrees; the hits are listed until their flights are below 1e-12 sqrt(l/g) "
                  "(each hit followed by its rebound, a switch to slack at the same time)";
  answers.quantities = {{"first hit time (s)", switches.front().first},
                        {"radial speed at the first hit (m/s)", v_r0},
                        {"restitution e", e},
                        {"energy lost at the first hit (J)", answers.impact_losses.front()},
                        {"second hit time (s)", switches.size() > 2 ? switches[2].first : kNaN},
                        {"hits listed (flights to 1e-12 sqrt(l/g))", double(answers.impact_losses.size())},
                        {"accumulation time (s)", t_accumulation},
                        {"energy lost by the accumulation, all hits (J)", lost_total},
                        {"angle at the accumulation (deg)", degrees(theta_end)},
                        {"swing amplitude after the accumulation (deg)", degrees(amplitude)}};
  answers.accumulation_time = t_accumulation;
  answers.accumulation_loss = lost_total;
  // The taut swing's tension T = m (|v|^2 + g z) / l on the exact libration, T^2 / m integrated by Simpson's rule
  // on 2000 panels a second (the libration is analytic: the rule's error is far below the uses' accuracy), times
  // (1 - e)/(2 (1 + e)) (core/switching.hpp).
  const Phase swing_after = phases.back();
  answers.reclosing_loss_rate = [p, swing_after, t_accumulation](double t_end) {
    if (!(t_end > t_accumulation)) return 0.0;
    const int panels = 2 * std::max(1, int(std::ceil(1000.0 * (t_end - t_accumulation))));
    const double dt = (t_end - t_accumulation) / panels;
    double sum = 0.0;
    for (int k = 0; k <= panels; ++k) {
      const Eigen::Vector4d s = state_in(p, swing_after, t_accumulation + k * dt);
      const double tension = p.m * (s.tail<2>().squaredNorm() + p.g * s[1]) / p.l;
      sum += (k == 0 || k == panels ? 1.0 : (k % 2 ? 4.0 : 2.0)) * tension * tension / p.m;
    }
    return (1.0 - p.restitution) / (2.0 * (1.0 + p.restitution)) * sum * dt / 3.0;
  };
  answers.exact = true;
  answers.switches = [switches](double t_end) {
    std::vector<std::pair<double, bool>> in;
    for (const auto& sw : switches)
      if (sw.first <= t_end) in.push_back(sw);
    return in;
  };
  answers.state = [p, phases](double at, Eigen::VectorXd& physical) {
    size_t i = 0;
    while (i + 1 < phases.size() && at >= phases[i + 1].t0) ++i;
    physical = state_in(p, phases[i], at);
    return true;
  };
  return answers;
}

}  // namespace

std::optional<SwitchingClosedForm> unilateral_closed_form(const Parameters& p, const InitialCondition& ic) {
  if (p.unilateral && p.g == 0.0) return rebound_closed_form(p, ic);
  if (!p.unilateral || !(p.g > 0.0)) return std::nullopt;
  // Each snap below is followed by a swing: true for e = 0 only. With e > 0 the mass rebounds into
  // another flight, a sequence of hits that accumulates (Zeno), followed for the drop from rest only.
  if (p.restitution != 0.0) return drop_rebounds_closed_form(p, ic);
  const Eigen::Vector4d s0 = initial_physical(p, ic);
  const double m = p.m, l = p.l, g = p.g, e = p.restitution;
  std::vector<Phase> phases;
  std::vector<std::pair<double, bool>> switches;
  SwitchingClosedForm answers;
  answers.exact = true;
  // The impact at the end of a flight: the swing that follows, its loss and amplitude.
  const auto snap = [&](const Phase& flight, double t_snap, double& lost, double& theta_s, double& amplitude) {
    Eigen::Vector4d s = state_in(p, flight, t_snap);
    s.head<2>() *= l / s.head<2>().norm();  // on the circle (round-off of the root)
    apply_impact(p, s, lost, 1e-6);
    theta_s = std::atan2(s[0], s[1]);
    const double omega_s = (s[2] * std::cos(theta_s) - s[3] * std::sin(theta_s)) / l;
    Phase swing;
    swing.t0 = t_snap;
    swing.theta0 = theta_s;
    swing.omega0 = omega_s;
    phases.push_back(swing);
    switches.push_back({t_snap, true});
    answers.impact_losses.push_back(lost);
    amplitude = 2.0 * std::asin(std::min(1.0, libration_k(p, theta_s, omega_s)));
  };
  const Eigen::Vector2d r0 = s0.head<2>(), v0 = s0.tail<2>();
  double amplitude = kNaN;
  if (r0.norm() < l && v0.isZero()) {
    // The drop from rest: |r0 + g t^2/2 e_z| = l at z = sqrt(l^2 - x0^2), a fall of h = that - z0.
    const double h = std::sqrt(l * l - r0.x() * r0.x()) - r0.y(), t_hit = std::sqrt(2.0 * h / g);
    Phase fall;
    fall.flight = true;
    fall.r0 = r0;
    phases.push_back(fall);
    double lost = 0.0, theta_s = 0.0;
    const double v_r = g * t_hit * std::sqrt(l * l - r0.x() * r0.x()) / l;  // g t_hit z_hit / l
    snap(fall, t_hit, lost, theta_s, amplitude);
    answers.name = "the pendulum drop";
    answers.basis = "a mass released at rest inside the circle falls freely for sqrt(2 h / g) until the string is taut; Newton's "
                    "impact law with e = " + format_g(e) + " takes (1 + e) of its radial velocity, 1/2 m (1 - e^2) v_r^2 "
                    "of energy, and the exact libration (Jacobi's sn) follows, taut while its amplitude stays below 90 degrees";
    answers.quantities = {{"hit time (s)", t_hit}, {"fall height h (m)", h}, {"radial speed at the hit (m/s)", v_r},
                          {"energy lost at the snap (J)", 0.5 * m * (1.0 - e * e) * v_r * v_r},
                          {"angle at the snap (deg)", degrees(theta_s)}, {"swing amplitude after the snap (deg)", degrees(amplitude)}};
  } else if (std::abs(r0.x()) <= 1e-12 * l && std::abs(r0.y() - l) <= 1e-12 * l && v0.y() == 0.0) {
    // The whirl from the bottom with v0^2 in (2 g l, 4 g l): it opens before the top, in a libration.
    const double V2 = v0.squaredNorm();
    if (!(V2 > 2.0 * g * l && V2 < 4.0 * g * l)) return std::nullopt;
    const double sign = v0.x() > 0.0 ? 1.0 : -1.0;
    const double cos_o = (2.0 * g * l - V2) / (3.0 * g * l), theta_o = sign * std::acos(cos_o);
    const double k = std::sqrt(V2 / (4.0 * g * l)), w0 = std::sqrt(g / l);
    const double t_open = boost::math::ellint_1(k, std::asin(std::sin(0.5 * std::abs(theta_o)) / k)) / w0;
    Phase swing;
    swing.theta0 = 0.0;
    swing.omega0 = v0.x() / l;
    phases.push_back(swing);
    switches.push_back({t_open, false});
    const double omega_o = sign * std::sqrt((V2 - 2.0 * g * l * (1.0 - cos_o)) / (l * l));
    Phase flight;
    flight.t0 = t_open;
    flight.flight = true;
    const Eigen::Vector4d so = physical_from_polar(p, theta_o, omega_o);
    flight.r0 = so.head<2>();
    flight.v0 = so.tail<2>();
    phases.push_back(flight);
    const double t_flight = -4.0 * flight.v0.y() / g;
    double lost = 0.0, theta_s = 0.0;
    snap(flight, t_open + t_flight, lost, theta_s, amplitude);
    answers.name = "the whirl that goes slack";
    answers.basis = "launched from the bottom with 2 g l < v0^2 < 4 g l (the string goes slack for any v0^2 in (2 g l, 5 g l); the "
                    "libration form F(phi, k) used here needs k^2 = v0^2 / (4 g l) < 1), the string opens where its tension vanishes, "
                    "cos(theta_o) = (2 g l - v0^2)/(3 g l), at the libration's time F(phi, k)/sqrt(g/l); the mass flies the parabola "
                    "for t_f = 4 |v_o| sin(theta_o)/g and the string snaps taut where it meets the circle again, the impact law with e = " +
                    format_g(e) + " taking the radial velocity; then the exact libration, taut while its amplitude stays below 90 degrees";
    answers.quantities = {{"opening time (s)", t_open}, {"opening angle (deg)", degrees(theta_o)},
                          {"speed at the opening (m/s)", std::abs(omega_o) * l}, {"flight time (s)", t_flight},
                          {"snap time (s)", t_open + t_flight}, {"angle at the snap (deg)", degrees(theta_s)},
                          {"energy lost at the snap (J)", lost}, {"swing amplitude after the snap (deg)", degrees(amplitude)}};
  } else {
    return std::nullopt;
  }
  // After the snap the string stays taut for ever where the libration stays below 90 degrees
  // (T = m (l omega^2 + g cos(theta)) > 0 there); otherwise later switches have no closed form here.
  if (!(amplitude < 0.5 * M_PI)) return std::nullopt;
  answers.switches = [switches](double t_end) {
    std::vector<std::pair<double, bool>> in;
    for (const auto& sw : switches)
      if (sw.first <= t_end) in.push_back(sw);
    return in;
  };
  answers.state = [p, phases](double t, Eigen::VectorXd& physical) {
    size_t i = 0;
    while (i + 1 < phases.size() && t >= phases[i + 1].t0) ++i;
    physical = state_in(p, phases[i], t);
    return true;
  };
  answers.peak_tension = kNaN;
  answers.peak_tension_over_run = kNaN;
  return answers;
}

}  // namespace tb::planar_pendulum
