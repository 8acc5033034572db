#pragma once
// A rigid body's rotation in natural coordinates, for the constrained mechanical formulation
// (core/formulation.hpp, ConstrainedMechanicalFormulation): R as 9 numbers (row-major),
// velocity R' as 9 numbers, shared by every model with a rigid body in that form.
//
// Kinetic energy. With R' = R hat(Omega), 1/2 Omega.J Omega = 1/2 tr(R' J_d R'^T) with the
// non-standard inertia J_d = 1/2 tr(J) I - J (Lee-Leok-McClamroch; HLW VII.5 eq. (5.2)), a
// CONSTANT quadratic form in R': on the row-major 9-vector, M_R = I3 (x) J_d (row i of R'
// times J_d). J_d is positive semi-definite, singular for a flat body (J3 = J1 + J2), but M_R
// is positive definite on the tangent space {R hat(xi)} of SO(3) (there it is xi.J xi), which is
// all the saddle-point system below needs: it is never inverted alone.
//
// Constraints. The six independent entries of R^T R - I: with c_a the columns of R,
//   g = (c_0.c_0 - 1, c_1.c_1 - 1, c_2.c_2 - 1, c_0.c_1, c_0.c_2, c_1.c_2),
//   G(R) dR = (2 c_0.dc_0, 2 c_1.dc_1, 2 c_2.dc_2, dc_0.c_1 + c_0.dc_1, dc_0.c_2 + c_0.dc_2, dc_1.c_2 + c_1.dc_2),
//   G(R)^T lambda = R L(lambda),  L symmetric with L_aa = 2 lambda_aa, L_ab = lambda_ab (a != b),
// since sum lambda_i (G dR)_i = tr(dR^T R L) = <dR, R L>_F.
//
// The body's block of the saddle-point system [M_R, G(R_b)^T; G(R_a), 0] [X; lambda] = [Y; s]
// is solved per body in O(1): where J_d is invertible (every body but a flat one) by
// eliminating X = (Y - R_b L(lambda)) J_d^{-1} and the 6x6 Schur complement
// G(R_a)(R_b L(.) J_d^{-1}) lambda = G(R_a)(Y J_d^{-1}) - s; for a flat body by a partial-pivot
// LU of the whole 15 x 15 block (measured on Model C: the Schur form costs a fifth of it).

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

#include "numerics/lie_group.hpp"

namespace tb {

using Vec6 = Eigen::Matrix<double, 6, 1>;

class NaturalRigidBody {
 public:
  // J: inertia about the centre of mass (or the point the model rotates about), body frame.
  explicit NaturalRigidBody(const Mat3& J);
  // Whether J is positive definite (else the form does not exist): "" or the reason.
  static std::string why_not(const Mat3& J);
  const Mat3& nonstandard_inertia() const { return Jd_; }

  static Mat3 read(const Eigen::VectorXd& y, int offset);  // 9 numbers, row-major
  static void write(const Mat3& A, Eigen::VectorXd& y, int offset);

  double kinetic_energy(const Mat3& Rdot) const { return 0.5 * (Rdot * Jd_ * Rdot.transpose()).trace(); }
  Mat3 mass_times(const Mat3& Rdot) const { return Rdot * Jd_; }
  // M_R as entries at (offset, offset) of a matrix.
  void mass_entries(int offset, std::vector<Eigen::Triplet<double>>& entries) const;

  static Vec6 constraint(const Mat3& R);
  static Vec6 jacobian_times(const Mat3& R, const Mat3& dR);
  static Mat3 jacobian_transpose_times(const Mat3& R, const Vec6& lambda);
  // G(R) as entries: rows row0..row0+5, columns offset..offset+8.
  static void jacobian_entries(const Mat3& R, int row0, int offset, std::vector<Eigen::Triplet<double>>& entries);
  // d(G(R)^T lambda)/dR = d(R L(lambda))/dR as entries at (offset, offset): linear in R, so
  // independent of it: (dR L)_ij = sum_k dR_ik L_kj, entry (3i + j, 3i + k) = L_kj.
  static void constraint_force_jacobian_entries(const Vec6& lambda, int offset, std::vector<Eigen::Triplet<double>>& entries);

  // Body angular velocity of a velocity R': vee of the skew part of R^T R' (exact on the
  // constraint manifold, where R^T R' is skew).
  static Vec3 angular_velocity(const Mat3& R, const Mat3& Rdot);

  // The body's block of the saddle-point system (see above).
  class Solver {
   public:
    // Out of line: constructing the LUs instantiates Eigen's fixed-size PartialPivLU, which an
    // inline constructor made every file that includes this header compile (+2.5 s each, issue 43).
    explicit Solver(const NaturalRigidBody& body);
    bool factor(const Mat3& R_a, const Mat3& R_b);
    void solve(const Mat3& Y, const Vec6& s, Mat3& X, Vec6& lambda) const;

   private:
    const NaturalRigidBody* body_;
    Mat3 R_a_ = Mat3::Identity(), R_b_ = Mat3::Identity();
    Eigen::PartialPivLU<Eigen::Matrix<double, 6, 6>> schur_;  // J_d invertible
    Eigen::PartialPivLU<Eigen::Matrix<double, 15, 15>> lu_;   // flat body
  };

 private:
  Mat3 Jd_, Jd_inverse_;
  bool Jd_invertible_ = false;
};

}  // namespace tb
