// Newton's method for one step of a Lie group variational integrator (see lgvi_step_solver.hpp),
// moved here unchanged from lgvi/lgvi.cpp so that lgvi and lgvi4 solve their steps the same way. The
// only generalisation is to steps of either sign (lgvi4's compositions take negative substeps):
// "the same step" and the continuation in h' compare magnitudes, which for h > 0 is the
// arithmetic lgvi always did.

#include "integrators/lgvi_step_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/format.hpp"

namespace tb {

std::vector<SettingSpec> lgvi_newton_settings() {
  return {positive_setting("newton_tol",
                           "Newton stops when the correction is below newton_tol·‖x‖∞ (or stagnates at round-off "
                           "below √newton_tol·‖x‖∞)",
                           1e-13),
          positive_integer_setting("max_newton_iters", "Newton iterations before the step is declared failed", 25)};
}

LgviStepSolver::LgviStepSolver(const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, StepCounters& counters)
    : step_(form.make_step()),
      counters_(counters),
      newton_tol_(s.get("newton_tol")),
      max_newton_iters_(s.get_int("max_newton_iters")) {
  x_.resize(step_->unknowns());
  G_.resize(x_.size());
  dx_.resize(x_.size());
}

bool LgviStepSolver::solve(const Eigen::VectorXd& y, double h, Eigen::VectorXd& y_next, StepFailure& failure) {
  pending_ = false;
  step_->begin(y, h);
  // Starting guess: the unknowns (position increments, Cayley parameters, multiplier
  // impulses) are smooth in time, so at a constant step the parabola through the last three
  // solutions predicts the next one to O(h^4) (the line through two: O(h^3); the last
  // solution alone: O(h^2)); the model's own guess when there is no history at this step.
  // For a mode of frequency w the extrapolation error is |2 sin(h w / 2)|^3 of its amplitude,
  // below the line's square while h w < pi/3 (Model C's cable zigzag modes: h w ~ 0.9).
  Eigen::VectorXd& x = trial_;  // reused storage: no allocation per step
  // h = t_{k+1} - t_k with t_k = t0 + k h_nominal differs from step to step in the last bits,
  // so "the same step" is a relative test; only a truly different step (the shortened last
  // one before t_stop) falls back to the model's guess.
  const bool same_step = have_previous_ && std::abs(h - previous_h_) <= 1e-9 * std::abs(h);
  if (!same_step) {
    step_->initial_guess(x);
  } else if (have_three_previous_) {
    x = 3.0 * (x_ - x_previous_) + x_previous2_;
  } else if (have_two_previous_) {
    x = 2.0 * x_ - x_previous_;
  } else {
    x = x_;
  }
  NewtonResult result = newton(x);
  if (!result.converged) {
    // Globalisation. Newton from the extrapolated start can miss a solution that exists (a
    // light link's fast mode makes the extrapolation poor), so follow the solution branch
    // from h' = 0, where x = 0 solves the discrete equations, up to h.
    const ContinuationResult c = continue_in_step(y, h, x);
    if (!c.reached && result.non_finite) {
      // Non-finite from the extrapolated start and not rescued by continuation: the run has
      // blown up at this step, a stability result, reported as before this globalisation.
      failure = {StepFailure::Kind::Diverged, "discrete Euler-Lagrange residual is non-finite (NaN/Inf): " +
                                                  result.why + "; continuation in h' from 0: " + c.why};
      return false;
    }
    if (!c.reached) {
      // Two different limits. Where Newton's residual still fell to near round-off at the h'
      // it could not pass, a solution is there but cannot be resolved to newton_tol: the
      // step's equations are too ill-conditioned at this h (a limit of the solver in these
      // unknowns). Where the residual stays large, the branch of solutions ends: a fold.
      const bool ill_conditioned = c.h_reached == 0.0 || c.residual_drop <= 1e-6;
      const std::string where = c.h_reached != 0.0 ? "stalls at h' = " + format_g(c.h_reached / h, 3) + " h"
                                                   : "fails already at h' = " + format_g(c.h_smallest_tried / h, 3) + " h";
      failure = {StepFailure::Kind::SolverFailed,
                 ill_conditioned
                     ? "the step's equations are too ill-conditioned at this h to solve to newton_tol (a limit of this "
                       "solver, not evidence against a solution): continuation in h' from 0 " + where + " (" + c.why + ")"
                     : "no solution of the discrete equations found next to the previous state at this h: continuation "
                       "in h' from 0 " + where + ", where Newton's residual stays at " + format_g(c.residual_drop, 2) +
                       " of its start (the solution branch folds back; " + c.why +
                       "; Newton from the extrapolated start: " + result.why + ")"};
      return false;
    }
  }
  step_->complete(x, y_next);
  if (!all_finite(y_next)) {
    failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
    return false;
  }
  pending_ = true;
  pending_same_step_ = same_step;
  pending_h_ = h;
  return true;
}

void LgviStepSolver::commit() {
  if (!pending_) return;
  x_previous2_.swap(x_previous_);  // x_previous2_ <- x_previous_, x_previous_ <- x_ <- trial_
  x_previous_.swap(x_);
  x_ = trial_;
  have_three_previous_ = pending_same_step_ && have_two_previous_;
  have_two_previous_ = pending_same_step_;
  have_previous_ = true;
  previous_h_ = pending_h_;
  pending_ = false;
}

// Newton's method on the step's discrete equations from x, with the model's analytic Newton
// matrix; x holds the last iterate on return. Iterations are counted in the run's counters.
LgviStepSolver::NewtonResult LgviStepSolver::newton(Eigen::VectorXd& x) {
  double last_correction = 0.0;
  double first_residual = 0.0, previous_residual = 0.0;  // |G|inf at this solve's first and last iterate
  double best_residual = std::numeric_limits<double>::infinity();
  auto drop = [&] { return first_residual > 0.0 ? best_residual / first_residual : 1.0; };
  for (int it = 0; it < max_newton_iters_; ++it) {
    step_->residual(x, G_);
    ++counters_.rhs_evals;
    ++counters_.newton_iters;
    // A non-finite residual makes the correction non-finite as well, so the residual is checked
    // only when the correction fails, to name the cause (checked every iteration, it was 9% of
    // the free rigid body's step).
    const bool solved = step_->newton_correction(x, G_, dx_);
    const double previous_correction = last_correction;
    last_correction = solved ? dx_.lpNorm<Eigen::Infinity>() : 0.0;
    if (!solved || !std::isfinite(last_correction)) {
      if (!all_finite(G_)) return {false, "the discrete Euler-Lagrange residual became non-finite", drop(), true};
      if (!solved) return {false, "singular Newton matrix", drop()};
      return {false, "non-finite Newton correction", drop(), true};
    }
    x += dx_;
    const double scale = x.lpNorm<Eigen::Infinity>();
    // Converged when the correction is below tolerance; when, Newton being quadratic
    // (|dx_{k+1}| ~ K |dx_k|^2, K measured from the last two corrections), the correction the
    // next iteration would make is below it, so that iteration would only confirm what is
    // known; or when the correction has stopped shrinking far below sqrt(tolerance), which is
    // round-off in the residual, not progress.
    const bool small = last_correction <= newton_tol_ * scale;
    const bool quadratic = it > 0 && last_correction < 0.5 * previous_correction;
    const double ratio = quadratic ? last_correction / previous_correction : 0.0;
    const bool next_small = quadratic && last_correction * ratio * ratio <= newton_tol_ * scale;
    const bool at_roundoff = it > 0 && last_correction >= 0.5 * previous_correction &&
                             last_correction <= std::sqrt(newton_tol_) * scale;
    // At tiny steps the unknowns (increments ~ h v) are small against the momenta they are
    // computed from and the Newton matrix is badly conditioned, so the corrections can be
    // round-off noise far above newton_tol |x| (measured on Model C with 200 links at
    // h = 5e-7 s: corrections ~1e-11 at |x| ~ 5e-8 while the residual sits at 5e-19, 11 orders
    // below its start). A residual that has stopped falling after falling 10 orders is that
    // floor; near a fold, where there is no solution, the residual stays large instead.
    const double residual = G_.lpNorm<Eigen::Infinity>();
    if (it == 0) first_residual = residual;
    const bool residual_floor = it > 0 && residual >= 0.5 * previous_residual && residual <= 1e-10 * first_residual;
    previous_residual = residual;
    best_residual = std::min(best_residual, residual);
    if (small || next_small || at_roundoff || residual_floor || last_correction == 0.0) return {true, "", 0.0};
  }
  return {false,
          "no convergence in " + std::to_string(max_newton_iters_) + " iterations, last correction " +
              format_g(last_correction, 3) + ", residual down " + format_g(drop(), 2) + " of its start",
          drop()};
}

// Natural-parameter continuation of G(x; h') = 0 in h' from 0 to h (the state y_k fixed):
// at h' -> 0 the step's unknowns (increments, impulses, Cayley parameters) vanish like h', so
// the model's guess at a small h' is inside Newton's basin; each solved h' predicts the next
// by x(h'') ~ x(h') h''/h' (the unknowns are O(h')). The increment doubles after a success and
// halves after a failure; it falling below 1e-6 |h| means the branch turns back (a fold, where
// the Newton matrix is singular) or ends: the equations have no solution next to y_k beyond.
// Success leaves in x the solution of the same discrete equations at h, so nothing about the
// scheme changes: only how its equations are solved. h' runs from 0 towards h, whatever h's sign.
LgviStepSolver::ContinuationResult LgviStepSolver::continue_in_step(const Eigen::VectorXd& y, double h, Eigen::VectorXd& x) {
  ContinuationResult out;
  double reached = 0.0, increment = h / 16.0;
  Eigen::VectorXd solved;  // x at h' = reached
  std::string last_why;
  while (std::abs(reached) < std::abs(h)) {
    const double target = std::abs(reached + increment) < std::abs(h) ? reached + increment : h;
    step_->begin(y, target);
    if (reached == 0.0) step_->initial_guess(x);
    else x = solved * (target / reached);
    const NewtonResult r = newton(x);
    if (r.converged) {
      solved = x;
      reached = target;
      increment *= 2.0;
      continue;
    }
    last_why = r.why;
    increment *= 0.5;
    if (std::abs(increment) < 1e-6 * std::abs(h)) {
      out.h_reached = reached;
      out.h_smallest_tried = target;
      out.why = last_why;
      out.residual_drop = r.residual_drop;
      step_->begin(y, h);  // leave the step as it was asked
      return out;
    }
  }
  out.reached = true;
  out.h_reached = h;
  return out;
}

}  // namespace tb
