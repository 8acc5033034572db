// Lie group variational integrator (seed 000 §IV; seed 003 Algorithm 1 for the
// position-momentum form). Each step solves the model's discrete Legendre transform
// G(x) = 0 for the step unknowns x (position increments, Cayley parameters of F_k) by
// Newton's method with the model's analytic, structured Jacobian, then updates
// g_{k+1} = g_k f_k and the momenta explicitly. Because R_{k+1} = R_k F_k with F_k = Cay(c)
// exactly orthogonal, orthonormality is kept to round-off whatever the Newton tolerance.

#include "integrators/lgvi/lgvi.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace tb {
namespace {

class LgviStepper final : public TimeStepper {
 public:
  LgviStepper(const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, form.initial_state()),
        step_(form.make_step()),
        s_(s),
        newton_tol_(s.get("newton_tol")),
        max_newton_iters_(s.get_int("max_newton_iters")),
        t0_(t0),
        next_(y_.size()) {
    x_.resize(step_->unknowns());
    G_.resize(x_.size());
    dx_.resize(x_.size());
  }

  bool step(double t_stop, StepFailure& failure) override {
    const double t_next = next_fixed_step_end(t0_, s_.h, t_stop);
    const double h = t_next - t_;
    if (!(h > 0.0)) {
      failure = {StepFailure::Kind::SolverFailed, "no time left to step"};
      return false;
    }
    step_->begin(y_, h);
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
    const bool same_step = have_previous_ && std::abs(h - previous_h_) <= 1e-9 * h;
    if (!same_step) {
      step_->initial_guess(x_);
      x = x_;
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
      const ContinuationResult c = continue_in_step(h, x);
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
        const std::string where = c.h_reached > 0.0 ? "stalls at h' = " + format_g(c.h_reached / h, 3) + " h"
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
    step_->complete(x, next_);
    if (!all_finite(next_)) {
      failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
      return false;
    }
    x_previous2_ = x_previous_;
    x_previous_ = x_;
    have_three_previous_ = same_step && have_two_previous_;
    have_two_previous_ = same_step;
    x_ = x;
    have_previous_ = true;
    previous_h_ = h;
    y_.swap(next_);
    t_ = t_next;
    ++counters_.steps;
    return true;
  }

 private:
  struct NewtonResult {
    bool converged = false;
    std::string why;               // when not converged
    double residual_drop = 1.0;    // smallest |G| reached / |G| at the start of the solve
    bool non_finite = false;       // the residual or the correction became NaN/Inf
  };

  // Newton's method on the step's discrete equations from x, with the model's analytic Newton
  // matrix; x holds the last iterate on return. Iterations are counted in the run's counters.
  NewtonResult newton(Eigen::VectorXd& x) {
    double last_correction = 0.0;
    double first_residual = 0.0, previous_residual = 0.0;  // |G|inf at this solve's first and last iterate
    double best_residual = std::numeric_limits<double>::infinity();
    auto drop = [&] { return first_residual > 0.0 ? best_residual / first_residual : 1.0; };
    for (int it = 0; it < max_newton_iters_; ++it) {
      step_->residual(x, G_);
      ++counters_.rhs_evals;
      ++counters_.newton_iters;
      if (!all_finite(G_)) return {false, "the discrete Euler-Lagrange residual became non-finite", drop(), true};
      if (!step_->newton_correction(x, G_, dx_)) return {false, "singular Newton matrix", drop()};
      x += dx_;
      const double previous_correction = last_correction;
      last_correction = dx_.lpNorm<Eigen::Infinity>();
      if (!std::isfinite(last_correction)) return {false, "non-finite Newton correction", drop(), true};
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

  struct ContinuationResult {
    bool reached = false;
    double h_reached = 0.0;         // largest h' at which the branch was followed
    double h_smallest_tried = 0.0;  // when not even the first h' converged
    std::string why;
    double residual_drop = 1.0;  // of the last failed solve
  };

  // Natural-parameter continuation of G(x; h') = 0 in h' from 0 to h (the state y_k fixed):
  // at h' -> 0 the step's unknowns (increments, impulses, Cayley parameters) vanish like h', so
  // the model's guess at a small h' is inside Newton's basin; each solved h' predicts the next
  // by x(h'') ~ x(h') h''/h' (the unknowns are O(h')). The increment doubles after a success and
  // halves after a failure; it falling below 1e-6 h means the branch turns back (a fold, where
  // the Newton matrix is singular) or ends: the equations have no solution next to y_k beyond.
  // Success leaves in x the solution of the same discrete equations at h, so nothing about the
  // scheme changes: only how its equations are solved.
  ContinuationResult continue_in_step(double h, Eigen::VectorXd& x) {
    ContinuationResult out;
    double reached = 0.0, increment = h / 16.0;
    Eigen::VectorXd solved;  // x at h' = reached
    std::string last_why;
    while (reached < h) {
      const double target = std::min(h, reached + increment);
      step_->begin(y_, target);
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
      if (increment < 1e-6 * h) {
        out.h_reached = reached;
        out.h_smallest_tried = target;
        out.why = last_why;
        out.residual_drop = r.residual_drop;
        step_->begin(y_, h);  // leave the step as it was asked
        return out;
      }
    }
    out.reached = true;
    out.h_reached = h;
    return out;
  }

  std::unique_ptr<DiscreteLieGroupStep> step_;
  IntegratorSettings s_;
  double newton_tol_;      // relative size of the last Newton correction
  int max_newton_iters_;  // iterations before the step is declared failed
  double t0_;
  Eigen::VectorXd next_, x_, x_previous_, x_previous2_, trial_, G_, dx_;
  bool have_previous_ = false, have_two_previous_ = false, have_three_previous_ = false;
  double previous_h_ = 0.0;
};

}  // namespace

IntegratorInfo lgvi_info() {
  return {"lgvi", FormulationKind::DiscreteLieGroup, 2, false,
          "Lie group variational integrator: discrete Lagrangian, Newton on Cayley parameters, O(N) linear algebra",
          {positive_setting("newton_tol",
                            "Newton stops when the correction is below newton_tol·‖x‖∞ (or stagnates at round-off "
                            "below √newton_tol·‖x‖∞)",
                            1e-13),
           positive_integer_setting("max_newton_iters", "Newton iterations before the step is declared failed", 25)},
          [](const Formulation& f, const IntegratorSettings& s, double t0) -> std::unique_ptr<TimeStepper> {
            return std::make_unique<LgviStepper>(dynamic_cast<const DiscreteLieGroupFormulation&>(f), s, t0);
          }};
}

}  // namespace tb
