#pragma once
// The Newton matrix of the alpha schemes on a constrained mechanical form in natural coordinates,
//   S = [M + (gamma'/beta') C_t + K_t/beta',  G_A^T]
//       [G_A,                                 0    ],   C_t = -df/dv,  K_t = -df/dq + d(G^T lambda)/dq,
// assembled sparse from the form's tangent entries and factored by a sparse LU whose symbolic
// analysis is kept while the pattern holds (O(N) on a string or cable: banded M and K, G with a
// few entries a row; never a dense inverse). Shared by generalized_alpha (index 3: the unknowns
// (q_{n+1}, lambda / beta'), Arnold & Bruels 2007) and nonsmooth_generalized_alpha (its smooth
// stage: the unknowns (wdot_{n+1}, lambda), whose derivative in wdot is the same block since q and
// v move with wdot by 1/beta' and gamma'/beta').
// With an active set A (unilateral constraints), a row off A keeps its multiplier at its value:
// its G row and column are left out and a 1 stands on its diagonal.
// With a configuration-dependent mass matrix M(q) the block adds d(M(q) qdd)/dq / beta' at qdd
// (Bruels, Cardona & Arnold 2012, Sect. 2).

#include <Eigen/SparseCore>
#include <string>
#include <vector>

#include "core/formulation.hpp"
#include "integrators/pattern_cached_lu.hpp"

namespace tb {

class AlphaIterationMatrix {
 public:
  explicit AlphaIterationMatrix(const ConstrainedMechanicalFormulation& form);
  // Assembles S at (t, q, v) with the multipliers lambda (and qdd, used only where M depends on
  // q) and factors it; active null: every row. False where the LU fails (last_error says why).
  bool factor(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& qdd,
              const Eigen::VectorXd& lambda, double beta_p, double gamma_p, const std::vector<bool>* active = nullptr);
  template <class Rhs>
  auto solve(const Rhs& b) const {
    return lu_.solve(b);
  }
  std::string last_error() { return lu_.last_error(); }

 private:
  const ConstrainedMechanicalFormulation& form_;
  const int n_, m_;
  const bool variable_mass_;
  std::vector<Eigen::Triplet<double>> mass_, work_, dfdq_, dfdv_, kg_, g_entries_, mass_jacobian_;
  Eigen::SparseMatrix<double> S_;
  PatternCachedSparseLU lu_;  // analysed once per sparsity pattern
  TripletAssembly assembly_;  // S_ from work_, into the last assembly's slots while their sequence holds
};

}  // namespace tb
