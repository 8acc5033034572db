// The O(N) block-tridiagonal solver against a dense solve of the same matrix.

#include <catch2/catch.hpp>
#include <random>

#include "numerics/block_tridiagonal.hpp"

using tb::BlockTridiagonal3;

namespace {

Eigen::MatrixXd dense(const BlockTridiagonal3& A) {
  const int n = A.blocks();
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  for (int i = 0; i < n; ++i) {
    D.block<3, 3>(3 * i, 3 * i) = A.diag(i);
    if (i > 0) D.block<3, 3>(3 * i, 3 * (i - 1)) = A.lower(i);
    if (i + 1 < n) D.block<3, 3>(3 * i, 3 * (i + 1)) = A.upper(i);
  }
  return D;
}

BlockTridiagonal3 random_dominant(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  auto block = [&] { return Eigen::Matrix3d::NullaryExpr([&](Eigen::Index, Eigen::Index) { return U(rng); }).eval(); };
  BlockTridiagonal3 A(n);
  for (int i = 0; i < n; ++i) {
    A.diag(i) = block() + 8.0 * Eigen::Matrix3d::Identity();  // non-symmetric, diagonally dominant
    if (i > 0) A.lower(i) = block();
    if (i + 1 < n) A.upper(i) = block();
  }
  return A;
}

}  // namespace

TEST_CASE("block-tridiagonal solve equals the dense solve", "[linear-algebra]") {
  std::mt19937 rng(7);
  for (int n : {1, 2, 3, 10, 57}) {
    BlockTridiagonal3 A = random_dominant(n, rng);
    Eigen::VectorXd b = Eigen::VectorXd::Random(3 * n);
    const Eigen::VectorXd expected = dense(A).partialPivLu().solve(b);
    REQUIRE(A.factor());
    Eigen::VectorXd x = b;
    A.solve_in_place(x);
    CHECK((x - expected).norm() <= 1e-12 * expected.norm());
    CHECK((A.multiply(x) - b).norm() <= 1e-12 * b.norm());
  }
}

TEST_CASE("multiply agrees with the dense matrix", "[linear-algebra]") {
  std::mt19937 rng(3);
  BlockTridiagonal3 A = random_dominant(6, rng);
  const Eigen::VectorXd x = Eigen::VectorXd::Random(18);
  CHECK((A.multiply(x) - dense(A) * x).norm() <= 1e-13 * x.norm());
}

TEST_CASE("a singular pivot block is reported, not turned into NaNs", "[linear-algebra]") {
  BlockTridiagonal3 A(3);
  for (int i = 0; i < 3; ++i) A.diag(i) = Eigen::Matrix3d::Identity();
  A.diag(1).setZero();
  CHECK_FALSE(A.factor());
}
