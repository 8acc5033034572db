#pragma once
// Closed-form answers of the tension-only elastic pendulum (issue 47, item 3), recognised from a
// case's parameters and initial state, for the slack-taut study (studies/slack_taut/) to judge
// every integrator's events against.
//
// The bungee drop: the mass at rest on the vertical axis, a slack distance h above the point
// where the cable comes taut (x0 = (l0 - h) e3, 0 < h <= l0, v0 = 0). Along e3 the motion is
// exactly one-dimensional and piecewise solvable: a free fall of sqrt(2h/g) to the entry speed
// v0 = sqrt(2 g h); a taut half-oscillation about the static stretch delta = m g / k,
// zeta = z - l0 - delta = A sin(omega tau - phi), omega = sqrt(k/m), A = sqrt(delta^2 + v0^2/omega^2),
// phi = arcsin(delta / A), lasting (pi + 2 phi)/omega, with the peak tension
// k (delta + A) = m g [1 + sqrt(1 + 2 k h/(m g))]; the exit at v0 upwards and a slack flight of
// 2 v0/g back to the entry. From the first entry on the motion is periodic and E is conserved
// exactly by the flow.
//
// The whirling string (the inextensible limit k -> infinity, L = l0): launched from the bottom
// (x0 = |x0| e3) horizontally with 2 g L < v0^2 < 5 g L, the tension
// T = m v^2/L + m g cos(theta), v^2 = v0^2 - 2 g L (1 - cos theta) (theta from the bottom), vanishes
// at cos(theta_s) = (2 g L - v0^2)/(3 g L), reached at t_s = int_0^theta_s L dtheta / v(theta) (a
// quadrature of a smooth integrand: v(theta_s)^2 = -g L cos(theta_s) > 0). There the mass leaves the
// circle on a parabola with the circle's own position, velocity and normal acceleration (T = 0:
// gravity alone supplies v^2/L), so |r(tau)|^2 - L^2 = tau^3 (v.g + g^2 tau/4) has a triple root at
// tau = 0 and one more, the catch: tau_c = 4 v_s sin(theta_s)/g. A stiff elastic string follows
// this with deviations of order the stretch T/k against L (the study measures their rate).

#include <optional>
#include <vector>

#include "core/model.hpp"
#include "models/elastic_pendulum/mechanics.hpp"

namespace tb::elastic_pendulum {

struct BungeeDrop {
  double slack_height = 0.0;   // h (m)
  double entry_speed = 0.0;    // v0 = sqrt(2 g h) (m/s)
  double omega = 0.0;          // sqrt(k/m) (rad/s)
  double static_stretch = 0.0; // delta = m g / k (m)
  double amplitude = 0.0;      // A (m)
  double phase = 0.0;          // phi (rad)
  double taut_duration = 0.0;  // (pi + 2 phi)/omega (s)
  double slack_flight = 0.0;   // 2 v0 / g (s)
  double first_entry = 0.0;    // sqrt(2 h / g) (s)
  double peak_tension = 0.0;   // m g [1 + sqrt(1 + 2 k h / (m g))] (N)
  double energy = 0.0;         // E = T + V, conserved (J)

  double period() const { return taut_duration + slack_flight; }
  // The times in (0, t_end] where the cable changes side: taut at first_entry + n period, slack
  // a taut_duration later.
  std::vector<double> switch_times(double t_end) const;
  // The exact depth z(t) and velocity z'(t) along e3.
  void state(double t, double& z, double& vz) const;
  Parameters p;
};
// The bungee drop of these parameters and initial state, or nullopt where the case is not one.
std::optional<BungeeDrop> bungee_drop(const Parameters& p, const InitialCondition& ic);

struct WhirlingSlack {
  double length = 0.0;        // L = l0 (m)
  double launch_speed = 0.0;  // v0 (m/s)
  double slack_angle = 0.0;   // theta_s from the bottom (rad)
  double slack_speed = 0.0;   // v_s = sqrt(-g L cos theta_s) (m/s)
  double slack_time = 0.0;    // t_s (s)
  double flight = 0.0;        // tau_c = 4 v_s sin(theta_s) / g (s)
  double catch_angle = 0.0;   // theta_c of the catch point on the circle, from the bottom (rad)
  double catch_radial_speed = 0.0;  // outward radial speed at the catch, v_r = r.v / L (m/s)
  double catch_tangential_speed = 0.0;  // |r x v| / L (m/s): what the inextensible string keeps at the catch
  double catch_time() const { return slack_time + flight; }
};
// The whirling string of these parameters and initial state in the inextensible limit, or
// nullopt where the case is not one (not launched horizontally from the bottom, or v0^2 outside
// (2 g L, 5 g L)).
std::optional<WhirlingSlack> whirling_slack(const Parameters& p, const InitialCondition& ic);

// Declares on the model whichever of the two its case is (core/switching.hpp
// SwitchingClosedForm), nothing otherwise.
void declare_slack_closed_forms(Model& model, const Parameters& p, const InitialCondition& ic);

}  // namespace tb::elastic_pendulum
