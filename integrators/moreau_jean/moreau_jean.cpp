// Moreau-Jean time-stepping (Moreau 1988, "Unilateral contact and dry friction in finite freedom
// dynamics", CISM 302, § 8, the midpoint "sweeping" scheme; Jean 1999, "The non-smooth contact
// dynamics method", CMAME 177, § 3; Acary & Brogliato 2008, Numerical Methods for Nonsmooth
// Dynamical Systems, § 10.1, θ = 1/2 on the positions), the nonsmooth-mechanics community's
// reference, at the velocity level. One step from (q_k, v_k):
//   q_m   = q_k + h/2 v_k                                  (the midpoint configuration)
//   v_free = v_k + h M^-1 f(t_k + h/2, q_m, v_k)           (the smooth impulse over the step)
//   I     = { i : g_i(q_m) >= 0 }                           (links predicted at or beyond their length)
//   M (v_k+1 - v_free) = -G(q_m)^T P,  0 <= P_i ⊥ -(G_i v_k+1 + e G_i v_k) >= 0  (i in I)
//   q_k+1 = q_m + h/2 v_k+1.
// P is the whole impulse of the step, the taut links' tension times h as well as an impact's: the
// scheme never tells the two apart, so one step both catches a snap and holds a taut link. The
// impulse problem is solved with the form's structured solver (core/unilateral_impulse.hpp). With
// I empty the step is the leapfrog (drift-kick-drift Stoermer-Verlet) of the free flight, exact for
// a mass under gravity; with a link in I the constraint holds at the velocity level only (at q_m),
// so its length drifts, a position error of O(h) over a taut phase that the overstretch column
// measures. Order 1 across impacts (the impact's time is resolved to O(h)).
//
// The energy balance: at each step where a link closes (in I, opening at the start, G_i v_k > 0,
// and carrying no impulse the step before), the energy the step's impulse took is added to the
// form's first work term (ConstrainedMechanicalFormulation::unilateral): E at the step's end without
// the impulse (q_m + h/2 v_free, v_free) less E at its end (core/unilateral_impulse.hpp
// energy_taken_by_impulses), the snap as the scheme applied it. E - E0 - W is then the scheme's
// smooth error; how far its snap is from Newton's law the snap study measures apart.

#include "integrators/moreau_jean/moreau_jean.hpp"
#include "integrators/unilateral_scheme_requirements.hpp"

#include <cmath>

#include "core/fixed_step.hpp"
#include "core/format.hpp"
#include "core/unilateral_impulse.hpp"
#include "integrators/work_terms.hpp"

namespace tb {

namespace {

class MoreauJeanStepper final : public FixedStepStepper {
 public:
  MoreauJeanStepper(const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0)
      : FixedStepStepper(t0, s.h, form.initial_state()),
        form_(form),
        n_(form.positions()),
        m_(form.constraints()),
        solver_(form.make_solver()),
        work_(form),
        equality_(equality_rows(form)) {
    // A link that starts at its length carries its tension from the first step: no closing there.
    Eigen::VectorXd g;
    form_.constraint(y_.head(n_), g);
    const Eigen::VectorXd scale = form_.constraint_scale();
    engaged_.assign(m_, false);
    for (int i = 0; i < m_; ++i) engaged_[i] = g[i] >= -1e-12 * scale[i];
  }

 private:
  bool advance(double h, Eigen::VectorXd& next, StepFailure& failure) override {
    const Eigen::VectorXd q = y_.head(n_), v = y_.segment(n_, n_);
    const Eigen::VectorXd q_m = q + 0.5 * h * v;
    form_.force(t_ + 0.5 * h, q_m, v, f_);
    ++counters_.rhs_evals;
    // v_free = v_k + h M^-1 f: the saddle-point solver with no one-sided constraint active (the
    // equalities, if any, kept at the velocity level: G_i v_free = 0 at q_m).
    if (!solver_->factor_active(q_m, q_m, equality_)) {
      failure = {StepFailure::Kind::SolverFailed, "the form's solver cannot factor the mass matrix without its one-sided constraints"};
      return false;
    }
    Eigen::VectorXd dv, unused;
    solver_->solve(h * f_, Eigen::VectorXd::Zero(m_), dv, unused);
    const Eigen::VectorXd v_free = v + dv;
    Eigen::VectorXd g, Gv;
    form_.constraint(q_m, g);
    form_.constraint_jacobian_times(q_m, v, Gv);
    std::vector<bool> at_limit(m_);
    bool any_closing = false;
    for (int i = 0; i < m_; ++i) {
      at_limit[i] = g[i] >= 0.0;
      any_closing = any_closing || (at_limit[i] && !equality_[i] && Gv[i] > 0.0 && !engaged_[i]);
    }
    const ImpulseSolution step = solve_impulses(form_, *solver_, q_m, v_free, v, form_.restitution(), at_limit);
    if (!step.ok) {
      failure = {StepFailure::Kind::SolverFailed, step.why_not};
      return false;
    }
    next.resize(y_.size());
    next.head(n_) = q_m + 0.5 * h * step.v_plus;
    next.segment(n_, n_) = step.v_plus;
    if (!all_finite(next.head(2 * n_))) {
      failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
      return false;
    }
    if (std::string why = form_.why_not_admissible(next.head(n_)); !why.empty()) {
      failure = {StepFailure::Kind::Diverged, why};
      return false;
    }
    work_.advance(t_, h, q, v, next.head(n_), step.v_plus, y_, next);
    if (any_closing) next[2 * n_] += energy_taken_by_impulses(form_, t_ + h, next, q_m + 0.5 * h * v_free, v_free);
    // The step's record (TimeStepper::applied_impacts): the impulse problem is posed at q_m, so the
    // impact it applies stands for the time t_k + h/2 (a snap at θh, θ < 1/2, is caught there, τ = (1/2 − θ) h).
    note_impact(t_ + 0.5 * h, AppliedImpact::Kind::AtStepMidpoint, closed_link_list(form_, step, engaged_));
    engaged_ = step.active;
    return true;
  }

  const ConstrainedMechanicalFormulation& form_;
  const int n_, m_;
  std::unique_ptr<ConstrainedMechanicalSolver> solver_;
  TrapezoidalWork work_;
  std::vector<bool> equality_;  // the form's equality rows (always active)
  std::vector<bool> engaged_;   // the links that carried an impulse in the last step
  Eigen::VectorXd f_;
};

}  // namespace

IntegratorInfo moreau_jean_info() {
  IntegratorInfo info{"moreau_jean", 1, false, MethodTraits{},
                      "Moreau-Jean time-stepping: midpoint positions, a velocity-level impulse problem with Newton's impact "
                      "law each step (unilateral constraints only)",
                      {},
                      consuming([](const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0) {
                        return std::make_unique<MoreauJeanStepper>(form, s, t0);
                      })};
  info.why_not = [](const Formulation& f) -> std::string {
    const auto& form = static_cast<const ConstrainedMechanicalFormulation&>(f);
    return why_not_unilateral_scheme(form, "Moreau-Jean's impulses are one-sided, P >= 0,");
  };
  info.impacts_by = "a velocity-level impulse problem every step (an LCP by principal pivoting) with Newton's impact law";
  return info;
}

}  // namespace tb
