#pragma once
// The analytic derivatives of Model B's string-and-reel equations of motion (Mechanics)
//   A(s, q) z = h(s, q, sdot, v),   z = (v_2'..v_{N+1}', sdot'),
// shared by every formulation that linearises them (the index-1 DAE form's iteration matrix, the
// constrained mechanical form's tangents, the Lie group tangents): the derivative of the
// momentum rate A(s, q) z at fixed z, and of the right-hand side h (Mechanics::string_reel_forces:
// -dV/dq, the velocity terms of the configuration-dependent A, and on s the Carnot and control
// forces Q + u/d, dT/ds - dV/ds and the momentum rates), term by term.
//
// Entries are written in the string-and-reel index space, the layout of A and h: index
// 3 (j - 2) + i is component i of node j (j = 2..N+1), index 3N is the reel (s for position
// columns, sdot for velocity columns, the reel equation for rows). Callers place them in their
// own layout. With the reel locked, s and sdot are parameters (no reel row or column): only the
// string's elastic stiffness remains.
//
// Notation as in Mechanics: l = (L - s)/N (dl/ds = -1/N), element a joins q_a and q_{a+1},
// x_a = q_{a+1} - q_a, tension F_a = EA (1/l - 1/|x_a|) x_a, e_a = q_a - q_{a+1}, border
// b_j = mu c23(j-1) e_{j-1} + mu c31(j) e_j, corner c(s) = mu s + kappa_d + mu l sum m3.
// Tension-only (Parameters::tension_only): a slack element's strain terms (its tension, stiffness,
// and its part of dV/ds and of their derivatives) are absent, as in Mechanics.
// tests/test_reel_pendulum_derivatives.cpp checks every entry against central differences of
// A(s, q) z and of h.

#include <Eigen/SparseCore>
#include <vector>

#include "models/reel_pendulum/mechanics.hpp"

namespace tb::reel_pendulum {

// Derivatives of the Carnot loss Q(s, q_2, sdot) = -1/2 (mu sdot^2 + EA) eps^2, eps = |q_2|/l - 1
// (paper (21)); 0 where the guide way's element is slack and tension-only (Mechanics::carnot_force).
struct CarnotGradient {
  double ds = 0.0;
  Vec3 dq2 = Vec3::Zero();
  double dsdot = 0.0;
};

class StringReelTangents {
 public:
  using Triplet = Eigen::Triplet<double>;
  explicit StringReelTangents(const Mechanics& mech) : mech_(mech) {}
  int size() const { return 3 * mech_.params().N + (mech_.params().reel_locked ? 0 : 1); }
  int reel() const { return 3 * mech_.params().N; }

  // d(A(s, q) z)/d(q, s) at fixed z (3N + 1 entries; z's reel entry sddot): appended to out. None
  // with the reel locked (A is constant then).
  void mass_times_jacobian(const State& st, const Eigen::VectorXd& z, std::vector<Triplet>& out) const;
  // dh/d(q, s) into dh_dx and dh/d(v, sdot) into dh_dxdot, appended.
  void force_jacobian(const State& st, std::vector<Triplet>& dh_dx, std::vector<Triplet>& dh_dxdot) const;
  CarnotGradient carnot_gradient(const State& st) const;

 private:
  const Mechanics& mech_;
};

}  // namespace tb::reel_pendulum
