#pragma once
// Periods of the slowest oscillations of the bundled models, estimated from their physics for
// Model::declare_slowest_period (the long-time growth laws leave three of them out as the start-up).
// Each estimate errs long where it is not exact: a window started late loses a little data, a
// window started early fits the start-up and names a wrong law.

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

// A string of mass m_s and length l hanging from a fixed pivot with a rigid body of mass M
// whose centre of mass is `offset` beyond the string's end and whose largest principal moment
// about its centre of mass is J_c, treated as one rigid pendulum (the string's swing is its
// slowest mode; its elastic and transverse modes are faster), from rest at theta0.
double string_with_body(double m_s, double l, double M, double offset, double J_c, double g, double theta0);

// The period of the body-frame angular velocity of a torque-free rigid body of inertia J
// spinning at body rate Omega (Euler's equations; Landau & Lifshitz, Mechanics, Sect. 37:
// T = 4 K(k) / lambda, the symmetric top's 2 pi / lambda when k = 0). A steady spin about the
// major or minor axis gets the period of the motions near it (the limit k -> 0); a spin on the
// separatrix (about the intermediate axis) has none: NaN, as for Omega = 0.
double euler_equations_period(const Mat3& J, const Vec3& Omega);
// The slowest period of that body: the longer of euler_equations_period and the spin's
// 2 pi / |Omega| (the attitude's own turn). NaN when Omega = 0.
double free_rigid_body(const Mat3& J, const Vec3& Omega);

// The angle (rad) between a direction and gravity's, e3 pointing down (SPEC): the amplitude of
// a pendulum released along it.
double angle_from_vertical(const Vec3& direction);

}  // namespace tb::periods

namespace tb::periods {
// The slowest swing of a cable of mass mu per length and length L hanging between two points a
// chord `span` apart: the longer of the taut-string estimate of its first out-of-plane mode,
// 2 span sqrt(mu / H) with the parabolic sag d = sqrt(3 span (L - span) / 8) and horizontal
// tension H = mu g span^2 / (8 d) (Irvine, Cable Structures, Ch. 3), and a pendulum of the sag's
// length, 2 pi sqrt(d / g). NaN for a cable not longer than the chord or without gravity.
double sagging_cable(double mu, double L, double span, double g);
}  // namespace tb::periods
