// RATTLE (Andersen 1983; Leimkuhler & Skeel 1994; Hairer-Lubich-Wanner, Geometric Numerical
// Integration, 2nd ed., VII.1.4 eq. (1.26)) on the constrained mechanical system
//   q' = v,  M v' = f(t, q, v) - G(q)^T lambda,  g(q) = 0     (core/formulation.hpp)
// with constant M. One step of size h:
//   v_{k+1/2} = v_k + h/2 M^{-1} (f(t_k, q_k, v_k) - G(q_k)^T lambda_k)
//   q_{k+1}   = q_k + h v_{k+1/2},        g(q_{k+1}) = 0                      (lambda_k)
//   v_{k+1}   = v_{k+1/2} + h/2 M^{-1} (f(t_{k+1}, q_{k+1}, v_{k+1/2}) - G(q_{k+1})^T mu_k)
//   G(q_{k+1}) v_{k+1} = 0                                                     (mu_k)
// Symplectic, symmetric and of order 2 for conservative forces (HLW Theorems VII.1.3-1.4);
// with no constraints it is Stoermer-Verlet. The constraints g and G v hold to the Newton
// tolerance after every step, whatever h: they do not drift.
//
// Position multipliers: with Lambda = h^2/2 lambda_k, q(Lambda) = q_k + h v_k +
// M^{-1}(h^2/2 f_k - G(q_k)^T Lambda), and Newton on g(q(Lambda)) = 0 has the matrix
// -G(q^i) M^{-1} G(q_k)^T at the iterate q^i. Written as the model's saddle-point system
//   [M, G(q_k)^T; G(q^i), 0] [x; dLambda] = [r; -g(q^i)],   q^{i+1} = q^i + x,
// with r = h^2/2 f_k at the first iterate q^0 = q_k + h v_k (which adds the force kick) and
// r = 0 after, each solve yields the position correction x directly, and M^{-1} is never
// formed: the model's structured solver (banded, O(m n) on a cable tree, closed form per
// rigid body) does the work. This is full Newton (quadratic); it stops when
// max_i |g_i(q)| / scale_i <= newton_tol (scale_i: the size of constraint i's terms, so this
// is a relative error near round-off), or when the residual has stopped falling below 1e-10
// (its round-off floor), and fails after max_newton_iters. v_{k+1/2} = v_k + (sum x)/h.
//
// Velocity multipliers: one linear solve, [M, G^T; G, 0](q_{k+1}) [x; h/2 mu] =
// [h/2 f_{k+1}; -G(q_{k+1}) v_{k+1/2}], v_{k+1} = v_{k+1/2} + x.
//
// Velocity-dependent forces (force_depends_on_velocity(): the hanging tether's viscous damping
// -zeta M v; Model C's thrust is a constant force with potential -f.X_Q). The first kick takes
// f at v_k, the second at v_{k+1} (implicit, solved by fixed-point iteration):
//   v_{k+1/2} = v_k + h/2 M^{-1} (f(t_k, q_k, v_k) - G_k^T lambda_k),
//   v_{k+1}   = v_{k+1/2} + h/2 M^{-1} (f(t_{k+1}, q_{k+1}, v_{k+1}) - G_{k+1}^T mu_k),
// the two kicks mirror images of each other, so the step stays symmetric (a step of -h from
// y_{k+1} returns y_k) and of order 2 (for v' = -zeta v it is the Cayley factor
// (1 - h zeta/2)/(1 + h zeta/2) of e^{-h zeta}; taking f at v_{k+1/2} instead, as an explicit
// scheme would, drops to order 1, measured). It is not symplectic: the force dissipates. The
// work W of such forces (the form's trailing state entries, work_terms()) is advanced by the
// trapezoidal rule on their power, symmetric and of order 2 as well.

#include "integrators/rattle_step.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"

namespace tb {

std::vector<SettingSpec> rattle_newton_settings() {
  return newton_settings(
      "Newton on the position multipliers stops when max |g_i| / (size of constraint i) <= newton_tol (or the "
      "residual stops falling below 1e-10: round-off)",
      1e-14);
}

RattleStep::RattleStep(const ConstrainedMechanicalFormulation& form, double newton_tol, int max_newton_iters)
    : form_(form),
      solver_(form.make_solver()),
      newton_tol_(newton_tol),
      max_newton_iters_(max_newton_iters),
      n_(form.positions()),
      m_(form.constraints()),
      w_(form.work_terms()),
      work_(form) {
  scale_inverse_ = form.constraint_scale().cwiseInverse();
}

double RattleStep::constraint_error(const Eigen::VectorXd& q) {
  if (m_ == 0) return 0.0;
  form_.constraint(q, g_);
  return g_.cwiseProduct(scale_inverse_).lpNorm<Eigen::Infinity>();
}

RattleStep::Result RattleStep::step(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next) {
  Result out;
  auto fail = [&](StepFailure::Kind kind, std::string why) {
    out.ok = false;
    out.failure = {kind, std::move(why)};
    return out;
  };
  q0_ = y.head(n_);
  v0_ = y.segment(n_, n_);
  s_.setZero(m_);
  form_.force(t, q0_, v0_, f_);
  ++out.force_evals;
  if (!f_.allFinite()) return fail(StepFailure::Kind::Diverged, "force is non-finite (NaN/Inf)");

  // Positions: Newton on the multipliers from q^0 = q_k + h v_k.
  q_ = q0_ + h * v0_;
  X_.setZero(n_);
  r_ = 0.5 * h * h * f_;
  double err = constraint_error(q_), previous = 0.0;
  const double predictor_err = err;  // how far the free flight q_k + h v_k leaves the constraints
  bool converged = false;
  for (int it = 0; it < max_newton_iters_; ++it) {
    if (!std::isfinite(err)) return fail(StepFailure::Kind::Diverged, "constraint residual is non-finite (NaN/Inf)");
    if (!solver_->factor(q_, q0_))
      return fail(StepFailure::Kind::SolverFailed,
                  "singular constraint matrix G(q) M^-1 G(q_k)^T (a constraint gradient turned perpendicular to its "
                  "previous direction within the step)");
    if (m_ > 0) s_ = -g_;
    solver_->solve(r_, s_, x_, lambda_);
    ++out.newton_iters;
    if (!x_.allFinite()) return fail(StepFailure::Kind::Diverged, "Newton correction is non-finite (NaN/Inf)");
    q_ += x_;
    X_ += x_;
    r_.setZero();
    previous = err;
    err = constraint_error(q_);
    // Converged at the tolerance, or at the round-off floor (no longer falling, and tiny).
    if (err <= newton_tol_ || (it > 0 && err >= 0.5 * previous && err <= 1e-10)) {
      converged = std::isfinite(err);
      break;
    }
  }
  if (!converged) {
    if (!std::isfinite(err)) return fail(StepFailure::Kind::Diverged, "constraint residual is non-finite (NaN/Inf)");
    // A free flight that already breaks the constraints by a tenth of their size means the
    // velocities have outgrown the step (Stoermer-Verlet is stable only for h w < 2): a stability
    // result at this h, not a limit of the solver.
    if (predictor_err > 0.1)
      return fail(StepFailure::Kind::Diverged,
                  "the free flight q_k + h v_k violates the constraints by " + format_g(predictor_err, 3) +
                      " of their size and Newton on the multipliers finds no solution near it (the motion has "
                      "outgrown the step: h w > 2 for some mode)");
    return fail(StepFailure::Kind::SolverFailed,
                "Newton on the position multipliers did not reach newton_tol in " + std::to_string(max_newton_iters_) +
                    " iterations (relative constraint residual " + format_g(err, 3) + ", from " +
                    format_g(predictor_err, 3) + " at the free flight q_k + h v_k): no solution of the step's "
                    "position equations found near it at this h");
  }
  vhalf_ = v0_ + X_ / h;

  // Velocities: the second half kick and the projection onto G(q_{k+1}) v = 0. A force that
  // depends on v is taken at v_{k+1}, the mirror image of the first kick's v_k, by fixed-point
  // iteration from v_{k+1/2} (each pass one structured solve; it contracts by h/2 |M^-1 df/dv|,
  // 2e-3 per pass for the tether's damping at its case step); see the header for why.
  if (!solver_->factor(q_, q_))
    return fail(StepFailure::Kind::SolverFailed, "singular constraint matrix G M^-1 G^T at q_{k+1}");
  if (m_ > 0) {
    form_.constraint_jacobian_times(q_, vhalf_, Gv_);
    s_ = -Gv_;
  }
  const bool implicit_in_v = form_.force_depends_on_velocity();
  v1_ = vhalf_;
  double change = 0.0;
  for (int it = 0;; ++it) {
    form_.force(t + h, q_, v1_, f_);
    ++out.force_evals;
    if (!f_.allFinite()) return fail(StepFailure::Kind::Diverged, "force is non-finite (NaN/Inf)");
    r_ = 0.5 * h * f_;
    solver_->solve(r_, s_, x_, lambda_);
    const double previous_change = change;
    change = (vhalf_ + x_ - v1_).lpNorm<Eigen::Infinity>();
    v1_ = vhalf_ + x_;
    if (!implicit_in_v) break;
    const double size = v1_.lpNorm<Eigen::Infinity>();
    // Converged at round-off, or no longer shrinking there.
    if (change <= 1e-15 * size || (it > 0 && change >= 0.5 * previous_change && change <= 1e-12 * size)) break;
    if (!std::isfinite(change)) return fail(StepFailure::Kind::Diverged, "velocity iterate is non-finite (NaN/Inf)");
    if (it + 1 >= max_newton_iters_)
      return fail(StepFailure::Kind::SolverFailed,
                  "the second half kick's velocity-dependent force did not converge in " +
                      std::to_string(max_newton_iters_) + " fixed-point passes (last change " + format_g(change, 3) +
                      " of |v| " + format_g(size, 3) + "): h/2 |M^-1 df/dv| is not below 1 at this h");
  }
  y_next.resize(2 * n_ + w_);
  y_next.head(n_) = q_;
  y_next.segment(n_, n_) = v1_;
  work_.advance(t, h, q0_, v0_, q_, v1_, y, y_next);  // W' = P(t, q, v), trapezoidal (work_terms.hpp)
  if (!y_next.allFinite()) return fail(StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)");
  return out;
}

}  // namespace tb
