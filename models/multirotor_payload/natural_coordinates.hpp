#pragma once
// Model C in natural coordinates: the one home of what the index-1 DAE (dae_form.cpp) and the
// constrained mechanical form (constrained_form.cpp, for RATTLE) share. Every cable joint
// J_j^a is a point in R^3 (j = 0 the payload, shared by every cable; j = n multirotor a), each
// multirotor's attitude R_a is 9 numbers. The joint mass matrix M_J and the constant joint
// forces phi are Mechanics'; here: the conversions between the physical state and joints, the
// link constraints and their derivatives.
//
// Link j of cable a: d_j = J_j - J_{j-1},
//   C_j = (|d_j|^2 - l^2)/2,   dC_j/dJ_j = d_j^T = -dC_j/dJ_{j-1},   (d/dt G) V = |DV_j|^2,
// with DV_j = V_j - V_{j-1}; d(G^T lambda)/dJ is lambda_j (+I on J_j, -I on J_{j-1}) in each
// link's 2x2 joint block (the tangent matrix generalized-alpha will need).

#include <vector>

#include "models/multirotor_payload/mechanics.hpp"

namespace tb::multirotor_payload {

// Joint positions and velocities per cable, J[a][j] and V[a][j] for j = 0..n (J[a][0] = X_p).
struct Joints {
  std::vector<std::vector<Vec3>> J, V;
};

inline double link_constraint(const Vec3& d, double l) { return 0.5 * (d.squaredNorm() - l * l); }

// The joints of a physical state: J_j = X_p + l (q_1 + ... + q_j), V_j = V_p + l sum omega_i x q_i.
Joints joints_of(const Mechanics& mech, const State& s);
// The physical state's cable part from joints: q_i = d_i / l, NOT normalised (so that the
// link-length drift shows in |q_i| - 1), omega_i from q_i and qdot_i = DV_i / l
// (Mechanics::link_angular_velocity: q_i x qdot_i, with unilateral links its stretching rate too); X_p,
// V_p from joint 0. R and Omega are left to the caller (s.R, s.Omega sized m).
void cable_state_from_joints(const Mechanics& mech, const Joints& joints, State& s);
// max over links of |d/dt |d_i|| / l = |d_i . DV_i| / (|d_i| l) (1/s): the rate of the relative
// link-length error, the forms' constraint_rate_err. With unilateral links only a link at its
// length (within kLinkAtLength) that opens beyond it violates the constraint: the outward rate
// there, max(0, d_i . DV_i) / (|d_i| l) (a slack link moves either way freely).
double link_length_rate_error(const Mechanics& mech, const Joints& joints);
// A unilateral link within this fraction of its length counts as at it (a method's drift of a taut
// link stays inside; the observer's and the hybrid form's tolerance).
inline constexpr double kLinkAtLength = 1e-6;

}  // namespace tb::multirotor_payload
