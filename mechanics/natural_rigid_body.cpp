// A rigid body's rotation in natural coordinates (see natural_rigid_body.hpp).

#include "mechanics/natural_rigid_body.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCore>
#include <stdexcept>

#include "core/format.hpp"

namespace tb {

namespace {
// The constraint pairs (a, b) of R^T R - I in the order of g.
constexpr int kPairA[6] = {0, 1, 2, 0, 0, 1};
constexpr int kPairB[6] = {0, 1, 2, 1, 2, 2};

Mat3 multiplier_matrix(const Vec6& lambda) {
  Mat3 L;
  for (int k = 0; k < 6; ++k) {
    const int a = kPairA[k], b = kPairB[k];
    if (a == b) L(a, a) = 2.0 * lambda(k);
    else L(a, b) = L(b, a) = lambda(k);
  }
  return L;
}
}  // namespace

std::string NaturalRigidBody::why_not(const Mat3& J) {
  const double smallest = Eigen::SelfAdjointEigenSolver<Mat3>(0.5 * (J + J.transpose())).eigenvalues().minCoeff();
  if (smallest > 1e-12 * J.norm()) return "";
  return "the body's inertia is not positive definite (smallest eigenvalue " + format_g(smallest, 3) +
         "): its rotation has no mass matrix in natural coordinates";
}

NaturalRigidBody::NaturalRigidBody(const Mat3& J) : Jd_(so3::nonstandard_inertia(J)) {
  if (const std::string why = why_not(J); !why.empty()) throw std::invalid_argument(why);
  // J_d's eigenvalues are (J2 + J3 - J1)/2 etc.: invertible unless the body is flat (or nearly).
  const double smallest = Eigen::SelfAdjointEigenSolver<Mat3>(Jd_).eigenvalues().minCoeff();
  Jd_invertible_ = smallest > 1e-8 * Jd_.norm();
  Jd_inverse_ = Jd_invertible_ ? Mat3(Jd_.inverse()) : Mat3::Zero();  // 3x3: closed form
}

Mat3 NaturalRigidBody::read(const Eigen::VectorXd& y, int offset) {
  Mat3 A;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A(i, j) = y(offset + 3 * i + j);
  return A;
}

void NaturalRigidBody::write(const Mat3& A, Eigen::VectorXd& y, int offset) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) y(offset + 3 * i + j) = A(i, j);
}

void NaturalRigidBody::mass_entries(int offset, std::vector<Eigen::Triplet<double>>& entries) const {
  // (R' J_d)_ij = sum_k R'_ik Jd_kj: entry (3i + j, 3i + k) = Jd_kj.
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) entries.emplace_back(offset + 3 * i + j, offset + 3 * i + k, Jd_(k, j));
}

Vec6 NaturalRigidBody::constraint(const Mat3& R) {
  const Mat3 A = R.transpose() * R - Mat3::Identity();
  Vec6 g;
  for (int k = 0; k < 6; ++k) g(k) = A(kPairA[k], kPairB[k]);
  return g;
}

Vec6 NaturalRigidBody::jacobian_times(const Mat3& R, const Mat3& dR) {
  const Mat3 A = dR.transpose() * R;  // A_ab = dc_a . c_b
  Vec6 out;
  for (int k = 0; k < 6; ++k) out(k) = A(kPairA[k], kPairB[k]) + A(kPairB[k], kPairA[k]);
  return out;
}

Mat3 NaturalRigidBody::jacobian_transpose_times(const Mat3& R, const Vec6& lambda) { return R * multiplier_matrix(lambda); }

void NaturalRigidBody::jacobian_entries(const Mat3& R, int row0, int offset, std::vector<Eigen::Triplet<double>>& entries) {
  // d g_k / d R_ij = (column i, row j of R^T R...): from G dR = <dR, R L(e_k)>_F.
  for (int k = 0; k < 6; ++k) {
    Vec6 e = Vec6::Zero();
    e(k) = 1.0;
    const Mat3 D = jacobian_transpose_times(R, e);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (D(i, j) != 0.0) entries.emplace_back(row0 + k, offset + 3 * i + j, D(i, j));
  }
}

void NaturalRigidBody::constraint_force_jacobian_entries(const Vec6& lambda, int offset,
                                                         std::vector<Eigen::Triplet<double>>& entries) {
  const Mat3 L = multiplier_matrix(lambda);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) entries.emplace_back(offset + 3 * i + j, offset + 3 * i + k, L(k, j));
}

Vec3 NaturalRigidBody::angular_velocity(const Mat3& R, const Mat3& Rdot) {
  const Mat3 W = R.transpose() * Rdot;
  return so3::vee(0.5 * (W - W.transpose()));
}

NaturalRigidBody::Solver::Solver(const NaturalRigidBody& body)
    : body_(&body), schur_(Eigen::Matrix<double, 6, 6>::Identity()), lu_(Eigen::Matrix<double, 15, 15>::Identity()) {}

bool NaturalRigidBody::Solver::factor(const Mat3& R_a, const Mat3& R_b) {
  if (body_->Jd_invertible_) {
    R_a_ = R_a;
    R_b_ = R_b;
    Eigen::Matrix<double, 6, 6> S;
    for (int k = 0; k < 6; ++k) {
      Vec6 e = Vec6::Zero();
      e(k) = 1.0;
      S.col(k) = jacobian_times(R_a, R_b * multiplier_matrix(e) * body_->Jd_inverse_);
    }
    schur_.compute(S);
    const auto d = schur_.matrixLU().diagonal().cwiseAbs();
    return S.allFinite() && d.minCoeff() > 1e-13 * d.maxCoeff();
  }
  Eigen::Matrix<double, 15, 15> K = Eigen::Matrix<double, 15, 15>::Zero();
  for (int i = 0; i < 3; ++i) K.block<3, 3>(3 * i, 3 * i) = body_->Jd_.transpose();  // (R' J_d) row i = J_d^T (row i of R')
  for (int k = 0; k < 6; ++k) {
    Vec6 e = Vec6::Zero();
    e(k) = 1.0;
    const Mat3 Db = jacobian_transpose_times(R_b, e), Da = jacobian_transpose_times(R_a, e);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        K(3 * i + j, 9 + k) = Db(i, j);
        K(9 + k, 3 * i + j) = Da(i, j);
      }
  }
  lu_.compute(K);
  // PartialPivLU does not report singularity: check the pivots' spread.
  const auto d = lu_.matrixLU().diagonal().cwiseAbs();
  return K.allFinite() && d.minCoeff() > 1e-13 * d.maxCoeff();
}

void NaturalRigidBody::Solver::solve(const Mat3& Y, const Vec6& s, Mat3& X, Vec6& lambda) const {
  if (body_->Jd_invertible_) {
    const Mat3 Y_over = Y * body_->Jd_inverse_;
    lambda = schur_.solve(Vec6(jacobian_times(R_a_, Y_over) - s));
    X = Y_over - R_b_ * multiplier_matrix(lambda) * body_->Jd_inverse_;
    return;
  }
  Eigen::Matrix<double, 15, 1> rhs;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) rhs(3 * i + j) = Y(i, j);
  rhs.tail<6>() = s;
  const Eigen::Matrix<double, 15, 1> sol = lu_.solve(rhs);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) X(i, j) = sol(3 * i + j);
  lambda = sol.tail<6>();
}

}  // namespace tb
