// The out-of-line parts of pattern_cached_lu.hpp (why they are here: its opening comment).

#include "integrators/pattern_cached_lu.hpp"

namespace tb {

PatternCachedSparseLU::PatternCachedSparseLU(double pivot_threshold) { lu_.setPivotThreshold(pivot_threshold); }

bool PatternCachedSparseLU::factor(const Eigen::SparseMatrix<double>& A) {
  const Eigen::Map<const Eigen::VectorXi> outer(A.outerIndexPtr(), A.outerSize() + 1),
      inner(A.innerIndexPtr(), A.nonZeros());
  if (!analysed_ || outer.size() != outer_.size() || inner.size() != inner_.size() || outer != outer_ ||
      inner != inner_) {
    lu_.analyzePattern(A);
    ++analyses_;
    outer_ = outer;
    inner_ = inner;
    analysed_ = true;
  }
  lu_.factorize(A);
  ++factorizations_;
  return lu_.info() == Eigen::Success;
}

std::string PatternCachedSparseLU::last_error() { return lu_.lastErrorMessage(); }

Eigen::Index PatternCachedSparseLU::factor_nonzeros() const { return lu_.nnzL() + lu_.nnzU(); }

void TripletAssembly::assemble(const std::vector<Eigen::Triplet<double>>& entries, Eigen::SparseMatrix<double>& A) {
  if (A.isCompressed() && A.nonZeros() == nonzeros_ && A.rows() == rows_ && A.cols() == cols_ &&
      same_sequence(entries)) {
    double* value = A.valuePtr();
    std::fill(value, value + A.nonZeros(), 0.0);
    for (std::size_t i = 0; i < entries.size(); ++i) value[slot_[i]] += entries[i].value();
    ++reused_;
    return;
  }
  A.setFromTriplets(entries.begin(), entries.end());
  A.makeCompressed();
  row_.resize(entries.size());
  col_.resize(entries.size());
  slot_.resize(entries.size());
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    row_[i] = int(entries[i].row());
    col_[i] = int(entries[i].col());
    slot_[i] = int(std::lower_bound(inner + outer[col_[i]], inner + outer[col_[i] + 1], row_[i]) - inner);
  }
  nonzeros_ = A.nonZeros();
  rows_ = A.rows();
  cols_ = A.cols();
  ++rebuilt_;
}

bool TripletAssembly::same_sequence(const std::vector<Eigen::Triplet<double>>& entries) const {
  if (entries.size() != row_.size()) return false;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].row() != row_[i] || entries[i].col() != col_[i]) return false;
  return true;
}

}  // namespace tb
