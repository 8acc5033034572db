#pragma once
// The one-sided position projection that the schemes for unilateral constraints share (issue 48):
// from a configuration q_start that may carry links beyond their length, find
//   q = q_start + M^-1 r_first - M^-1 G(q_dir)^T L,   0 <= L_i  ⊥  -g_i(q) >= 0,
// the links' forces along their directions at q_dir (SHAKE's projection with inequalities;
// Hairer, Lubich & Wanner, Geometric Numerical Integration, VII.1, eq. (1.26) for the equality
// case). It is a nonlinear complementarity problem in L, solved by an active set over the links
// (Murty's least-index rule: the first link that pushes, L_i < 0, or that ends beyond its length
// flips) with a Newton on the active links' multipliers inside, each Newton iteration one
// structured saddle-point solve on the active set (ConstrainedMechanicalSolver::factor_active),
// O(N) on a cable.
//
// nonsmooth RATTLE calls it with q_start = q_k + h v_k, r_first = h^2/2 f_k and q_dir = q_k (its
// position stage); nonsmooth generalized-alpha with q_start = q_dir = its smooth stage's
// configuration and r_first = 0 (the position correction of Bruels, Acary & Cardona 2014).
//
// Where Newton does not settle, the failure names the links held and how far their residual fell
// from q_free's (the configuration the caller names in start_words): a residual that stays above a
// thousandth of it is the signature of position equations without a solution at this h (the
// quadratic part of g along G(q_dir)^T L lengthens the links more than the correction shortens
// them; nonsmooth_rattle.cpp's header measures where), not of too few iterations.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "core/formulation.hpp"
#include "core/integrator.hpp"

namespace tb {

class OneSidedPositionProjection {
 public:
  // newton_tol: the active links' relative residual |g_i| / constraint_scale_i that ends Newton.
  // start_words: what the caller's q_free is, for its failure messages ("the free flight").
  OneSidedPositionProjection(const ConstrainedMechanicalFormulation& form, ConstrainedMechanicalSolver& solver,
                             double newton_tol, int max_newton_iters, std::string start_words);

  // Solves from the active set given (every equality row must be in it; it holds the settled set
  // on return). False with the reason in `failure`. Adds its Newton iterations to counters.
  // `kept` (optional): one-sided rows to hold at their length like equalities, whatever the sign
  // of their multiplier (nonsmooth generalized-alpha's links in tension: the file's header there).
  // `may_enter` (optional): the only one-sided rows that may join the active set when they end
  // beyond their length; the others stay out whatever g says (the variational collision
  // integrator's substep on the links held, whose closings it locates inside the step instead).
  bool solve(const Eigen::VectorXd& q_start, const Eigen::VectorXd& r_first, const Eigen::VectorXd& q_dir,
             const Eigen::VectorXd& q_free, std::vector<bool>& active, StepCounters& counters, StepFailure& failure,
             const std::vector<bool>* kept = nullptr, const std::vector<bool>* may_enter = nullptr);

  const Eigen::VectorXd& configuration() const { return q_; }  // q
  // q - q_start, summed over Newton's corrections (increment form: the caller forms velocities from it).
  const Eigen::VectorXd& displacement() const { return X_; }
  const Eigen::VectorXd& multipliers() const { return L_; }  // L (0 off the active set)

 private:
  double active_residual(const Eigen::VectorXd& q, const std::vector<bool>& active);
  bool newton(const Eigen::VectorXd& q_start, const Eigen::VectorXd& r_first, const Eigen::VectorXd& q_dir,
              const Eigen::VectorXd& q_free, const std::vector<bool>& active, StepCounters& counters,
              StepFailure& failure);

  const ConstrainedMechanicalFormulation& form_;
  ConstrainedMechanicalSolver& solver_;
  const int m_;
  const double newton_tol_;
  const int max_newton_iters_;
  const std::vector<bool> equality_;
  const std::string start_words_;
  Eigen::VectorXd scale_inverse_, q_, X_, L_, g_;
};

}  // namespace tb
