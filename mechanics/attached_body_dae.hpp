#pragma once
// A rigid body in natural coordinates hanging from the end node of a string, as it appears in
// the index-1 DAE forms of Models A and B (SPEC "Formulations"; seed 004 §2 "Modelling the
// Rotation Dynamics", §3 "Baumgarte Stabilisation"). The body is a free body: centre of mass
// x_c, its velocity w, attitude R as 9 numbers (not held on SO(3)) and body angular velocity
// Omega; the coupling is the holonomic constraint
//   C = r_end - (x_c - R rho_c) = 0           (rho_c: attachment point -> centre of mass)
// with multipliers lambda (algebraic components). The models own their strings; this owns the
// body's rows of F(t, y, y') = 0, their Jacobian, and the constraint bookkeeping, so the two
// models share one derivation.
//
// Body block of the state, at offset `body` (21 entries):
//   [x_c (3), w (3), lambda (3), R (9, row-major), Omega (3)]
// The string's end node r_end sits at offset `end_node`, its velocity v_end at end_node + 3;
// the v_end rows of F are the string model's and receive + lambda here.
//
// Equations (L = T - V - lambda^T C, seed 004 §2 "Finally! The equations of motion"):
//   x_c:     x_c' - w
//   w:       M w' - M g e3 - lambda                              (dC/dx_c = -I)
//   lambda:  C'' + 2p C' + p^2 C                                 (seed 004 §3: eig = -p, double)
//            C'  = v_end - w + R hat(Omega) rho_c
//            C'' = v_end' - w' + R hat(Omega') rho_c + R hat(Omega)^2 rho_c
//   R:       R' - R (hat(Omega) + Xi),  Xi = gamma/2 ((R^T R)^{-1} - I)    (seed 004 §3)
//   Omega:   J_cm Omega' + Omega x J_cm Omega + rho_c x (R^T lambda)
//   v_end:   (string rows) + lambda                              (dC/dr_end = I)
// The torque term is 2 P(d(lambda^T C)/dR) with the slide's projection P(A) = U(R^T A):
// d(lambda^T R rho_c)/dR = lambda rho_c^T and 2 U(R^T lambda rho_c^T) = rho_c x R^T lambda. It is
// the moment about the centre of mass of the string's pull +lambda applied at -rho_c. The
// weight acts at x_c and exerts no moment there.
// C' and C'' are taken along the rigid-body kinematics R' = R hat(Omega): Xi vanishes on SO(3)
// and is O(gamma |R^T R - I|) off it, a numerical correction rather than a physical velocity;
// the mismatch drives C by O(gamma |R^T R - I|), far below the drift that p controls.

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <vector>

#include "core/formulation.hpp"
#include "numerics/lie_group.hpp"

namespace tb::dae {

// SPEC conventions: J (about the attachment point) = J_cm + M(|rho_c|^2 I - rho_c rho_c^T).
Mat3 inertia_about_centre_of_mass(double M, const Vec3& rho_c, const Mat3& J_attachment);

// Orthonormality correction Xi = gamma/2 ((R^T R)^{-1} - I) (seed 004 §3).
Mat3 orthonormality_correction(const Mat3& R, double gamma);

Mat3 read_matrix(const Eigen::VectorXd& y, int offset);            // 9 numbers, row-major
void write_matrix(const Mat3& R, int offset, Eigen::VectorXd& y);

void add_block(std::vector<Eigen::Triplet<double>>& out, int row, int col, const Mat3& B);
void add_diagonal(std::vector<Eigen::Triplet<double>>& out, int row, int col, double value, int n = 3);

struct AttachedBody {
  double M = 0.0;             // body mass
  double g = 9.81;            // gravity along +e3
  Vec3 rho_c = Vec3::Zero();  // attachment point -> centre of mass, body frame
  Mat3 J_cm = Mat3::Zero();   // inertia about the centre of mass, body frame
  int end_node = 0;           // offset of r_end in the state (v_end at +3)
  int body = 0;               // offset of the body block

  static constexpr int size = 21;
  int x() const { return body; }
  int w() const { return body + 3; }
  int lambda() const { return body + 6; }
  int R() const { return body + 9; }
  int Omega() const { return body + 18; }

  // Writes the body's 21 rows of F and adds lambda to the v_end rows (which the string model
  // must have written first).
  void residual(const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                Eigen::VectorXd& F) const;
  // dF/dy + cj dF/dy' of the same rows and of the + lambda term, appended to `out`.
  void jacobian(const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj, const BaumgarteParameters& b,
                std::vector<Eigen::Triplet<double>>& out) const;

  // Consistent body entries of y0 and y0' from the attachment point's state at t0 (r_end,
  // v_end, its acceleration a_end) and R, Omega, Omega': the centre of mass so that C = C' = 0,
  // w' so that C'' = 0, lambda from the w row. The string model fills its own entries.
  void initial_values(const Vec3& r_end, const Vec3& v_end, const Vec3& a_end, const Mat3& R, const Vec3& Omega,
                      const Vec3& Omega_dot, const BaumgarteParameters& b, Eigen::VectorXd& y,
                      Eigen::VectorXd& yp) const;

  // The body's attachment point x_c - R rho_c and its velocity w - R (Omega x rho_c): the
  // physical end of the string (equal to r_end up to the drift C).
  Vec3 attachment_position(const Eigen::VectorXd& y) const;
  Vec3 attachment_velocity(const Eigen::VectorXd& y) const;
  Mat3 attitude(const Eigen::VectorXd& y) const { return read_matrix(y, R()); }
  Vec3 angular_velocity(const Eigen::VectorXd& y) const { return y.segment<3>(Omega()); }

  double constraint_error(const Eigen::VectorXd& y) const;       // |C|
  double constraint_rate_error(const Eigen::VectorXd& y) const;  // |C'|
};

}  // namespace tb::dae
