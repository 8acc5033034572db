#include "integrators/one_sided_positions.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/format.hpp"
#include "core/unilateral_impulse.hpp"

namespace tb {

OneSidedPositionProjection::OneSidedPositionProjection(const ConstrainedMechanicalFormulation& form,
                                                       ConstrainedMechanicalSolver& solver, double newton_tol,
                                                       int max_newton_iters, std::string start_words)
    : form_(form),
      solver_(solver),
      m_(form.constraints()),
      newton_tol_(newton_tol),
      max_newton_iters_(max_newton_iters),
      equality_(equality_rows(form)),
      start_words_(std::move(start_words)),
      scale_inverse_(form.constraint_scale().cwiseInverse()) {}

// The active links' largest relative residual |g_i(q)| / size_i.
double OneSidedPositionProjection::active_residual(const Eigen::VectorXd& q, const std::vector<bool>& active) {
  form_.constraint(q, g_);
  double e = 0.0;
  for (int i = 0; i < m_; ++i)
    if (active[i]) e = std::max(e, std::abs(g_[i]) * scale_inverse_[i]);
  return e;
}

// Newton on the active links' multipliers from q_start (its first solve adds M^-1 r_first).
bool OneSidedPositionProjection::newton(const Eigen::VectorXd& q_start, const Eigen::VectorXd& r_first,
                                        const Eigen::VectorXd& q_dir, const Eigen::VectorXd& q_free,
                                        const std::vector<bool>& active, StepCounters& counters, StepFailure& failure) {
  // q_free's residual on the active links (what the step must take away) and the smallest Newton
  // reaches: for the report when it does not settle.
  const double free_err = active_residual(q_free, active);
  double least_err = free_err;
  q_ = q_start;
  X_.setZero(q_start.size());
  L_.setZero(m_);
  Eigen::VectorXd r = r_first, s = Eigen::VectorXd::Zero(m_), x, lambda;
  for (int it = 0; it < max_newton_iters_; ++it) {
    if (!solver_.factor_active(q_, q_dir, active)) {
      failure = {StepFailure::Kind::SolverFailed, "singular constraint matrix on the active links within the step"};
      return false;
    }
    form_.constraint(q_, g_);
    s = -g_;
    solver_.solve(r, s, x, lambda);
    ++counters.newton_iters;
    if (!x.allFinite()) {
      failure = {StepFailure::Kind::Diverged, "Newton correction is non-finite (NaN/Inf)"};
      return false;
    }
    q_ += x;
    X_ += x;
    L_ += lambda;
    r.setZero(r.size());
    const double err = active_residual(q_, active);
    // newton_tol, or after a first correction 1e-10 (the floor nonsmooth RATTLE has always used).
    if (err <= newton_tol_ || (it > 0 && err <= 1e-10)) return true;
    least_err = std::min(least_err, err);
  }
  std::string links;
  for (int i = 0; i < m_; ++i)
    if (active[i] && !equality_[i]) links += (links.empty() ? "" : ",") + std::to_string(i);
  failure = {StepFailure::Kind::SolverFailed,
             "Newton on the position multipliers of the links held (" + links + ", numbered from 0) did not converge in " +
                 std::to_string(max_newton_iters_) + " iterations: their relative residual fell no lower than " +
                 format_g(least_err, 3) + ", from " + format_g(free_err, 3) + " at " + start_words_ +
                 (least_err > 1e-3 * free_err
                      ? " (above a thousandth of that: the step's position equations may have no "
                        "solution at this h, the correction along the links' directions lengthening them quadratically "
                        "as it shortens them)"
                      : "")};
  return false;
}

bool OneSidedPositionProjection::solve(const Eigen::VectorXd& q_start, const Eigen::VectorXd& r_first,
                                       const Eigen::VectorXd& q_dir, const Eigen::VectorXd& q_free,
                                       std::vector<bool>& active, StepCounters& counters, StepFailure& failure,
                                       const std::vector<bool>* kept, const std::vector<bool>* may_enter) {
  const int pivots = 4 * m_ + 8;
  for (int pivot = 0; pivot <= pivots; ++pivot) {
    if (!newton(q_start, r_first, q_dir, q_free, active, counters, failure)) return false;
    // Murty's least-index rule: the first link that pushes (L < 0) or that ends beyond its length.
    const double push_tol = 64.0 * std::numeric_limits<double>::epsilon() * (L_.size() ? L_.cwiseAbs().maxCoeff() : 0.0);
    form_.constraint(q_, g_);
    int flip = -1;
    for (int i = 0; i < m_ && flip < 0; ++i)
      if (!equality_[i] && !(kept && (*kept)[i]) &&
          (active[i] ? L_[i] < -push_tol : (!may_enter || (*may_enter)[i]) && g_[i] * scale_inverse_[i] > newton_tol_))
        flip = i;
    if (flip < 0) return true;
    active[flip] = !active[flip];
  }
  failure = {StepFailure::Kind::SolverFailed,
             "the position stage's active set did not settle in " + std::to_string(pivots) + " pivots"};
  return false;
}

}  // namespace tb
