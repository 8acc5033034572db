#pragma once
// Static equilibrium of the discretised hanging tether: Newton's method on the free node
// positions for the force balance static_forces(r) = 0 (elastic forces + gravity loads), with
// the analytic tangent stiffness (block-tridiagonal, solved in O(N) by the block Thomas
// algorithm) and a backtracking line search on |f|. The mass matrix plays no part, so this is
// the state damped dynamics of the same discretisation settle to.

#include <vector>

#include "models/hanging_tether/mechanics.hpp"

namespace tb::hanging_tether {

struct StaticSolution {
  std::vector<Vec3> r;          // nodes r_0 = A ... r_N = B
  int iterations = 0;           // Newton iterations taken
  double residual_inf = 0.0;    // max |static_forces| at the solution (N)
  double last_step_inf = 0.0;   // max |dr| of the last Newton correction (m)
};

// Starts from parabola_shape with every element stretched by the strain 1e-4 + mu g L/(2 EA)
// (a rough mean strain), so the first tangent stiffness is positive definite. Converged when a
// full Newton step moves no node by more than 1e-12 L (or by less than 1e-9 L without
// contracting any further: round-off of very stiff tethers); throws std::runtime_error when the
// stiffness is singular or 50 iterations do not converge.
StaticSolution solve_static_equilibrium(const Mechanics& mech);
// The same from a given starting shape r[0..N] (r[0] = A, r[N] = B).
StaticSolution solve_static_equilibrium(const Mechanics& mech, std::vector<Vec3> start);

}  // namespace tb::hanging_tether
