#pragma once
// Closed-form periods: the pendulum's at large amplitude (Gauss) and the torque-free rigid body's
// (Euler's equations). The models' slowest periods are computed from their linearisation about
// rest (core/linear_modes.hpp); the free rigid body, which has no force and so no oscillation
// about rest, declares Euler's period instead, and the tests check linear periods against these.

#include "numerics/lie_group.hpp"

namespace tb::periods {

// The arithmetic-geometric mean of a, b > 0 (Gauss), to round-off.
double agm(double a, double b);

// A rigid pendulum of moment of inertia I about its pivot, mass m whose centre of mass is d
// below the pivot, in gravity g, swinging from rest at amplitude theta0 (rad):
// T = 2 pi sqrt(I / (m g d)) / agm(1, cos(theta0 / 2)) (the exact large-amplitude period of the
// simple pendulum, Gauss). theta0 is clamped to 170 degrees (the period diverges at 180).
// NaN when g, m or d is not positive (no restoring force: no period to declare).
double compound_pendulum(double I, double m, double d, double g, double theta0);

// The period of the body-frame angular velocity of a torque-free rigid body of inertia J
// spinning at body rate Omega (Euler's equations; Landau & Lifshitz, Mechanics, Sect. 37:
// T = 4 K(k) / lambda, the symmetric top's 2 pi / lambda when k = 0). A steady spin about the
// major or minor axis gets the period of the motions near it (the limit k -> 0); a spin on the
// separatrix (about the intermediate axis) has none: NaN, as for Omega = 0.
double euler_equations_period(const Mat3& J, const Vec3& Omega);
// The slowest period of that body: the longer of euler_equations_period and the spin's
// 2 pi / |Omega| (the attitude's own turn). NaN when Omega = 0.
double free_rigid_body(const Mat3& J, const Vec3& Omega);

}  // namespace tb::periods
