// The O(N) bordered block-tridiagonal solver against a dense solve of the assembled matrix.

#include <catch2/catch.hpp>
#include <random>

#include "numerics/bordered_block_tridiagonal.hpp"

using tb::BorderedBlockTridiagonal3;

namespace {

Eigen::MatrixXd dense(const BorderedBlockTridiagonal3& A) {
  const int n = A.blocks();
  const tb::BlockTridiagonal3& T = A.core();
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(3 * n + 1, 3 * n + 1);
  for (int i = 0; i < n; ++i) {
    D.block<3, 3>(3 * i, 3 * i) = T.diag(i);
    if (i > 0) D.block<3, 3>(3 * i, 3 * (i - 1)) = T.lower(i);
    if (i + 1 < n) D.block<3, 3>(3 * i, 3 * (i + 1)) = T.upper(i);
  }
  D.col(3 * n).head(3 * n) = A.border_column();
  D.row(3 * n).head(3 * n) = A.border_row().transpose();
  D(3 * n, 3 * n) = A.corner();
  return D;
}

Eigen::VectorXd random_vector(int size, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  return Eigen::VectorXd::NullaryExpr(size, [&](Eigen::Index) { return U(rng); });
}

BorderedBlockTridiagonal3 random_dominant(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  auto block = [&] { return Eigen::Matrix3d::NullaryExpr([&](Eigen::Index, Eigen::Index) { return U(rng); }).eval(); };
  BorderedBlockTridiagonal3 A(n);
  for (int i = 0; i < n; ++i) {
    A.core().diag(i) = block() + 8.0 * Eigen::Matrix3d::Identity();  // non-symmetric, dominant
    if (i > 0) A.core().lower(i) = block();
    if (i + 1 < n) A.core().upper(i) = block();
  }
  A.border_column() = random_vector(3 * n, rng);
  A.border_row() = random_vector(3 * n, rng);
  A.corner() = 5.0 + U(rng);
  return A;
}

}  // namespace

TEST_CASE("bordered solve equals the dense solve", "[linear-algebra]") {
  std::mt19937 rng(11);
  for (int n : {1, 2, 5, 40}) {
    BorderedBlockTridiagonal3 A = random_dominant(n, rng);
    const Eigen::MatrixXd D = dense(A);
    const Eigen::VectorXd rhs = random_vector(3 * n + 1, rng);
    const Eigen::VectorXd expected = D.partialPivLu().solve(rhs);
    REQUIRE(A.factor());
    Eigen::VectorXd x = rhs;
    A.solve_in_place(x);
    CHECK((x - expected).norm() <= 1e-12 * expected.norm());
    CHECK((A.multiply(x) - rhs).norm() <= 1e-12 * rhs.norm());

    const Eigen::VectorXd v = random_vector(3 * n + 1, rng);
    CHECK((A.multiply(v) - D * v).norm() <= 1e-13 * (D * v).norm());

    // A second right-hand side reuses the same factorization.
    const Eigen::VectorXd rhs2 = random_vector(3 * n + 1, rng);
    Eigen::VectorXd x2 = rhs2;
    A.solve_in_place(x2);
    CHECK((x2 - D.partialPivLu().solve(rhs2)).norm() <= 1e-12 * x2.norm());
  }
}

TEST_CASE("symmetric positive definite bordered system (mass-matrix-like)", "[linear-algebra]") {
  // Consistent-mass-like T (diag 4/6, off-diagonal 1/6, times per-node 3x3 SPD weights kept
  // block-diagonal-dominant), symmetric border b == c and a corner large enough for SPD.
  std::mt19937 rng(5);
  const int n = 12;
  BorderedBlockTridiagonal3 A(n);
  for (int i = 0; i < n; ++i) {
    Eigen::Matrix3d G = Eigen::Matrix3d::NullaryExpr([&](Eigen::Index, Eigen::Index) {
      return std::uniform_real_distribution<double>(-0.3, 0.3)(rng);
    });
    A.core().diag(i) = (4.0 / 6.0) * Eigen::Matrix3d::Identity() + 0.1 * (G + G.transpose());
    if (i > 0) A.core().lower(i) = (1.0 / 6.0) * Eigen::Matrix3d::Identity();
    if (i + 1 < n) A.core().upper(i) = (1.0 / 6.0) * Eigen::Matrix3d::Identity();
  }
  const Eigen::VectorXd b = 0.1 * random_vector(3 * n, rng);
  A.border_column() = b;
  A.border_row() = b;
  A.corner() = 2.0;
  const Eigen::MatrixXd D = dense(A);
  REQUIRE((D - D.transpose()).norm() == 0.0);
  Eigen::LLT<Eigen::MatrixXd> llt(D);
  REQUIRE(llt.info() == Eigen::Success);  // the assembled matrix really is SPD

  REQUIRE(A.factor());
  CHECK(A.schur_complement() > 0.0);  // SPD implies a positive Schur complement
  const Eigen::VectorXd rhs = random_vector(3 * n + 1, rng);
  Eigen::VectorXd x = rhs;
  A.solve_in_place(x);
  const Eigen::VectorXd expected = llt.solve(rhs);
  CHECK((x - expected).norm() <= 1e-12 * expected.norm());
  CHECK((A.multiply(x) - rhs).norm() <= 1e-12 * rhs.norm());
}

TEST_CASE("a singular Schur complement is reported", "[linear-algebra]") {
  std::mt19937 rng(2);
  for (int n : {1, 2, 5, 40}) {
    BorderedBlockTridiagonal3 A = random_dominant(n, rng);
    // d = cᵀT⁻¹b makes the assembled matrix exactly singular (up to rounding).
    tb::BlockTridiagonal3 T = A.core();
    REQUIRE(T.factor());
    Eigen::VectorXd w = A.border_column();
    T.solve_in_place(w);
    A.corner() = A.border_row().dot(w);
    CHECK_FALSE(A.factor());
    CHECK_FALSE(A.factored());
  }
  // An all-zero border (no coupling, zero corner) is singular too.
  BorderedBlockTridiagonal3 Z(3);
  for (int i = 0; i < 3; ++i) Z.core().diag(i) = Eigen::Matrix3d::Identity();
  CHECK_FALSE(Z.factor());
}

TEST_CASE("a singular block of T is reported", "[linear-algebra]") {
  std::mt19937 rng(9);
  BorderedBlockTridiagonal3 A = random_dominant(4, rng);
  REQUIRE(A.factor());
  A.core().diag(2).row(1).setZero();
  A.core().lower(2).setZero();  // row 1 of block row 2 vanishes in T, so pivot S_2 is singular
  A.core().upper(2).row(1).setZero();
  CHECK_FALSE(A.factor());
  CHECK_FALSE(A.factored());
}
