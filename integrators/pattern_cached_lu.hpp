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

 private:
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
  bool analysed_ = false;
  Eigen::VectorXi outer_, inner_;
};

}  // namespace tb
