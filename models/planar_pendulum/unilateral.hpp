#pragma once
// The planar pendulum's rod as a unilateral link (issue 48): an inextensible string of length l
// that cannot push. With g(r) = (|r|^2 - l^2)/2 (NaturalCoordinates) the link holds
//   g <= 0,   lambda >= 0,   g lambda = 0,
// and where it snaps taut with radial velocity v_r = r.v/|r| > 0, Newton's impact law
// v_r+ = -e v_r- takes (1 + e) v_r- along r-hat: the kinetic energy lost is 1/2 m (1 - e^2) v_r^2,
// the single-link case of 1/2 (1 - e^2) gdot^T (G M^-1 G^T)^-1 gdot (G M^-1 G^T = |r|^2 / m, gdot = |r| v_r).
// What the forms (hybrid_ode_form.cpp, constrained_form.cpp) and the measurement share.

#include <Eigen/Core>
#include <string>

#include "core/jump_log.hpp"
#include "models/planar_pendulum/mechanics.hpp"

namespace tb::planar_pendulum {

// The rod's tension where the link holds (N): the index-1 multiplier of the constrained motion,
// lambda |r| = m (g z + |v|^2) / |r| (seed 004's lambda = m l theta'^2 + m g cos(theta) on the
// circle), and its rate along that motion (N/s), a = g e_z - T r-hat / m.
double taut_tension(const Parameters& p, const Eigen::Vector4d& s);
double taut_tension_rate(const Parameters& p, const Eigen::Vector4d& s);

// The tension that the link's tension function measures in metres (N/m): m g / l, or m (1 m/s^2) / l in
// free space (g = 0), where the string's tension m v_t^2 / l has no weight to compare with.
double tension_scale(const Parameters& p);

// The motion's time scale (s): sqrt(l / g), the swing's; in free space (g = 0) l / |v0|, the time the
// start's speed takes to cross a radius (1 s where nothing moves).
double motion_time_scale(const Parameters& p, const Eigen::Vector4d& start);

// The measurement's functions of the link (SwitchingFunctions: the same for every form and
// integrator), in metres: its tension over tension_scale(p) (the opening is its zero) and its gap |r| - l
// (the closing is its zero), each with its rate.
void link_tension_function(const Parameters& p, const Eigen::Vector4d& s, double& value, double& rate);
void link_gap_function(const Parameters& p, const Eigen::Vector4d& s, double& value, double& rate);
// A state the observation treats as at the link's length (its tension column): within this of l
// (relative), the length drift of a method's taut phase; a flight inside it reads a tension for at most
// kAtLimit l / v_r before the closing.
inline constexpr double kAtLimit = 1e-6;

// Newton's impact law on s, where the link is at its length (|r| >= l (1 - tol)) and opening it
// (v_r > 0): v -= (1 + e) v_r r-hat, r put on the circle, and the kinetic energy lost returned
// in `lost` (J); false (s untouched) where the link does not close.
bool apply_impact(const Parameters& p, Eigen::Vector4d& s, double& lost, double tol = 1e-9);

// The hybrid forms' jump at a located event (HybridOdeForm, HybridDaeForm: the event-driven methods), on
// the physical state s, the impacts' energy `work` (J) and the mode (taut: the link holds). Taut: the
// link opens where `tension` (N, the form's own) has reached its zero. Slack: at the circle, Newton's
// impact law (apply_impact), its loss added to `work`; after it the link holds where the impact was
// plastic and it pulls, else the mass flies on from 8 ulps inside the circle (the slack side of the
// gap's sign). False where the event is not a switch. A rebound whose flight is below 1e-6 of
// time_scale (motion_time_scale) throws: a Zeno accumulation an event-driven method cannot pass. Each
// switch it makes goes to `log` (an opening; a closing held, or left in flight: a rebound or a graze).
bool hybrid_jump(const Parameters& p, double t, double time_scale, double tension, Eigen::Vector4d& s, double& work, bool& taut,
                 JumpLog& log);

// Issue 48's "no events" baseline: the string regularised as a stiff linear spring-dashpot (Kelvin-Voigt)
// that acts while it is stretched, delta = |r| - l > 0, along r-hat:
//   m r'' = m g e_z - (k delta + c delta') r-hat   (delta > 0),   m r'' = m g e_z   (delta <= 0),
// a force continuous in the state at delta = 0 from the spring, with the dashpot's step c delta' there (the
// linear model's, Kelvin-Voigt's: no event is needed to integrate it, but the acceleration jumps; the form
// spreads that step over the first 1e-9 l of stretch, penalty_form.cpp, so adaptive error tests can pass it). Its
// radial contact is the damped oscillator m delta'' + c delta' + k delta = (the outward load), whose
// stretch, started at 0 with rate v, comes back to 0 at rate -e v with e = exp(-zeta pi / sqrt(1 - zeta^2))
// (zeta = c / (2 sqrt(k m)) < 1) and never where zeta >= 1; so Newton's e gives zeta = -ln e / sqrt(pi^2 +
// ln^2 e), and e = 0 the critical zeta = 1 (the approach's energy all taken by the dashpot, as the
// outward load's static stretch is approached). While stretched and shortening faster than k delta / c
// the dashpot pushes (the model's known adhesion); that is what makes e = 0 reachable. The dashpot's
// power c delta'^2 is booked as the impacts' work, so E - E0 - W (E with the spring's 1/2 k delta^2) is
// the invariant. Its distance from the impact law falls as the contact frequency omega = sqrt(k / m)
// rises, and an explicit method's stable step falls with it: the regularisation's trade.
struct PenaltyLink {
  double k = 0.0;             // spring stiffness (N/m)
  double c = 0.0;             // dashpot (N s/m)
  double omega = 0.0;         // contact frequency sqrt(k / m) (rad/s)
  double zeta = 0.0;          // damping ratio c / (2 sqrt(k m))
  double contact_time = 0.0;  // a contact's window (s): 1.5 pi / omega_d where it rebounds (zeta < 1), else 10 / omega
  std::string words;          // the link in words, with its numbers
};
PenaltyLink penalty_link(const Parameters& p, const Eigen::Vector4d& start);

// Observables of a unilateral link: as observe() (mechanics.hpp), but the constraint columns are
// its violations only: constraint_err = max(0, |r| - l) (the overstretch), constraint_rate_err =
// max(0, v_r) where |r| >= l (opening beyond the limit); and the energy the impacts took,
// `impact_loss`, booked as external work -impact_loss (E - E0 - W is then the invariant).
Observation observe_unilateral(const Parameters& p, const Eigen::Vector4d& s, double tension, double impact_loss);

}  // namespace tb::planar_pendulum
