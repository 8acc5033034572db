#pragma once
// Eigen's SparseLU (COLAMD ordering) that repeats its symbolic analysis only when the sparsity
// pattern of the matrix changes: the Newton matrices of the generalized-alpha schemes keep their
// pattern from step to step, except where entries vanish exactly (e.g. R = I), so the ordering
// is computed once per pattern and each step pays only the numeric factorisation.
// The bodies are in pattern_cached_lu.cpp: inline here, SparseLU's factorisation and
// setFromTriplets were instantiated in every file that includes this header (+3.6 s each, issue 43).

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <string>
#include <vector>

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
  explicit PatternCachedSparseLU(double pivot_threshold = 1.0);
  // Factors A (compressed); false when the factorisation fails (singular matrix).
  bool factor(const Eigen::SparseMatrix<double>& A);  // false if the LU failed (last_error says why)
  template <class Rhs>
  auto solve(const Rhs& b) const {
    return lu_.solve(b);
  }
  std::string last_error();
  // Entries of the last factorisation's L and U (the fill the ordering and pivoting left).
  Eigen::Index factor_nonzeros() const;
  // Numeric factorisations and symbolic analyses (COLAMD and elimination tree) so far.
  long factorizations() const { return factorizations_; }
  long analyses() const { return analyses_; }

 private:
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
  bool analysed_ = false;
  long factorizations_ = 0, analyses_ = 0;
  Eigen::VectorXi outer_, inner_;
};

// A compressed sparse matrix assembled from (row, column, value) entries, repeats summed in the
// order given, as Eigen's setFromTriplets sums them (so the values are bitwise the same). When
// the entries come in the same (row, column) sequence as at the last call, as a Newton matrix's
// do from step to step, their values are added into the slots found then: no sort, no transposed
// temporary and no allocation. Otherwise the matrix is rebuilt by setFromTriplets and the slots
// found again. (Measured on C_cooperative_multirotors with lie_generalized_alpha: setFromTriplets
// was most of the 21 % of the run that LieGeneralizedAlphaStep::factor spent outside the LU.)
class TripletAssembly {
 public:
  void assemble(const std::vector<Eigen::Triplet<double>>& entries, Eigen::SparseMatrix<double>& A);
  long rebuilt() const { return rebuilt_; }  // assemblies by setFromTriplets (a new sequence)
  long reused() const { return reused_; }    // assemblies into the slots of the last sequence

 private:
  bool same_sequence(const std::vector<Eigen::Triplet<double>>& entries) const;
  std::vector<int> row_, col_, slot_;
  Eigen::Index nonzeros_ = -1, rows_ = -1, cols_ = -1;
  long rebuilt_ = 0, reused_ = 0;
};

}  // namespace tb
