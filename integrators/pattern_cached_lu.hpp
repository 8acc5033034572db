#pragma once
// Eigen's SparseLU (COLAMD ordering) that repeats its symbolic analysis only when the sparsity
// pattern of the matrix changes: the Newton matrices of the generalized-alpha schemes keep their
// pattern from step to step, except where entries vanish exactly (e.g. R = I), so the ordering
// is computed once per pattern and each step pays only the numeric factorisation.

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <string>

namespace tb {

class PatternCachedSparseLU {
 public:
  // Eigen's default, 1, is partial pivoting: the largest entry of each column is its pivot. Below
  // 1, threshold partial pivoting (Duff, Erisman & Reid, "Direct Methods for Sparse Matrices",
  // 2nd ed. 2017, sect. 7.8; SuperLU's diag_pivot_thresh): the column's diagonal entry is kept as
  // the pivot while it is at least threshold times the column's largest, so the rows follow the
  // fill-reducing column ordering (growth of the factors bounded by 1 + 1/threshold per step). A
  // matrix with a dense border row whose entries outweigh the diagonal (a string's nodes coupled
  // to one global coordinate) fills O(n^2) under partial pivoting and O(n) under a threshold.
  explicit PatternCachedSparseLU(double pivot_threshold = 1.0) { lu_.setPivotThreshold(pivot_threshold); }
  // Factors A (compressed); false when the factorisation fails (singular matrix).
  bool factor(const Eigen::SparseMatrix<double>& A) {
    const Eigen::Map<const Eigen::VectorXi> outer(A.outerIndexPtr(), A.outerSize() + 1),
        inner(A.innerIndexPtr(), A.nonZeros());
    if (!analysed_ || outer.size() != outer_.size() || inner.size() != inner_.size() || outer != outer_ ||
        inner != inner_) {
      lu_.analyzePattern(A);
      outer_ = outer;
      inner_ = inner;
      analysed_ = true;
    }
    lu_.factorize(A);
    return lu_.info() == Eigen::Success;
  }
  template <class Rhs>
  auto solve(const Rhs& b) const {
    return lu_.solve(b);
  }
  std::string last_error() { return lu_.lastErrorMessage(); }
  // Entries of the last factorisation's L and U (the fill the ordering and pivoting left).
  Eigen::Index factor_nonzeros() const { return lu_.nnzL() + lu_.nnzU(); }

 private:
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
  bool analysed_ = false;
  Eigen::VectorXi outer_, inner_;
};

}  // namespace tb
