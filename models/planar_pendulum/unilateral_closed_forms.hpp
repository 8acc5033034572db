#pragma once
// Known answers for the planar pendulum on a unilateral link (issue 48 item 3), in closed form:
//  - the drop: a mass at rest inside the circle falls freely until the string is taut, loses its
//    radial velocity to the impact law, and swings as an ordinary pendulum;
//  - the whirl that goes slack: launched from the bottom with 2 g l < v0^2 < 4 g l, the string
//    opens where its tension m (l omega^2 + g cos(theta)) vanishes, cos(theta_o) = (2 g l - v0^2)/(3 g l),
//    the mass flies a parabola and the string snaps taut again after t_f = 4 |v_o| sin(theta_o) / g
//    (|r(t)|^2 - l^2 = t^3 (g v_oz + g^2 t / 4) along the parabola, since r_o.v_o = 0 and
//    |v_o|^2 + g z_o = 0 at the opening), where the impact law takes the radial velocity.
//  - the rebound in free space (g = 0, any e): the mass flies straight chords of the circle, each hit
//    taking (1 + e) of the radial velocity and keeping the tangential speed, so the n-th hit meets the
//    circle with e^n v_r0 and the flight after it lasts 2 l e v_r,n / (v_t^2 + e^2 v_r,n^2); with e < 1
//    the hits accumulate (Zeno) at a finite time, after which the mass slides round the circle taut.
//  - the drop with rebounds (g > 0, 0 < e < 1): each rebound flies a parabola back to the circle (the first
//    root of a cubic, solved to round-off), the flights shrink by about e each and the hits accumulate at
//    a finite time; from there the mass is on the circle with its tangential velocity and swings.
// Each swing is the pendulum's exact libration, sin(theta/2) = k sn(sqrt(g/l) (t - t_a) + u_a, k)
// (Jacobi's elliptic functions, Boost.Math), valid while |theta| < 90 degrees keeps the string taut.

#include <optional>

#include "core/switching.hpp"
#include "models/planar_pendulum/mechanics.hpp"

namespace tb::planar_pendulum {

// The closed form of the case (p, ic), where it is a drop from rest or a whirl from the bottom
// with 2 g l < v0^2 < 4 g l, with e = 0 (a snap followed by a swing), a drop from rest with 0 < e < 1
// (hits that accumulate, then a swing), or a flight in free space (g = 0) with any e; nullopt otherwise.
std::optional<SwitchingClosedForm> unilateral_closed_form(const Parameters& p, const InitialCondition& ic);

// The pendulum's libration from (theta_a, omega_a) after a time tau (seconds): [theta, omega];
// nullopt where the motion is not a libration (k >= 1).
std::optional<Eigen::Vector2d> libration(const Parameters& p, double theta_a, double omega_a, double tau);

}  // namespace tb::planar_pendulum
