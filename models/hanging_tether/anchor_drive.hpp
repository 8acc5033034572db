#pragma once
// The hanging tether's top anchor A driven down (issue 47, "a tether that goes slack": the top
// point moved down faster than the tether falls). A(t) = A + d(t) e3 (e3 down) with the drop
//   d(t) = D (tau - sin(2 pi tau) / (2 pi)),   tau = t / T on [0, T], d = D after T,
// whose velocity d' = (D/T)(1 - cos 2 pi tau) and acceleration d'' = (2 pi D / T^2) sin 2 pi tau
// vanish at both ends: the anchor starts and stops at rest and its acceleration is continuous
// (C^1 in d'', so a prescribed motion costs no smooth method its order before the kinks of the
// slack elements do). Its peak acceleration 2 pi D / T^2 above g is what makes the tether lag:
// the anchor then falls faster than the tether under gravity, and the elements below it go slack.
//
// The step of a variational integrator needs the drop's and the velocity's change over a step
// (an O(h) quantity); they are written in increment form, never as d(t1) - d(t0).

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tb::hanging_tether {

struct AnchorDrive {
  double drop = 0.0;      // D (m), down; 0: A fixed
  double duration = 0.0;  // T (s)

  bool active() const { return drop != 0.0; }
  double displacement(double t) const { return drop * (phase(t) - std::sin(kTwoPi * phase(t)) / kTwoPi); }
  double velocity(double t) const { return !active() ? 0.0 : drop / duration * (1.0 - std::cos(kTwoPi * phase(t))); }
  double acceleration(double t) const { return !active() ? 0.0 : kTwoPi * drop / (duration * duration) * std::sin(kTwoPi * phase(t)); }
  // d(t1) - d(t0) = D (dtau - (sin 2 pi tau1 - sin 2 pi tau0) / (2 pi)), the sines' difference as
  // 2 cos(pi (tau0 + tau1)) sin(pi dtau).
  double displacement_between(double t0, double t1) const {
    const double a = phase(t0), b = phase(t1), pi = std::numbers::pi;
    return drop * ((b - a) - std::cos(pi * (a + b)) * std::sin(pi * (b - a)) / pi);
  }
  // d'(t1) - d'(t0) = (D/T)(cos 2 pi tau0 - cos 2 pi tau1) = (2D/T) sin(pi (tau0 + tau1)) sin(pi dtau).
  double velocity_change_between(double t0, double t1) const {
    if (!active()) return 0.0;
    const double a = phase(t0), b = phase(t1), pi = std::numbers::pi;
    return 2.0 * drop / duration * std::sin(pi * (a + b)) * std::sin(pi * (b - a));
  }

 private:
  static constexpr double kTwoPi = 2.0 * std::numbers::pi;
  double phase(double t) const { return active() ? std::clamp(t / duration, 0.0, 1.0) : 0.0; }
};

}  // namespace tb::hanging_tether
