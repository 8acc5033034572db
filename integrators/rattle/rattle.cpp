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
// Non-conservative forces. The bundled models' forces are conservative (Model C's thrust is a
// constant force with potential -f.X_Q). A force that depends on v is evaluated at v_k in
// the first kick and at v_{k+1/2} in the second: explicit and still of order 2, but no longer
// symmetric nor symplectic (force_depends_on_velocity() says where that applies).

#include "integrators/rattle/rattle.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"

namespace tb {

RattleStep::RattleStep(const ConstrainedMechanicalFormulation& form, double newton_tol, int max_newton_iters)
    : form_(form),
      solver_(form.make_solver()),
      newton_tol_(newton_tol),
      max_newton_iters_(max_newton_iters),
      n_(form.positions()),
      m_(form.constraints()) {
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
  v0_ = y.tail(n_);
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

  // Velocities: the projection onto G(q_{k+1}) v = 0 with the second half kick.
  form_.force(t + h, q_, vhalf_, f_);
  ++out.force_evals;
  if (!f_.allFinite()) return fail(StepFailure::Kind::Diverged, "force is non-finite (NaN/Inf)");
  if (!solver_->factor(q_, q_))
    return fail(StepFailure::Kind::SolverFailed, "singular constraint matrix G M^-1 G^T at q_{k+1}");
  if (m_ > 0) {
    form_.constraint_jacobian_times(q_, vhalf_, Gv_);
    s_ = -Gv_;
  }
  r_ = 0.5 * h * f_;
  solver_->solve(r_, s_, x_, lambda_);
  y_next.resize(2 * n_);
  y_next.head(n_) = q_;
  y_next.tail(n_) = vhalf_ + x_;
  if (!y_next.allFinite()) return fail(StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)");
  return out;
}

namespace {

class RattleStepper final : public TimeStepper {
 public:
  RattleStepper(const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, form.initial_state()),
        step_(form, s.get("newton_tol"), s.get_int("max_newton_iters")),
        h_(s.h),
        t0_(t0) {}

  bool step(double t_stop, StepFailure& failure) override {
    return take_fixed_step(t0_, h_, t_stop, next_, failure, [&](double h, Eigen::VectorXd& next, StepFailure& f) {
      const RattleStep::Result r = step_.step(t_, h, y_, next);
      counters_.newton_iters += r.newton_iters;
      counters_.rhs_evals += r.force_evals;
      if (!r.ok) f = r.failure;
      return r.ok;
    });
  }

 private:
  RattleStep step_;
  double h_, t0_;
  Eigen::VectorXd next_;
};

}  // namespace

std::vector<SettingSpec> rattle_newton_settings() {
  return {positive_setting("newton_tol",
                           "Newton on the position multipliers stops when max |g_i| / (size of constraint i) <= "
                           "newton_tol (or the residual stops falling below 1e-10: round-off)",
                           1e-14),
          positive_integer_setting("max_newton_iters", "Newton iterations before the step is declared failed", 25)};
}

IntegratorInfo rattle_info() {
  return {"rattle", FormulationKind::ConstrainedMechanical, 2, false,
          "RATTLE: constrained Stoermer-Verlet in natural coordinates (R as 9 numbers), Newton on the multipliers "
          "with the model's structured solver",
          rattle_newton_settings(),
          [](const Formulation& f, const IntegratorSettings& s, double t0) -> std::unique_ptr<TimeStepper> {
            return std::make_unique<RattleStepper>(dynamic_cast<const ConstrainedMechanicalFormulation&>(f), s, t0);
          }};
}

}  // namespace tb
