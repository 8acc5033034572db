#pragma once
// A unilateral contact regularised as a linear spring-dashpot (Kelvin-Voigt) acting while the gap is
// violated (issue 48's "no events" baseline): the numbers that make a free contact of frequency omega
// reproduce Newton's restitution e, shared by every model's penalty discretisation.
//
// A free linear oscillator m x'' + c x' + k x = 0 entered at x = 0 with x' = v leaves x = 0 after
// pi / omega_d with x' = -v exp(-zeta pi / sqrt(1 - zeta^2)) (omega_d = omega sqrt(1 - zeta^2)). So
// zeta = -ln e / sqrt(pi^2 + ln^2 e) gives e exactly, if the force kx + cx' is not clipped at 0
// (clipped, the contact ends where that force reaches 0, earlier, at a higher exit speed). e = 0 needs
// critical damping, zeta = 1, whose stretch v t exp(-omega t) never returns to 0.

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tb {

// zeta from Newton's e in [0, 1]: 1 (critical) at e = 0, 0 at e = 1.
inline double restitution_damping_ratio(double e) {
  if (!(e > 0.0)) return 1.0;
  const double log_e = std::log(e);
  return -log_e / std::sqrt(M_PI * M_PI + log_e * log_e);
}

// How long an observer reads a contact's loss for (s). zeta < 1: the stretch is back at 0 after
// pi / omega_d, with margin 1.5 pi / omega_d (a preload, the string's tension, lengthens a contact a
// little). Critical: v t exp(-omega t) keeps (omega t)^2 exp(-2 omega t) of the approach's energy, 2e-7
// of it after 10 / omega.
inline double contact_window(double omega, double zeta) {
  return zeta < 1.0 ? 1.5 * M_PI / (omega * std::sqrt(1.0 - zeta * zeta)) : 10.0 / omega;
}

// The dashpot engages over the first kDashpotRamp of the contact's length scale: Kelvin-Voigt's force
// steps by c v where the gap closes, which an adaptive error test cannot pass unlocated at a tight
// tolerance (an adaptive Runge-Kutta method at rtol 1e-13 collapsed its step to 1e-16 s there: a step across a force jump J errs
// by ~ J h). The ramp keeps the force continuous; it lasts ~1e-9 l / v, far below any step, so to a
// fixed step it is still the jump, and it moves the contact's restitution by ~1e-9 l / x_max.
inline constexpr double kDashpotRamp = 1e-9;
inline double dashpot_engaged(double stretch, double length_scale) {
  return std::getenv("TB_NORAMP") ? 1.0 : std::min(1.0, stretch / (kDashpotRamp * length_scale));
}

}  // namespace tb
