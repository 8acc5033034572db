#pragma once
// Block-tridiagonal linear systems with 3x3 blocks, solved in O(n) by block LU (the block
// Thomas algorithm). Every string in the suite couples only neighbouring nodes, so its mass
// matrix and the Newton matrices of its implicit steps have this shape; a dense inverse
// would cost O(n^3) and is never used.
//
//   [ D0 U0            ] [x0]   [b0]
//   [ L1 D1 U1         ] [x1]   [b1]
//   [    L2 D2 U2      ] [x2] = [b2]
//   [          ...     ] [..]   [..]
//   [        Ln-1 Dn-1 ] [xn-1] [bn-1]
//
// No pivoting between blocks: valid for the block-diagonally-dominant or symmetric positive
// definite matrices (mass matrices, h-scaled Newton matrices) the suite builds. factor()
// reports a singular pivot block instead of producing NaNs.

#include <Eigen/Dense>
#include <Eigen/LU>
#include <cmath>
#include <vector>

namespace tb {

class BlockTridiagonal3 {
 public:
  using Block = Eigen::Matrix3d;
  using Vec = Eigen::Vector3d;

  explicit BlockTridiagonal3(int blocks = 0) { resize(blocks); }

  // Sets the size and zeroes every block (vector::assign keeps the capacity: no allocation
  // when the size does not change).
  void resize(int blocks) {
    n_ = blocks;
    diag_.assign(n_, Block::Zero());
    lower_.assign(n_, Block::Zero());
    upper_.assign(n_, Block::Zero());
    factored_ = false;
  }
  void set_zero() { resize(n_); }

  int blocks() const { return n_; }
  // D_i, L_i (block left of D_i, i >= 1), U_i (block right of D_i, i <= n-2).
  Block& diag(int i) { factored_ = false; return diag_[i]; }
  Block& lower(int i) { factored_ = false; return lower_[i]; }
  Block& upper(int i) { factored_ = false; return upper_[i]; }
  const Block& diag(int i) const { return diag_[i]; }
  const Block& lower(int i) const { return lower_[i]; }
  const Block& upper(int i) const { return upper_[i]; }

  // y = A x, O(N) (residual checks; products with a constant mass matrix).
  Eigen::VectorXd multiply(const Eigen::VectorXd& x) const {
    Eigen::VectorXd y = Eigen::VectorXd::Zero(3 * n_);
    for (int i = 0; i < n_; ++i) {
      y.segment<3>(3 * i) += diag_[i] * x.segment<3>(3 * i);
      if (i > 0) y.segment<3>(3 * i) += lower_[i] * x.segment<3>(3 * (i - 1));
      if (i + 1 < n_) y.segment<3>(3 * i) += upper_[i] * x.segment<3>(3 * (i + 1));
    }
    return y;
  }

  // Block LU: S_0 = D_0, S_i = D_i - L_i S_{i-1}^{-1} U_{i-1}. The 3x3 pivots are inverted in
  // closed form (cofactors): cheaper than a pivoted LU at this size, and the blocks the suite
  // builds are well conditioned. Returns false on a (numerically) singular pivot.
  bool factor() {
    pivot_inverse_.resize(n_);
    pivot_times_upper_.resize(n_);
    for (int i = 0; i < n_; ++i) {
      Block s = diag_[i];
      if (i > 0) s.noalias() -= lower_[i] * pivot_times_upper_[i - 1];
      double det = 0.0;
      bool invertible = false;
      const double scale = s.cwiseAbs().maxCoeff();
      s.computeInverseAndDetWithCheck(pivot_inverse_[i], det, invertible, 0.0);
      if (!std::isfinite(scale) || !(scale > 0.0) || !(std::abs(det) > 1e-13 * scale * scale * scale)) {
        factored_ = false;
        return false;
      }
      if (i + 1 < n_) pivot_times_upper_[i].noalias() = pivot_inverse_[i] * upper_[i];
    }
    factored_ = true;
    return true;
  }

  bool factored() const { return factored_; }

  // Solves A x = b in place (b has 3n entries). Requires a successful factor().
  void solve_in_place(Eigen::VectorXd& b) const {
    // Forward sweep: y_i = S_i^{-1}(b_i - L_i y_{i-1}) stored in b.
    for (int i = 0; i < n_; ++i) {
      Vec r = b.segment<3>(3 * i);
      if (i > 0) r.noalias() -= lower_[i] * b.segment<3>(3 * (i - 1));
      b.segment<3>(3 * i).noalias() = pivot_inverse_[i] * r;
    }
    // Back substitution: x_i = y_i - S_i^{-1} U_i x_{i+1}.
    for (int i = n_ - 2; i >= 0; --i) {
      b.segment<3>(3 * i) -= pivot_times_upper_[i] * Vec(b.segment<3>(3 * (i + 1)));
    }
  }

 private:
  int n_ = 0;
  std::vector<Block> diag_, lower_, upper_;
  std::vector<Block> pivot_inverse_;      // S_i^{-1}
  std::vector<Block> pivot_times_upper_;  // S_i^{-1} U_i, reused by every solve
  bool factored_ = false;
};

}  // namespace tb
