#pragma once
// What a string hanging from the origin with a rigid body at its end reports, in one place for
// every model built that way (Model A's string pendulum, Model B's reel pendulum), so the two
// are measured by the same formulas (SPEC "Metrics").

#include <cmath>
#include <limits>
#include <vector>

#include "core/formulation.hpp"
#include "numerics/lie_group.hpp"

namespace tb {

// The stretched length of the string: the sum of its element chords |x_{a+1} - x_a| over the
// nodes x_0 (the pivot) .. x_N.
inline double stretched_length(const std::vector<Vec3>& nodes, int N) {
  double len = 0.0;
  for (int a = 1; a <= N; ++a) len += (nodes[a] - nodes[a - 1]).norm();
  return len;
}

// The body's tilt off the string (degrees): the angle between the attachment-to-centre-of-mass
// vector R rho_c and the last element's direction x_N - x_{N-1}. A body hanging in line with its
// string reads 0; past 90 it has gone over its attachment point, which is what seed 002 calls
// tumbling ("the rigid body starts to tumble at t = 7 seconds"; judged on this column,
// reference/paper_claims.csv). NaN when rho_c = 0 (no direction to tilt).
inline double body_tilt_deg(const Mat3& R, const Vec3& rho_c, const Vec3& last_element) {
  const Vec3 a = R * rho_c;
  const double na = a.norm(), nb = last_element.norm();
  if (!(na > 0.0 && nb > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return std::atan2(a.cross(last_element).norm(), a.dot(last_element)) * 180.0 / M_PI;
}

// The observation's common part: kinetic and total energy, the momentum map about e3 (pi3), and
// the body's attitude R off SO(3). The model adds its own columns and work terms.
inline Observation string_body_observation(double kinetic, double potential, double momentum_e3, const Mat3& R) {
  Observation o;
  o.kinetic = kinetic;
  o.energy = o.kinetic + potential;
  o.momentum = momentum_e3;
  o.orthogonality_err = so3::orthogonality_error(R);
  return o;
}

}  // namespace tb
