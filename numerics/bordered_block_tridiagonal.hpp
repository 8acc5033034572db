#pragma once
// A block-tridiagonal system with one extra "border" unknown coupled to every block:
//
//   [ T   b ] [x]   [r  ]
//   [ cᵀ  d ] [y] = [rho]
//
// T is a BlockTridiagonal3 (n blocks, 3n unknowns), b and c are dense 3n-vectors and d is a
// scalar. This is the shape of a string whose every node depends on one global coordinate
// (e.g. the reel coordinate s_p): the border destroys the band, so neither a banded solver
// nor a dense one (O(n^3)) is appropriate. Block elimination of x keeps everything O(n):
//
//   w = T⁻¹b                       (one block-tridiagonal solve, done once in factor())
//   schur = d − cᵀw                (scalar Schur complement of T)
//   y = (rho − cᵀT⁻¹r) / schur     (one block-tridiagonal solve per right-hand side)
//   x = T⁻¹r − w y
//
// Requires T itself to be factorable without pivoting (see block_tridiagonal.hpp); the
// border is not pivoted either, so a (near-)zero Schur complement is reported by factor()
// rather than divided by.

#include <Eigen/Dense>
#include <cmath>

#include "numerics/block_tridiagonal.hpp"

namespace tb {

class BorderedBlockTridiagonal3 {
 public:
  explicit BorderedBlockTridiagonal3(int blocks = 0) { resize(blocks); }

  // Sets the size and zeroes everything. Eigen's resize() is a no-op when the size does not
  // change and BlockTridiagonal3::resize keeps its capacity, so re-use allocates nothing.
  void resize(int blocks) {
    n_ = blocks;
    core_.resize(n_);
    b_.resize(3 * n_);
    b_.setZero();
    c_.resize(3 * n_);
    c_.setZero();
    d_ = 0.0;
    w_.resize(3 * n_);
    schur_ = 0.0;
    factored_ = false;
  }

  // Number of 3x3 blocks of T; the system has 3n + 1 unknowns with the border unknown last.
  int blocks() const { return n_; }

  // Mutable accessors invalidate the factorization, mirroring BlockTridiagonal3.
  BlockTridiagonal3& core() { factored_ = false; return core_; }
  const BlockTridiagonal3& core() const { return core_; }
  Eigen::VectorXd& border_column() { factored_ = false; return b_; }
  Eigen::VectorXd& border_row() { factored_ = false; return c_; }
  const Eigen::VectorXd& border_column() const { return b_; }
  const Eigen::VectorXd& border_row() const { return c_; }
  double& corner() { factored_ = false; return d_; }
  double corner() const { return d_; }

  // [T b; cᵀ d] v, for residual checks in tests. v has 3n + 1 entries.
  Eigen::VectorXd multiply(const Eigen::VectorXd& v) const {
    Eigen::VectorXd out(3 * n_ + 1);
    const double y = v(3 * n_);
    out.head(3 * n_) = core_.multiply(v.head(3 * n_)) + b_ * y;
    out(3 * n_) = c_.dot(v.head(3 * n_)) + d_ * y;
    return out;
  }

  // Factors T, then forms w = T⁻¹b and the Schur complement d − cᵀw. Returns false if T has a
  // singular pivot or if the Schur complement is lost in the rounding of its own terms: the
  // cancellation error of d − cᵀw scales with |d| + |c||w|, so anything below a small multiple
  // of that is indistinguishable from zero (and a zero scale means an all-zero border row).
  bool factor() {
    factored_ = false;
    if (!core_.factor()) return false;
    w_ = b_;
    core_.solve_in_place(w_);
    schur_ = d_ - c_.dot(w_);
    const double scale = std::abs(d_) + c_.norm() * w_.norm();
    if (!std::isfinite(schur_) || !std::isfinite(scale) || !(std::abs(schur_) > 1e-12 * scale)) return false;
    factored_ = true;
    return true;
  }

  bool factored() const { return factored_; }
  double schur_complement() const { return schur_; }

  // Solves in place; rhs has 3n + 1 entries (border entry last). Requires a successful
  // factor(). BlockTridiagonal3::solve_in_place takes a whole VectorXd, so T⁻¹r is formed in
  // one 3n temporary rather than in a mutable member (which would make const solves racy).
  void solve_in_place(Eigen::VectorXd& rhs) const {
    Eigen::VectorXd z = rhs.head(3 * n_);
    core_.solve_in_place(z);  // z = T⁻¹r
    const double y = (rhs(3 * n_) - c_.dot(z)) / schur_;
    rhs.head(3 * n_) = z - w_ * y;
    rhs(3 * n_) = y;
  }

 private:
  int n_ = 0;
  BlockTridiagonal3 core_;
  Eigen::VectorXd b_, c_;  // border column and row
  double d_ = 0.0;         // corner
  Eigen::VectorXd w_;      // T⁻¹b, reused by every solve
  double schur_ = 0.0;     // d − cᵀT⁻¹b
  bool factored_ = false;
};

}  // namespace tb
