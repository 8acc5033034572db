#pragma once
// What a string hanging from the origin with a rigid body at its end reports, in one place for
// every model built that way (Model A's string pendulum, Model B's reel pendulum), so the two
// are measured by the same formulas (SPEC "Metrics").

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
