#pragma once
// The rigid body hung on a string's end node (Model A's string pendulum, Model B's reel
// pendulum: the same body, SPEC "Model A" (31)) in the rate rows of their Lie group ODE forms,
// written in mass-matrix form r = M(g) vdot - F(g, v) (core/formulation.hpp,
// LieGroupOdeFormulation::rate_residual). In one place so the two models share one derivation.
//
// The body, with its attachment point on the end node x = q_{N+1} (velocity v), attitude R
// (R' = R hat(Omega)), mass M, inertia J about the attachment point and centre of mass at
// R rho_c from it, adds to the string's rows (seed 000's equations of motion):
//   attachment node row:  + M v' - M R hat(rho_c) Omega'  - (M g e3 - M R (Omega x (Omega x rho_c)))
//   Omega row:            M hat(rho_c) R^T v' + J Omega'  - (-Omega x J Omega + M g rho_c x (R^T e3))
// The mass terms are in the models' assembled mass matrices (their M entries); this piece gives
// the forces F (and the magnitudes of their terms, for the round-off floor S) and the tangents of
// all the body's terms along R exp(e hat(xi)) and Omega + e dOmega, with w = Omega x (Omega x rho_c):
//   d/dxi:      attachment row M R (hat(rho_c x Omega') - hat(w)),
//               Omega row M hat(rho_c) (hat(R^T v') - g hat(R^T e3));
//   d/dOmega:   attachment row -M R (hat(Omega x rho_c) + hat(Omega) hat(rho_c)),
//               Omega row hat(Omega) J - hat(J Omega).
// (d/dxi of R y is R hat(xi) y = -R hat(y) xi, and of R^T y is -hat(xi) R^T y = hat(R^T y) xi.)

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <vector>

#include "numerics/lie_group.hpp"

namespace tb {

struct EndBody {
  double M = 0.0;             // mass (kg)
  Vec3 rho_c = Vec3::Zero();  // attachment point -> centre of mass, body frame (m)
  Mat3 J = Mat3::Zero();      // inertia about the attachment point, body frame (kg m^2)
  double g = 9.81;            // gravity along +e3

  // F on the attachment node (M g e3 - M R w) and on the Omega row (-Omega x J Omega +
  // M g rho_c x R^T e3), and the magnitudes of their terms (componentwise, for S).
  void rate_forces(const Mat3& R, const Vec3& Omega, Vec3& F_node, Vec3& S_node, Vec3& F_omega,
                   Vec3& S_omega) const;
  // The K (trivialised R) and C (Omega) entries of the body's terms, at accelerations v' of the
  // attachment node and Omega', for the attachment node's rows/columns starting at node and the
  // Omega rows/columns (and R's algebra columns) starting at omega.
  void rate_tangent_entries(const Mat3& R, const Vec3& Omega, const Vec3& node_acc, const Vec3& omega_acc, int node,
                            int omega, std::vector<Eigen::Triplet<double>>& K,
                            std::vector<Eigen::Triplet<double>>& C) const;
};

}  // namespace tb
