#pragma once
// The textbook planar pendulum of seed 004 ("Example: Pendulum", "Pendulum in Cartesian
// Coordinates"): a point mass m on a massless rigid rod of length l from a fixed pivot at
// the origin, moving in the e1-e3 plane with gravity g along +e3 (down, SPEC "Conventions").
// The angle theta is measured from the downward vertical towards +e1:
//   x = l sin(theta), z = l cos(theta),  T = 1/2 m l^2 theta'^2,  V = -m g z.
// What both formulations share: parameters, the physical state [x, z, vx, vz], observables.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "core/formulation.hpp"

namespace tb::planar_pendulum {

struct Parameters {
  double m = 1.0;  // kg
  double l = 1.0;  // m
  double g = 9.81; // m/s^2
  // Issue 48: the rod as a unilateral link, an inextensible string: |r| <= l, its tension >= 0,
  // and Newton's impact law with restitution e where it snaps taut (unilateral.hpp).
  bool unilateral = false;
  double restitution = 0.0;
  // The unilateral link's penalty regularisation (issue 48's "no events" baseline, unilateral.hpp
  // PenaltyLink): the spring's stiffness k (N/m); 0 takes the default, m (100 / T)^2 with T the
  // motion's time scale (motion_time_scale), a contact frequency 100 times the motion's.
  double penalty_stiffness = 0.0;
};

struct InitialCondition {
  double theta = 0.0;  // rad, from the downward vertical towards +e1
  double omega = 0.0;  // theta' (rad/s)
  // A unilateral link only: the physical start [x, z, vx, vz] given in Cartesian coordinates,
  // anywhere in the disc |r| <= l (theta, omega then unused).
  std::optional<Eigen::Vector4d> cartesian;
};

// The physical start [x, z, vx, vz] of an initial condition.
Eigen::Vector4d initial_physical(const Parameters& p, const InitialCondition& ic);

// The pendulum as a constrained mechanical system in natural (Cartesian) coordinates r = (x, z),
// the one home of the pieces that the Cartesian index-1 DAE and the constrained mechanical
// form (RATTLE) both use (seed 004 "Pendulum in Cartesian Coordinates"):
//   M = m I2,   f = m g e_z,   g(r) = (|r|^2 - l^2)/2,   G(r) = dg/dr = r^T,
//   (d/dt G) v = |v|^2 (the curvature term of g'' = G a + |v|^2),
//   d(G^T lambda)/dr = lambda I2 (the constraint force's tangent matrix: the DAE's Jacobian,
//   and generalized-alpha's iteration matrix).
struct NaturalCoordinates {
  explicit NaturalCoordinates(const Parameters& p) : p(p) {}
  Parameters p;
  double mass() const { return p.m; }
  Eigen::Vector2d force() const { return {0.0, p.m * p.g}; }
  double constraint(const Eigen::Vector2d& r) const { return 0.5 * (r.squaredNorm() - p.l * p.l); }
  double constraint_scale() const { return p.l * p.l; }
  Eigen::Vector2d constraint_gradient(const Eigen::Vector2d& r) const { return r; }
  double constraint_curvature(const Eigen::Vector2d& v) const { return v.squaredNorm(); }
  double constraint_force_tangent(double lambda) const { return lambda; }  // times I2
};

// [x, z, vx, vz] of the polar state (theta, omega).
Eigen::Vector4d physical_from_polar(const Parameters& p, double theta, double omega);

// Observables of a physical state [x, z, vx, vz] with the rod tension (N) given by the form:
//   energy E = 1/2 m |v|^2 - m g z,
//   constraint_err = | |r| - l |  (m): the rod-length error,
//   constraint_rate_err = | d|r|/dt | = |r.v| / |r|  (m/s): its rate (the radial velocity).
// The DAE's constraint C = (|r|^2 - l^2)/2 of seed 004 is (|r| - l)(|r| + l)/2; the length
// form is reported so that the numbers read as metres and metres per second.
//   momentum = m (z vx - x vz) (N m s): the angular momentum about the pivot, normal to the plane,
//   the Noether momentum of rotations of the plane about the pivot. The string's pull (taut, or
//   as an impulse at a snap) is radial and has no moment about the pivot; gravity has one, so
//   only a model without gravity (g = 0) declares the momentum map (model.cpp, unilateral_model.cpp),
//   and with gravity the momentum reported is 0, as for every model without a map (core/model.hpp).
// Extra columns: x, z, vx, vz, tension.
Observation observe(const Parameters& p, const Eigen::Vector4d& s, double tension);
std::vector<std::string> extra_column_names();

}  // namespace tb::planar_pendulum
