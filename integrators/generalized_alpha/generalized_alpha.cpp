// Generalized-alpha (Chung & Hulbert, J. Appl. Mech. 60 (1993) 371-375) on the index-3
// constrained mechanical system in natural coordinates (core/formulation.hpp)
//   q' = v,   M v' = f(t, q, v) - G(q)^T lambda,   g(q) = 0,
// as analysed by Arnold & Bruels, "Convergence of the generalized-alpha scheme for constrained
// mechanical systems", Multibody Syst. Dyn. 18 (2007) 185-202 (A-B below), Sect. 2-4.
//
// The scheme (A-B Sect. 2, the generalized-alpha method for constrained systems): with the
// acceleration-like variable a_n and the acceleration qdd_n,
//   M qdd_{n+1} = f(t_{n+1}, q_{n+1}, v_{n+1}) - G(q_{n+1})^T lambda_{n+1},  g(q_{n+1}) = 0  (1)
//   q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1}                      (2)
//   v_{n+1} = v_n + h (1 - gamma) a_n + h gamma a_{n+1}                                   (3)
//   (1 - alpha_m) a_{n+1} + alpha_m a_n = (1 - alpha_f) qdd_{n+1} + alpha_f qdd_n         (4)
// The equations of motion and the position constraints are imposed at t_{n+1} (index 3: g = 0
// holds to the Newton tolerance after every step, no drift); (4) is the "alpha" averaging,
// (2)-(3) Newmark's formulas in a. For the linear oscillator (4) makes it Chung-Hulbert's
// scheme, and the parameters follow from the spectral radius at infinity rho_inf in [0, 1]
// (Chung-Hulbert eqs. (25), (17), (20)):
//   alpha_m = (2 rho_inf - 1)/(rho_inf + 1),  alpha_f = rho_inf/(rho_inf + 1),
//   gamma = 1/2 - alpha_m + alpha_f,          beta = 1/4 (gamma + 1/2)^2,
// second order (gamma = 1/2 - alpha_m + alpha_f), unconditionally stable, with high-frequency
// dissipation maximal and low-frequency dissipation minimal for that rho_inf. rho_inf = 1:
// alpha_m = alpha_f = 1/2, no dissipation (the trapezoidal rule's spectrum); rho_inf = 0: the
// highest modes are annihilated in one step. HHT-alpha (Hilber-Hughes-Taylor 1977) is the
// member with alpha_m = 0, alpha_f = -alpha, alpha in [-1/3, 0] (rho_inf = (1+alpha)/(1-alpha)
// in [1/2, 1]); setting hht = 1 selects it, with alpha from rho_inf (for linear systems the
// averaged accelerations (4) are HHT's averaged forces; for nonlinear f they differ at O(h^2)).
// The spectral radius of the amplification matrix is checked against rho_inf by the tests
// (GeneralizedAlphaParameters::spectral_radius).
//
// Newton (A-B Sect. 2, "Algorithm"; the iteration matrix of Chrono's HHT, Negrut et al. 2007).
// Every quantity at t_{n+1} is a function of q = q_{n+1} by (2)-(4):
//   a(q) = (q - q_n - h v_n - h^2 (1/2 - beta) a_n) / (beta h^2)
//   qdd(q) = ((1 - alpha_m) a(q) + alpha_m a_n - alpha_f qdd_n) / (1 - alpha_f)
//   v(q) = v_n + h (1 - gamma) a_n + h gamma a(q)
// so dqdd/dq = beta' = (1 - alpha_m)/(beta h^2 (1 - alpha_f)) and dv/dq = gamma' = gamma/(beta h).
// The unknowns are (q, lambda); the residual of (1) linearised gives the iteration matrix
//   S = [beta' M + gamma' C_t + K_t, G^T; G, 0],  C_t = -df/dv,  K_t = -df/dq + d(G^T lambda)/dq.
// Scaling (A-B Sect. 5; Bottasso, Bauchau & Cardona 2007): the dynamic rows divided by beta'
// and the multiplier unknown lambda~ = lambda / beta', so that the matrix tends to the
// well-conditioned [M, G^T; G, 0] as h -> 0 (unscaled, its condition grows like h^-4):
//   [M + (gamma'/beta') C_t + K_t/beta', G^T; G, 0] [dq; dlambda~] = -[(M qdd - f)/beta' + G^T lambda~; g(q)].
// The tangents K_f = df/dq, C_f = df/dv and K_g = d(G^T lambda)/dq come from the model as
// entries (ConstrainedMechanicalFormulation, tested against central differences for every
// model); S is assembled sparse and factored by Eigen's SparseLU with the COLAMD fill-reducing
// ordering: on a string or cable (banded, block-tridiagonal M and K, G with a few entries per
// row) that costs O(N) per factorisation (measured, see the report), never a dense inverse.
// Newton from the predictor qdd_{n+1} = qdd_n, lambda_{n+1} = lambda_n. The factorisation is
// kept across iterations and steps while each correction is at most 1/4 of the one before
// (modified Newton: S changes by O(h) per step; a slower contraction counts only above
// 1e-12 of |q|, below which round-off limits it) and refactored at the current iterate
// otherwise, when its rate cannot reach newton_tol in the iterations left, when h changes or
// after a step that needed more than 4 iterations (so where convergence is slow this is full Newton). It stops when |dq|_inf <= newton_tol max(1, |q_n|_inf)
// (with contraction <= 1/4 the remaining error is below newton_tol/3), or at the round-off floor
// (below 1e-12 of |q| the correction no longer falls fourfold: what is left is round-off), and fails with SolverFailed after
// max_newton_iters; a non-finite residual or correction is Diverged. The default newton_tol is
// 1e-15, a few ulp: index 3 determines q_{n+1} and the accelerations follow from it divided by
// beta h^2 (2.5e-9 at h = 1e-4), so an error of 1e-12 in q is 4e-4 in qdd, carried on in a and
// v (measured on Model A: max |dE| 6.3e-5 at 1e-12 against 4.7e-5 at round-off).
//
// Starting values (A-B Sect. 4): with a_0 = qdd(t_0) the errors in v and lambda carry an O(h)
// component (order reduction, decaying only like (-alpha_m/(1-alpha_m))^n ... and not at all for
// rho_inf = 1); A-B's remedy is the perturbed start a_0 = qdd(t_0 + Delta_alpha h) + O(h^2),
// Delta_alpha = alpha_m - alpha_f (their eq. for a_0 = qdd_0 + Delta_alpha h qddd_0). Here
// qdd(t_0 + tau) is the consistent acceleration at the Taylor state
// (q_0 + tau v_0 + tau^2/2 qdd_0, v_0 + tau qdd_0), tau = Delta_alpha h, which is
// qdd(t_0 + tau) + O(tau^2). Consistent accelerations solve
//   [M, G^T; G, 0] [qdd; lambda] = [f; -(dG/dq v) v]
// with the model's structured saddle-point solver; the curvature term (dG/dq v) v is a central
// difference of G(q) v along v, exact for the models' constraints (quadratic g: G linear in q).
//
// Configuration-dependent mass matrix (core/formulation.hpp, mass_depends_on_configuration():
// the moving reel's string mass): (1) reads M(q_{n+1}) qdd_{n+1} = f(t_{n+1}, q_{n+1}, v_{n+1}) -
// G^T lambda_{n+1}, with the velocity-quadratic terms of M(q) in f (Bruels, Cardona & Arnold,
// "Lie group generalized-alpha time integration of constrained flexible multibody systems",
// Mech. Mach. Theory 48 (2012) 121-137, Sect. 2, eqs. (1)-(2): M(q) qdd + g(q, v, t) + B^T lambda
// = 0 with the gyroscopic terms in g). The residual's q-derivative gains d(M(q) qdd)/dq at the
// iterate's qdd, so K_t = -df/dq + d(G^T lambda)/dq + d(M(q) qdd)/dq, and M is taken at the
// iterate where the matrix is factored (the form's mass_entries_at, mass_times_jacobian_entries;
// its solver factors M(q) for the consistent accelerations). The constant-M path is unchanged.
// Each new configuration is checked against the form's domain (why_not_admissible): leaving it
// fails the step with the form's reason.
//
// Non-conservative forces: f(t, q, v) enters (1) at t_{n+1} with C_f in the iteration matrix,
// so a velocity-dependent force (control, viscous damping) keeps the scheme implicit and of
// order 2; the work of dissipative forces (the form's work terms, y = [q, v, W]) is advanced
// by the trapezoidal rule on their power (integrators/work_terms.hpp, shared with RATTLE). Rigid bodies
// keep R as 9 numbers with R^T R - I = 0 among the constraints (natural coordinates, as RATTLE).
// The scheme is neither symplectic nor energy-conserving: with rho_inf < 1 it dissipates, most
// in the modes with h w >> 1 (the cable's zigzag modes); at rho_inf = 1 the energy error
// oscillates at O(h^2) on linear problems.

#include "integrators/generalized_alpha/generalized_alpha.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/fixed_step.hpp"
#include "core/format.hpp"
#include "integrators/started_alpha_stepper.hpp"

namespace tb {

GeneralizedAlphaStep::GeneralizedAlphaStep(const ConstrainedMechanicalFormulation& form,
                                           const GeneralizedAlphaParameters& p, double newton_tol,
                                           int max_newton_iters)
    : form_(form),
      p_(p),
      newton_tol_(newton_tol),
      max_newton_iters_(max_newton_iters),
      n_(form.positions()),
      m_(form.constraints()),
      solver_(form.make_solver()),
      matrix_(form),
      work_terms_(form) {
  if (const std::string why = form.why_not_tangents(); !why.empty()) throw std::invalid_argument(why);
  variable_mass_ = form.mass_depends_on_configuration();
  lambda_.setZero(m_);
}

bool GeneralizedAlphaStep::consistent_acceleration(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                   Eigen::VectorXd& qdd, Eigen::VectorXd& lambda, Result& out) {
  form_.force(t, q, v, f_);
  ++out.force_evals;
  Eigen::VectorXd curvature = Eigen::VectorXd::Zero(m_);
  const double vmax = v.lpNorm<Eigen::Infinity>();
  if (m_ > 0 && vmax > 0.0) {
    // (dG/dq v) v by a central difference of G(q) v along v: exact when G is linear in q.
    const double eps = 1e-2 * std::max(1.0, q.lpNorm<Eigen::Infinity>()) / vmax;
    Eigen::VectorXd Gp, Gm;
    form_.constraint_jacobian_times(q + eps * v, v, Gp);
    form_.constraint_jacobian_times(q - eps * v, v, Gm);
    curvature = (Gp - Gm) / (2.0 * eps);
  }
  if (!solver_->factor(q, q)) return false;
  solver_->solve(f_, -curvature, qdd, lambda);
  return qdd.allFinite() && lambda.allFinite();
}

GeneralizedAlphaStep::Result GeneralizedAlphaStep::start(double t0, const Eigen::VectorXd& y0, double h) {
  Result out;
  const Eigen::VectorXd q0 = y0.head(n_), v0 = y0.segment(n_, n_);
  if (!consistent_acceleration(t0, q0, v0, qdd_, lambda_, out)) {
    out.ok = false;
    out.failure = {StepFailure::Kind::SolverFailed, "no consistent acceleration at t0 (singular [M, G^T; G, 0])"};
    return out;
  }
  // Perturbed start (A-B Sect. 4): a_0 = qdd(t_0 + (alpha_m - alpha_f) h) + O(h^2).
  const double tau = (p_.alpha_m - p_.alpha_f) * h;
  Eigen::VectorXd qdd_tau, lambda_tau;
  if (tau != 0.0 &&
      consistent_acceleration(t0 + tau, q0 + tau * v0 + 0.5 * tau * tau * qdd_, v0 + tau * qdd_, qdd_tau, lambda_tau, out))
    a_ = qdd_tau;
  else
    a_ = qdd_;
  return out;
}

// a, v and qdd at t_{n+1} as functions of q = q_{n+1} by (2)-(4) (the file's header: a(q), qdd(q), v(q)).
void GeneralizedAlphaStep::kinematics(double h, const Eigen::VectorXd& q, Eigen::VectorXd& a, Eigen::VectorXd& v,
                                      Eigen::VectorXd& qdd) const {
  const GeneralizedAlphaParameters& p = p_;
  a = (q - base_) / (p.beta * h * h);
  v = vn_ + h * (1.0 - p.gamma) * a_ + h * p.gamma * a;
  qdd = ((1.0 - p.alpha_m) * a + p.alpha_m * a_ - p.alpha_f * qdd_) / (1.0 - p.alpha_f);
}

GeneralizedAlphaStep::Result GeneralizedAlphaStep::step(double t, double h, const Eigen::VectorXd& y,
                                                        Eigen::VectorXd& y_next) {
  Result out;
  const GeneralizedAlphaParameters& p = p_;
  const double beta_p = (1.0 - p.alpha_m) / (p.beta * h * h * (1.0 - p.alpha_f)), gamma_p = p.gamma / (p.beta * h);
  qn_ = y.head(n_);
  vn_ = y.segment(n_, n_);
  // q = base_ + beta h^2 a: the known part of (2).
  base_ = qn_ + h * vn_ + h * h * (0.5 - p.beta) * a_;
  // Predictor: qdd_{n+1} = qdd_n.
  Eigen::VectorXd a1 = (qdd_ - p.alpha_m * a_) / (1.0 - p.alpha_m), qdd1;
  q_ = base_ + p.beta * h * h * a1;
  Eigen::VectorXd lt = lambda_ / beta_p;  // lambda~
  if (!newton(t, h, beta_p, gamma_p, a1, qdd1, lt, out)) return out;
  kinematics(h, q_, a1, v_, qdd1);
  if (!write_next_state(t, h, y, y_next, out)) return out;
  a_ = a1;
  qdd_ = qdd1;
  lambda_ = beta_p * lt;
  return out;
}

// (q_{n+1}, lambda~) by modified Newton from the predictor in q_ and lt (the file's header: "Newton");
// a1 and qdd1 follow the iterate.
bool GeneralizedAlphaStep::newton(double t, double h, double beta_p, double gamma_p, Eigen::VectorXd& a1,
                                  Eigen::VectorXd& qdd1, Eigen::VectorXd& lt, Result& out) {
  const double t1 = t + h;
  const double q_size = std::max(1.0, qn_.lpNorm<Eigen::Infinity>());
  // The iteration matrix is kept across iterations and steps (modified Newton) while it
  // contracts fast, and refactored at the current iterate when h changed, when the last step
  // needed more than 4 iterations, or when a correction is more than 1/4 of the one before
  // (a stale matrix; refactoring every iteration where convergence is slow is full Newton).
  // (h as t_{n+1} - t_n varies by round-off from step to step: only a real change counts.)
  if (!factored_ || std::abs(h - factored_h_) > 1e-8 * std::abs(h)) refactor_ = true;
  double previous = -1.0, correction = 0.0;  // previous < 0: no earlier correction with this matrix
  double last = -1.0;                         // the last correction, whatever the matrix (round-off floor)
  double earlier = -1.0;                      // the correction before `previous`, with the same matrix
  NewtonHistory history;                      // what a failure reports (newton_failed)
  history.smallest = HUGE_VAL;
  bool converged = false;
  int iters = 0;
  for (int it = 0; it < max_newton_iters_; ++it) {
    kinematics(h, q_, a1, v_, qdd1);
    if (!newton_residual(t1, beta_p, qdd1, lt, out)) return false;
    if (refactor_) {
      factored_ = false;
      if (!matrix_.factor(t1, q_, v_, qdd1, beta_p * lt, beta_p, gamma_p))
        return fail(out, StepFailure::Kind::SolverFailed,
                    "singular iteration matrix [M + gamma'/beta' C_t + K_t/beta', G^T; G, 0] (" +
                        matrix_.last_error() + ")");
      factored_ = true;
      factored_h_ = h;
      refactor_ = false;
      previous = earlier = -1.0;
      ++history.factorizations;
    }
    sol_ = matrix_.solve(rhs_);
    ++out.newton_iters;
    ++iters;
    if (!sol_.allFinite()) return fail(out, StepFailure::Kind::Diverged, "Newton correction is non-finite (NaN/Inf)");
    q_ += sol_.head(n_);
    if (m_ > 0) lt += sol_.tail(m_);
    correction = sol_.head(n_).lpNorm<Eigen::Infinity>() / q_size;
    history.correction = correction;
    history.smallest = std::min(history.smallest, correction);
    history.contractions = {previous > 0.0 && earlier > 0.0 ? previous / earlier : -1.0,
                            previous > 0.0 ? correction / previous : -1.0};
    if (correction <= newton_tol_ || (last > 0.0 && correction >= 0.25 * last && correction <= 1e-12)) {
      converged = true;  // at the tolerance, or at the round-off floor (no longer falling fourfold, and tiny)
      break;
    }
    // Slow contraction means a stale matrix only above the round-off region: below 1e-12 of
    // |q| the residual's round-off limits it and a new factorisation cannot help (on Model C
    // with N = 1000 links that test alone refactored every 2-3 steps: cost O(N^1.5) per step).
    if (previous > 0.0 && correction > 0.25 * previous && correction > 1e-12)
      refactor_ = true, history.refactor_ratio = correction / previous;
    // A rate that cannot bring the correction to newton_tol in the iterations left is a matrix
    // frozen too far from the solution: refactor now (Hairer & Wanner II, IV.8, which predicts the
    // last correction from the rate). Measured on T_elastic_pendulum at h = 0.82: 0.22 per
    // iteration with a matrix factored at a correction of 0.08, 25 iterations ending 3 short of
    // newton_tol, where a matrix factored at every iteration converges quadratically in 7. A
    // step converging fast never meets it (its rate is small and iterations are left).
    const double rate = history.contractions.second;
    const int left = max_newton_iters_ - 1 - it;
    if (!refactor_ && rate > 0.0 && rate < 1.0 && correction > 1e-12 && correction * std::pow(rate, left) > newton_tol_)
      refactor_ = true, history.refactor_ratio = -2.0;
    earlier = previous;
    previous = correction;
    last = correction;
  }
  if (iters > 4) refactor_ = true;
  if (!converged) return newton_failed(history, out);
  return true;
}

// The Newton right-hand side -[(M qdd - f)/beta' + G^T lambda~; g] at the iterate (q_, v_, qdd1, lt)
// into rhs_; false if the step failed there.
bool GeneralizedAlphaStep::newton_residual(double t1, double beta_p, const Eigen::VectorXd& qdd1,
                                           const Eigen::VectorXd& lt, Result& out) {
  if (variable_mass_)
    if (const std::string why = form_.why_not_admissible(q_); !why.empty())
      return fail(out, StepFailure::Kind::SolverFailed, "the step's configuration left the form's domain: " + why);
  form_.force(t1, q_, v_, f_);
  ++out.force_evals;
  if (!f_.allFinite()) return fail(out, StepFailure::Kind::Diverged, "force is non-finite (NaN/Inf)");
  if (variable_mass_) {
    form_.mass_times_at(q_, qdd1, Mq_);
  } else {
    form_.mass_times(qdd1, Mq_);
  }
  rhs_.resize(n_ + m_);
  if (m_ > 0) {
    form_.constraint_jacobian_transpose_times(q_, lt, GTl_);
    form_.constraint(q_, g_);
    rhs_.head(n_) = -((Mq_ - f_) / beta_p + GTl_);
    rhs_.tail(m_) = -g_;
  } else {
    rhs_ = -(Mq_ - f_) / beta_p;
  }
  if (!rhs_.allFinite()) return fail(out, StepFailure::Kind::Diverged, "Newton residual is non-finite (NaN/Inf)");
  return true;
}

// Why Newton found no (q_{n+1}, lambda_{n+1}): the step's failure, and false, with what its last
// corrections with one iteration matrix show (a failed iteration says nothing of whether a
// solution exists, so no message claims that):
// - within 100 machine epsilons of max(1, |q|): the correction is round-off, and newton_tol lies
//   below what the step's equations resolve;
// - two ratios of successive corrections below 1 and within a factor 2 of each other: a steady
//   linear rate (modified Newton's matrix, frozen), with the iterations that rate would still
//   have needed, log(newton_tol / c) / log(theta);
// - one ratio below 1 only: still falling, too few corrections with this matrix for a rate;
// - no ratio (the matrix refactored for the last iteration): no rate to judge;
// - otherwise: not converging from the predictor with this matrix, the corrections growing or oscillating.
bool GeneralizedAlphaStep::newton_failed(const NewtonHistory& history, Result& out) const {
  constexpr double kRoundOff = 100.0 * std::numeric_limits<double>::epsilon();
  const double correction = history.correction;
  const auto [before, last] = history.contractions;
  const bool falling = last > 0.0 && last < 1.0;
  const bool steady = falling && before > 0.0 && before < 1.0 && std::max(before, last) <= 2.0 * std::min(before, last);
  auto ratios = [&] {
    return before > 0.0 ? format_g(before, 3) + " then " + format_g(last, 3) : last > 0.0 ? format_g(last, 3) : std::string("none");
  };
  std::string why;
  if (correction <= kRoundOff) {
    why = ": at round-off (within 100 machine epsilons): newton_tol lies below what the step's equations resolve";
  } else if (steady) {
    const long needed = long(std::max(1.0, std::ceil(std::log(newton_tol_ / correction) / std::log(last))));
    why = ": falling at a steady rate with one iteration matrix (the last two ratios " + ratios() + "); at that rate about " +
          std::to_string(needed) + (needed == 1 ? " more iteration" : " more iterations") + " would have reached newton_tol";
  } else if (falling) {
    why = ": still falling (last ratio " + format_g(last, 3) + "), with too few corrections of one iteration matrix for a rate";
  } else if (last < 0.0) {
    const double r = history.refactor_ratio;
    why = ": no rate with its last matrix, factored for the last iteration " +
          (r > 1.0   ? "after a growing correction (" + format_g(r, 3) + " times the one before)"
           : r > 0.0 ? "after a slow one (" + format_g(r, 3) + " times the one before)"
           : r < -1.5 ? std::string("because its rate could not reach newton_tol in the iterations left")
                      : std::string("at the step's start"));
  } else {
    why = ": not converging with this matrix (the last ratios of its corrections " + ratios() + ": growing or oscillating)";
  }
  why += "; " + std::to_string(history.factorizations) + " factorizations, smallest correction " +
         format_g(history.smallest, 3);
  return fail(out, StepFailure::Kind::SolverFailed,
              "modified Newton on (q_{n+1}, lambda_{n+1}) did not reach newton_tol in " + std::to_string(max_newton_iters_) +
                  " iterations (last correction " + format_g(correction, 3) + " of max(1, |q|))" + why +
                  (m_ > 0 && p_.alpha_m >= 0.5
                       ? " (alpha_m >= 1/2, i.e. rho_inf = 1, on a constrained form: the multipliers' alternating "
                         "mode, root -alpha_m/(1 - alpha_m) of the alpha recursion, is not damped and grows "
                         "(Arnold-Bruels 2007, Sect. 4); use rho_inf < 1)"
                       : ""));
}

// y_{n+1} = [q, v, W] at the converged iterate, W by the trapezoidal rule; false (the step
// diverged) if it is non-finite.
bool GeneralizedAlphaStep::write_next_state(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next,
                                            Result& out) {
  y_next.resize(2 * n_ + work_terms_.terms());
  y_next.head(n_) = q_;
  y_next.segment(n_, n_) = v_;
  work_terms_.advance(t, h, qn_, vn_, q_, v_, y, y_next);
  if (!y_next.allFinite()) return fail(out, StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)");
  return true;
}

namespace {

GeneralizedAlphaParameters parameters_of(const IntegratorSettings& s) {
  const double rho = s.get("rho_inf");
  return s.get_int("hht") == 1 ? GeneralizedAlphaParameters::hht(GeneralizedAlphaParameters::hht_alpha_of(rho))
                               : GeneralizedAlphaParameters::from_rho_inf(rho);
}

}  // namespace

IntegratorInfo generalized_alpha_info() {
  const SettingSpec rho = rho_inf_setting(
      " (on constrained forms the multipliers then drift unstably and Newton fails, Arnold-Bruels Sect. 4)");
  SettingSpec hht{"hht",
                  "1: the HHT-alpha member (alpha_m = 0, alpha = (rho_inf - 1)/(rho_inf + 1), needs rho_inf >= 0.5); 0: "
                  "Chung-Hulbert's optimal generalized-alpha",
                  0.0, 0.0, true, 1.0, true};
  std::vector<SettingSpec> settings = newton_settings(
      "Newton stops when |dq|_inf <= newton_tol max(1, |q_n|_inf) (or the correction stops falling below 1e-12: "
      "round-off); the accelerations carry dq / (beta h^2), so q must be solved to round-off",
      1e-15);
  settings.insert(settings.begin(), {rho, hht});
  IntegratorInfo info{
      "generalized_alpha", 2, false, MethodTraits{.implicit = true, .dissipative = true},
      "generalized-alpha (Chung-Hulbert, rho_inf; HHT-alpha inside) on the index-3 system in natural coordinates "
      "(Arnold-Bruels), Newton with the models' tangents, sparse LU",
      settings,
      consuming([](const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0) {
        return std::make_unique<StartedAlphaStepper<GeneralizedAlphaStep>>(
            t0, s.h, form.initial_state(), form, parameters_of(s), s.get("newton_tol"), s.get_int("max_newton_iters"));
      })};
  // Its Newton matrix needs the form's tangents: a form without them is declined (n/a, with the
  // form's reason), not a run that fails while building its stepper.
  info.why_not = [](const Formulation& form) -> std::string {
    const auto* cm = dynamic_cast<const ConstrainedMechanicalFormulation*>(&form);
    return cm ? cm->why_not_tangents() : std::string("not a constrained mechanical form");
  };
  info.conflict = [](const IntegratorSettings& s) -> IntegratorInfo::SettingConflict {
    if (s.get_int("hht") == 1 && s.get("rho_inf") < 0.5) return {"rho_inf", "a number in [0.5, 1] with hht = 1"};
    return {};
  };
  return info;
}

}  // namespace tb
