#include "models/elastic_pendulum/slack_closed_forms.hpp"

#include <cmath>
#include <numbers>

#include "core/format.hpp"

namespace tb::elastic_pendulum {

std::optional<BungeeDrop> bungee_drop(const Parameters& p, const InitialCondition& ic) {
  // On the vertical axis below the pivot, at rest, the cable slack: the motion stays on e3.
  const double z0 = ic.position.z();
  if (!p.tension_only || !(p.g > 0.0) || ic.position.head<2>().norm() != 0.0 || ic.velocity.norm() != 0.0 ||
      !(z0 >= 0.0) || !(z0 < p.l0))
    return std::nullopt;
  BungeeDrop b;
  b.p = p;
  b.slack_height = p.l0 - z0;
  b.entry_speed = std::sqrt(2.0 * p.g * b.slack_height);
  b.omega = std::sqrt(p.k / p.m);
  b.static_stretch = p.m * p.g / p.k;
  b.amplitude = std::hypot(b.static_stretch, b.entry_speed / b.omega);
  b.phase = std::asin(b.static_stretch / b.amplitude);
  b.taut_duration = (std::numbers::pi + 2.0 * b.phase) / b.omega;
  b.slack_flight = 2.0 * b.entry_speed / p.g;
  b.first_entry = b.entry_speed / p.g;
  b.peak_tension = p.m * p.g * (1.0 + std::sqrt(1.0 + 2.0 * p.k * b.slack_height / (p.m * p.g)));
  b.energy = -p.m * p.g * z0;  // at rest, slack: V = -m g z0
  return b;
}

std::vector<double> BungeeDrop::switch_times(double t_end) const {
  std::vector<double> times;
  for (double entry = first_entry; entry <= t_end; entry += period()) {
    times.push_back(entry);
    if (entry + taut_duration <= t_end) times.push_back(entry + taut_duration);
  }
  return times;
}

void BungeeDrop::state(double t, double& z, double& vz) const {
  const double z0 = p.l0 - slack_height;
  if (t <= first_entry) {  // the first fall from rest
    z = z0 + 0.5 * p.g * t * t;
    vz = p.g * t;
    return;
  }
  // Within a period after an entry: taut (an oscillation about l0 + delta), then slack (flight).
  const double tau = std::fmod(t - first_entry, period());
  if (tau <= taut_duration) {
    const double arg = omega * tau - phase;
    z = p.l0 + static_stretch + amplitude * std::sin(arg);
    vz = amplitude * omega * std::cos(arg);
  } else {
    const double s = tau - taut_duration;  // leaving l0 upwards at v0
    z = p.l0 - entry_speed * s + 0.5 * p.g * s * s;
    vz = -entry_speed + p.g * s;
  }
}

std::optional<WhirlingSlack> whirling_slack(const Parameters& p, const InitialCondition& ic) {
  const Vec3& x0 = ic.position;
  const Vec3& v0 = ic.velocity;
  if (!p.tension_only || !(p.g > 0.0) || x0.head<2>().norm() != 0.0 || !(x0.z() > 0.0) || v0.z() != 0.0)
    return std::nullopt;
  WhirlingSlack w;
  const double L = p.l0, g = p.g;
  w.length = L;
  w.launch_speed = v0.norm();
  const double v02 = v0.squaredNorm();
  if (!(v02 > 2.0 * g * L && v02 < 5.0 * g * L)) return std::nullopt;
  const double c = (2.0 * g * L - v02) / (3.0 * g * L);
  w.slack_angle = std::acos(c);
  w.slack_speed = std::sqrt(-g * L * c);
  // t_s = int_0^theta_s L / v(theta) dtheta by composite Simpson (the integrand is smooth and
  // bounded by L / v_s; 4096 panels put the rule's error below 1e-13 s on the bundled case).
  const int n = 4096;
  const double d = w.slack_angle / n;
  auto integrand = [&](double th) { return L / std::sqrt(v02 - 2.0 * g * L * (1.0 - std::cos(th))); };
  double sum = integrand(0.0) + integrand(w.slack_angle);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * integrand(i * d);
  w.slack_time = sum * d / 3.0;
  const double s = std::sin(w.slack_angle);
  w.flight = 4.0 * w.slack_speed * s / g;
  // The parabola in the plane of motion: horizontal along v0, vertical up (-e3).
  const double rx = L * s, ry = -L * c;
  const double vx = w.slack_speed * c, vy = w.slack_speed * s;
  const double tau = w.flight;
  const double cx = rx + vx * tau, cy = ry + vy * tau - 0.5 * g * tau * tau;
  const double cvx = vx, cvy = vy - g * tau;
  w.catch_angle = std::atan2(cx, -cy);
  if (w.catch_angle < 0.0) w.catch_angle += 2.0 * std::numbers::pi;
  w.catch_radial_speed = (cx * cvx + cy * cvy) / L;
  w.catch_tangential_speed = std::abs(cx * cvy - cy * cvx) / L;
  return w;
}

void declare_slack_closed_forms(Model& model, const Parameters& p, const InitialCondition& ic) {
  if (const auto b = bungee_drop(p, ic)) {
    SwitchingClosedForm f;
    f.name = "the bungee drop";
    f.basis = "exact: a free fall of h = " + format_g(b->slack_height, 6) +
              " m, then a periodic motion of taut half-oscillations about the static stretch and slack flights; E conserved";
    f.exact = true;
    f.switches = [b = *b](double t_end) {
      std::vector<std::pair<double, bool>> out;
      bool to_taut = true;
      for (double t : b.switch_times(t_end)) out.emplace_back(t, to_taut), to_taut = !to_taut;
      return out;
    };
    f.peak_tension = b->peak_tension;
    f.state = [b = *b](double t, Eigen::VectorXd& y) {
      double z = 0.0, vz = 0.0;
      b.state(t, z, vz);
      y = Eigen::VectorXd::Zero(6);
      y[2] = z;
      y[5] = vz;
      return true;
    };
    f.quantities = {{"entry speed v0 = sqrt(2 g h) (m/s)", b->entry_speed},
                    {"peak tension m g [1 + sqrt(1 + 2 k h/(m g))] (N)", b->peak_tension},
                    {"taut duration (pi + 2 phi)/omega (s)", b->taut_duration},
                    {"slack flight 2 v0/g (s)", b->slack_flight},
                    {"period (s)", b->period()}};
    model.declare_switching_closed_form(std::move(f));
  } else if (const auto w = whirling_slack(p, ic)) {
    SwitchingClosedForm f;
    f.name = "the whirling string";
    f.basis = "the inextensible limit (k -> infinity, L = l0): the string goes slack at cos theta_s = (2 g L - v0^2)/(3 g L) "
              "and is caught again after a parabolic flight of 4 v_s sin(theta_s)/g; the stiff spring approaches it as "
              "its stretch m v^2/(k L) falls";
    f.exact = false;
    f.switches = [w = *w](double t_end) {
      std::vector<std::pair<double, bool>> out;
      if (w.slack_time <= t_end) out.emplace_back(w.slack_time, false);
      if (w.catch_time() <= t_end) out.emplace_back(w.catch_time(), true);
      return out;
    };
    // The stiff spring's snap at the catch: the preload F0 = m g cos(theta_c) + m v_t^2 / L the
    // motion needs along the string there, then the radial speed v_r taken up elastically,
    // 1/2 k d^2 - F0 d = 1/2 m v_r^2: the peak tension F0 + sqrt(F0^2 + k m v_r^2), which grows like
    // sqrt(k): not a limit answer; its relative difference from the stiff model falls like 1/k (the
    // slack_taut limit table measures q = 0.73, 0.97, 1.00 from k = 1e3 to 1e6).
    const double F0 = p.m * p.g * std::cos(w->catch_angle) + p.m * w->catch_tangential_speed * w->catch_tangential_speed / p.l0;
    f.peak_tension_over_run = F0 + std::sqrt(F0 * F0 + p.k * p.m * w->catch_radial_speed * w->catch_radial_speed);
    f.quantities = {{"slack angle theta_s from the bottom (deg)", w->slack_angle * 180.0 / std::numbers::pi},
                    {"speed at slack v_s (m/s)", w->slack_speed},
                    {"slack time t_s (s)", w->slack_time},
                    {"flight 4 v_s sin(theta_s)/g (s)", w->flight},
                    {"catch time (s)", w->catch_time()},
                    {"catch angle from the bottom (deg)", w->catch_angle * 180.0 / std::numbers::pi},
                    {"outward radial speed at the catch (m/s)", w->catch_radial_speed},
                    {"tangential speed at the catch (m/s)", w->catch_tangential_speed},
                    {"snap load at the catch, F0 + sqrt(F0^2 + k m v_r^2), F0 = m g cos(theta_c) + m v_t^2/L (N)",
                     f.peak_tension_over_run}};
    model.declare_switching_closed_form(std::move(f));
  }
}

}  // namespace tb::elastic_pendulum
