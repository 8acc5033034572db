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
//
// ---- RATTLE with a configuration-dependent mass matrix ----
// The constrained variational integrator of the trapezoidal discrete Lagrangian
//   L_d(q_k, q_{k+1}) = h/2 [L(q_k, vbar) + L(q_{k+1}, vbar)],  vbar = (q_{k+1} - q_k)/h,
//   L(q, v) = 1/2 v^T M(q) v - V(q)
// (Marsden & West 2001, Acta Numerica 10, §2.2 (trapezoidal rule) and §3.5 (holonomic
// constraints: the constrained discrete Euler-Lagrange equations with multipliers at q_k and
// the momenta projected onto the constraints' cotangent space, their eqs. (3.5.3)-(3.5.4));
// Leyendecker, Marsden & Ortiz 2008, ZAMM 88, Sect. 3), with the non-conservative applied forces
// by the discrete Lagrange-d'Alembert principle (Marsden & West §3.2, Kane, Marsden, Ortiz &
// West 2000) as f_d^- = h/2 f_nc(t_k, q_k, v_k), f_d^+ = h/2 f_nc(t_{k+1}, q_{k+1}, v_{k+1}). In
// position-momentum form, p = M(q) v, with Mbar = (M(q_k) + M(q_{k+1}))/2 and T_q = dT/dq at
// fixed v (core/formulation.hpp):
//   Mbar vbar = p_k + h/2 [T_q(q_k, vbar) + f_a(t_k, q_k, v_k)] - G(q_k)^T Lambda/h,  g(q_{k+1}) = 0
//   M(q_{k+1}) v_{k+1} = Mbar vbar + h/2 [T_q(q_{k+1}, vbar) + f_a(t_{k+1}, q_{k+1}, v_{k+1})] - G(q_{k+1})^T mu,
//   G(q_{k+1}) v_{k+1} = 0
// (f_a = -grad V + f_nc: the potential's part of L_d is the trapezoidal rule on V). With a
// constant M (T_q = 0) these are the RATTLE equations above; for a separable Hamiltonian they
// are HLW's (1.26). The step is symmetric: L_d(q_{k+1}, q_k, -h) = -L_d(q_k, q_{k+1}, h) and the
// forcing's two halves are each other's mirror image, so the step of -h from (q_{k+1}, v_{k+1})
// solves the same equations with (Lambda, mu) -> (-mu h, -Lambda/h) and returns (q_k, v_k)
// (tests/test_reel_pendulum_constrained.cpp measures it); unforced it is symplectic on the
// constraint manifold and conserves the momentum maps of symmetries of L (Marsden-West §3.5),
// and it is of order 2 (self-adjoint, consistent; measured).
//
// Positions: unknowns X = q_{k+1} - q_k - h v_k (from the free flight) and Lambda; h times the
// first equation, in increment form (M(q_k) vbar - p_k = M(q_k) X / h, and
// (Mbar - M(q_k)) = 1/2 (M(q_{k+1}) - M(q_k)), formed from the increment: mass_change_times):
//   r(X, Lambda) = M(q_k) X + 1/2 dM[dq] dq - h^2/2 [T_q(q_k, vbar) + f_a(t_k, q_k, v_k)] + G(q_k)^T Lambda,
//   dq = h v_k + X,  vbar = dq/h.
// Newton: [M(q^i), G(q_k)^T; G(q^i), 0] [dX; dLambda] = -[r; g(q^i)] with the model's structured
// solver at (q_a, q_b) = (q^i, q_k): the exact Jacobian of r in X is M(q^i) + O(h |v| |dM/dq|)
// (the derivatives of dM[dq] dq and of h^2 T_q in X), so this simplified Newton contracts
// linearly by that O(h) factor (on B_reel_retrieval's first step at its case step the residual
// fell 3.6e-7 -> 2.4e-15 -> 6e-21: 2 to 3 iterations a step, tests/test_reel_pendulum_constrained.cpp
// prints the most a run took) and needs no second derivative of M. It stops when the constraints are at
// newton_tol (relative to their sizes, as above) and every row of r is at its round-off floor
// 8 eps S_i, S_i the sum of the magnitudes of r_i's terms (the rule of
// DiscreteLieGroupStep::residual_magnitudes) plus |M(q_k) 1|_i |X|_inf (times eps: the residual
// that the linear solves' norm-wise round-off in X leaves; a row whose terms all vanish, a body
// at rest, is converged there, not at 0), or when both stop falling there (below 1e3 times
// the floor); it fails after max_newton_iters.
// Velocities: v_{k+1} = vbar + x with
//   [M(q_{k+1}), G^T; G, 0](q_{k+1}) [x; mu] = [-1/2 dM[dq] vbar + h/2 (T_q(q_{k+1}, vbar) + f_a(t_{k+1}, q_{k+1}, v_{k+1})); -G(q_{k+1}) vbar],
// with f_a's dependence on v_{k+1} solved by fixed-point passes as above.

#include "integrators/rattle_step.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

// Books the force evaluation just made into f_; false (the step diverged) if it is non-finite.
bool RattleStep::book_force_evaluation(Result& out) const {
  ++out.force_evals;
  if (!f_.allFinite()) return fail(out, StepFailure::Kind::Diverged, "force is non-finite (NaN/Inf)");
  return true;
}

RattleStep::Result RattleStep::step(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next) {
  if (form_.mass_depends_on_configuration()) return step_configuration_dependent_mass(t, h, y, y_next);
  Result out;
  q0_ = y.head(n_);
  v0_ = y.segment(n_, n_);
  s_.setZero(m_);
  form_.force(t, q0_, v0_, f_);
  if (!book_force_evaluation(out)) return out;
  if (!solve_position_multipliers(h, out)) return out;
  vhalf_ = v0_ + X_ / h;
  if (!second_half_kick(t, h, out)) return out;
  write_next_state(t, h, y, y_next, out);
  return out;
}

// q_{k+1} and the position multipliers by Newton (the file's header: "Position multipliers").
bool RattleStep::solve_position_multipliers(double h, Result& out) {
  // Positions: Newton on the multipliers from q^0 = q_k + h v_k.
  q_ = q0_ + h * v0_;
  X_.setZero(n_);
  r_ = 0.5 * h * h * f_;
  double err = constraint_error(q_), previous = 0.0;
  const double predictor_err = err;  // how far the free flight q_k + h v_k leaves the constraints
  bool converged = false;
  for (int it = 0; it < max_newton_iters_; ++it) {
    if (!std::isfinite(err))
      return fail(out, StepFailure::Kind::Diverged, "constraint residual is non-finite (NaN/Inf)");
    if (!solver_->factor(q_, q0_))
      return fail(out, StepFailure::Kind::SolverFailed,
                  "singular constraint matrix G(q) M^-1 G(q_k)^T (a constraint gradient turned perpendicular to its "
                  "previous direction within the step)");
    if (m_ > 0) s_ = -g_;
    solver_->solve(r_, s_, x_, lambda_);
    ++out.newton_iters;
    if (!x_.allFinite()) return fail(out, StepFailure::Kind::Diverged, "Newton correction is non-finite (NaN/Inf)");
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
  if (!converged) return position_multipliers_failed(err, predictor_err, out);
  return true;
}

// Why Newton on the position multipliers found no solution: the step's failure, and false.
bool RattleStep::position_multipliers_failed(double err, double predictor_err, Result& out) const {
  if (!std::isfinite(err)) return fail(out, StepFailure::Kind::Diverged, "constraint residual is non-finite (NaN/Inf)");
  if (predictor_err > 0.1) return outgrown_step(predictor_err, "Newton on the multipliers", out);
  return fail(out, StepFailure::Kind::SolverFailed,
              "Newton on the position multipliers did not reach newton_tol in " + std::to_string(max_newton_iters_) +
                  " iterations (relative constraint residual " + format_g(err, 3) + ", from " +
                  format_g(predictor_err, 3) + " at the free flight q_k + h v_k): no solution of the step's "
                  "position equations found near it at this h");
}

// v_{k+1} from v_{k+1/2} (the file's header: "Velocity multipliers", "Velocity-dependent forces").
bool RattleStep::second_half_kick(double t, double h, Result& out) {
  // Velocities: the second half kick and the projection onto G(q_{k+1}) v = 0. A force that
  // depends on v is taken at v_{k+1}, the mirror image of the first kick's v_k, by fixed-point
  // iteration from v_{k+1/2} (each pass one structured solve; it contracts by h/2 |M^-1 df/dv|,
  // 2e-3 per pass for the tether's damping at its case step); see the header for why.
  if (!solver_->factor(q_, q_))
    return fail(out, StepFailure::Kind::SolverFailed, "singular constraint matrix G M^-1 G^T at q_{k+1}");
  if (m_ > 0) {
    form_.constraint_jacobian_times(q_, vhalf_, Gv_);
    s_ = -Gv_;
  }
  const bool implicit_in_v = form_.force_depends_on_velocity();
  v1_ = vhalf_;
  double change = 0.0;
  for (int it = 0;; ++it) {
    form_.force(t + h, q_, v1_, f_);
    if (!book_force_evaluation(out)) return false;
    r_ = 0.5 * h * f_;
    solver_->solve(r_, s_, x_, lambda_);
    const double previous_change = change;
    change = (vhalf_ + x_ - v1_).lpNorm<Eigen::Infinity>();
    v1_ = vhalf_ + x_;
    if (!implicit_in_v) break;
    const double size = v1_.lpNorm<Eigen::Infinity>();
    // Converged at round-off, or no longer shrinking there.
    if (change <= 1e-15 * size || (it > 0 && change >= 0.5 * previous_change && change <= 1e-12 * size)) break;
    if (!std::isfinite(change))
      return fail(out, StepFailure::Kind::Diverged, "velocity iterate is non-finite (NaN/Inf)");
    if (it + 1 >= max_newton_iters_)
      return fail(out, StepFailure::Kind::SolverFailed,
                  "the second half kick's velocity-dependent force did not converge in " +
                      std::to_string(max_newton_iters_) + " fixed-point passes (last change " + format_g(change, 3) +
                      " of |v| " + format_g(size, 3) + "): h/2 |M^-1 df/dv| is not below 1 at this h");
  }
  return true;
}

// y_{k+1} = [q_{k+1}, v_{k+1}, W_{k+1}] (both forms of the step); the step fails if it is non-finite.
void RattleStep::write_next_state(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next,
                                  Result& out) {
  y_next.resize(2 * n_ + w_);
  y_next.head(n_) = q_;
  y_next.segment(n_, n_) = v1_;
  work_.advance(t, h, q0_, v0_, q_, v1_, y, y_next);  // W' = P(t, q, v), trapezoidal (work_terms.hpp)
  if (!y_next.allFinite()) fail(out, StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)");
}

RattleStep::Result RattleStep::step_configuration_dependent_mass(double t, double h, const Eigen::VectorXd& y,
                                                                 Eigen::VectorXd& y_next) {
  Result out;
  q0_ = y.head(n_);
  v0_ = y.segment(n_, n_);
  s_.setZero(m_);
  form_.applied_force(t, q0_, v0_, f_);
  if (!book_force_evaluation(out)) return out;
  if (!solve_positions_configuration_dependent_mass(h, out)) return out;
  dq_ = h * v0_ + X_;
  vbar_ = dq_ / h;
  if (!second_half_kick_configuration_dependent_mass(t, h, out)) return out;
  write_next_state(t, h, y, y_next, out);
  return out;
}

// q_{k+1} and Lambda by simplified Newton on (r, g) (the file's header: "Positions: unknowns X").
bool RattleStep::solve_positions_configuration_dependent_mass(double h, Result& out) {
  // |M(q_k) 1|: times eps |X|_inf, the residual that the solves' norm-wise round-off in X makes
  // (part of each row's floor, so that rows whose terms all vanish, a body at rest, are judged
  // converged at the accuracy of the solution, not at 0).
  form_.mass_times_at(q0_, Eigen::VectorXd::Ones(n_), mass_row_sums_);
  mass_row_sums_ = mass_row_sums_.cwiseAbs();
  X_.setZero(n_);
  q_ = q0_ + h * v0_;
  lambda_sum_.setZero(m_);
  double g_err = constraint_error(q_);
  const double predictor_err = g_err;
  double r_err = 0.0, previous_r = 0.0, previous_g = 0.0;
  bool converged = false;
  for (int it = 0; it < max_newton_iters_; ++it) {
    if (const std::string why = form_.why_not_admissible(q_); !why.empty())
      return fail(out, StepFailure::Kind::SolverFailed, "the step's configuration left the form's domain: " + why);
    momentum_residual(h);
    if (!r_.allFinite()) return fail(out, StepFailure::Kind::Diverged, "momentum residual is non-finite (NaN/Inf)");
    previous_r = r_err;
    r_err = momentum_residual_over_floor();
    previous_g = g_err;
    g_err = constraint_error(q_);
    if (!std::isfinite(g_err))
      return fail(out, StepFailure::Kind::Diverged, "constraint residual is non-finite (NaN/Inf)");
    // Converged: the constraints at the tolerance and the momentum rows at their floor, or both
    // no longer falling near there (round-off).
    if ((g_err <= newton_tol_ && r_err <= 1.0) ||
        (it > 0 && r_err <= 1e3 && r_err >= 0.5 * previous_r && g_err <= 1e-10 &&
         (g_err <= newton_tol_ || g_err >= 0.5 * previous_g))) {
      converged = true;
      break;
    }
    if (!correct_positions(h, out)) return false;
  }
  if (!converged) return positions_and_multipliers_failed(g_err, r_err, predictor_err, out);
  return true;
}

// A free flight that already breaks the constraints by a tenth of their size means the velocities
// have outgrown the step: a rotation at fixed length by h|v| leaves the constraint by (h|v|/l)^2, so
// the step moves the points by about sqrt(that) of their size (referee point R6: 1.64, 1.16, 1.06 on
// the free rigid body are (h|Omega|)^2, h|Omega| ~ 1; no claim of h w > 2 is measured there). A
// stability result at this h, not a limit of the solver (`solver` names the Newton iteration that
// found nothing near it).
bool RattleStep::outgrown_step(double predictor_err, const std::string& solver, Result& out) const {
  return fail(out, StepFailure::Kind::Diverged,
              "the free flight q_k + h v_k violates the constraints by " + format_g(predictor_err, 3) + " of their size and " +
                  solver + " finds no solution near it (the motion has outgrown the step: in one step the free flight "
                  "moves the constrained points by about " + format_g(std::sqrt(predictor_err), 3) +
                  " of the constraints' size, whose square a rotation at fixed length leaves them by)");
}

// Why Newton on the positions and multipliers found no solution: the step's failure, and false.
bool RattleStep::positions_and_multipliers_failed(double g_err, double r_err, double predictor_err,
                                                  Result& out) const {
  if (predictor_err > 0.1) return outgrown_step(predictor_err, "Newton", out);
  return fail(out, StepFailure::Kind::SolverFailed,
              "Newton on the positions and multipliers did not converge in " + std::to_string(max_newton_iters_) +
                  " iterations (relative constraint residual " + format_g(g_err, 3) +
                  ", momentum residual " + format_g(r_err, 3) + " x its round-off floor)");
}

// r and its terms' magnitudes at the iterate (X_, lambda_sum_), into r_ and S_.
void RattleStep::momentum_residual(double h) {
  dq_ = h * v0_ + X_;
  vbar_ = dq_ / h;
  form_.mass_times_at(q0_, X_, MX_);
  form_.mass_change_times(q0_, dq_, dq_, dMdq_);
  form_.kinetic_gradient(q0_, vbar_, Tq_);
  if (m_ > 0) form_.constraint_jacobian_transpose_times(q0_, lambda_sum_, GTl_);
  else GTl_.setZero(n_);
  r_ = MX_ + 0.5 * dMdq_ - 0.5 * h * h * (Tq_ + f_) + GTl_;
  S_ = MX_.cwiseAbs() + 0.5 * dMdq_.cwiseAbs() + 0.5 * h * h * (Tq_.cwiseAbs() + f_.cwiseAbs()) + GTl_.cwiseAbs() +
       mass_row_sums_ * X_.lpNorm<Eigen::Infinity>();
}

// max_i |r_i| over its round-off floor 8 eps S_i: at most 1 when every row is at its floor.
double RattleStep::momentum_residual_over_floor() const {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  double r_err = 0.0;
  for (int i = 0; i < n_; ++i) r_err = std::max(r_err, std::abs(r_(i)) / (8.0 * eps * S_(i) + 1e-300));
  return r_err;
}

// One simplified Newton correction of X and Lambda, with the matrix at (q^i, q_k).
bool RattleStep::correct_positions(double h, Result& out) {
  if (!solver_->factor(q_, q0_))
    return fail(out, StepFailure::Kind::SolverFailed,
                "singular Newton matrix [M(q), G(q_k)^T; G(q), 0] (the mass matrix at the iterate, or a constraint "
                "gradient turned perpendicular to its previous direction within the step)");
  if (m_ > 0) s_ = -g_;
  solver_->solve(-r_, s_, x_, lambda_);
  ++out.newton_iters;
  if (!x_.allFinite()) return fail(out, StepFailure::Kind::Diverged, "Newton correction is non-finite (NaN/Inf)");
  X_ += x_;
  q_ = q0_ + h * v0_ + X_;
  if (m_ > 0) lambda_sum_ += lambda_;
  return true;
}

// v_{k+1} = vbar + x with M(q_{k+1}) (the file's header: "Velocities: v_{k+1} = vbar + x").
bool RattleStep::second_half_kick_configuration_dependent_mass(double t, double h, Result& out) {
  // Velocities.
  if (!solver_->factor(q_, q_))
    return fail(out, StepFailure::Kind::SolverFailed, "singular matrix [M, G^T; G, 0] at q_{k+1}");
  if (m_ > 0) {
    form_.constraint_jacobian_times(q_, vbar_, Gv_);
    s_ = -Gv_;
  }
  form_.mass_change_times(q0_, dq_, vbar_, dMdq_);
  form_.kinetic_gradient(q_, vbar_, Tq_);
  base_ = -0.5 * dMdq_ + 0.5 * h * Tq_;
  v1_ = vbar_;
  double change = 0.0;
  for (int it = 0;; ++it) {
    form_.applied_force(t + h, q_, v1_, f_);
    if (!book_force_evaluation(out)) return false;
    r_ = base_ + 0.5 * h * f_;
    solver_->solve(r_, s_, x_, lambda_);
    const double previous_change = change;
    change = (vbar_ + x_ - v1_).lpNorm<Eigen::Infinity>();
    v1_ = vbar_ + x_;
    if (!form_.force_depends_on_velocity()) break;
    const double size = v1_.lpNorm<Eigen::Infinity>();
    if (change <= 1e-15 * size || (it > 0 && change >= 0.5 * previous_change && change <= 1e-12 * size)) break;
    if (!std::isfinite(change))
      return fail(out, StepFailure::Kind::Diverged, "velocity iterate is non-finite (NaN/Inf)");
    if (it + 1 >= max_newton_iters_)
      return fail(out, StepFailure::Kind::SolverFailed,
                  "the second half kick's velocity-dependent force did not converge in " +
                      std::to_string(max_newton_iters_) + " fixed-point passes (last change " + format_g(change, 3) +
                      " of |v| " + format_g(size, 3) + ")");
  }
  return true;
}

}  // namespace tb
