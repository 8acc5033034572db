// Nonsmooth RATTLE: RATTLE (Andersen 1983; Hairer, Lubich & Wanner, Geometric Numerical
// Integration, VII.1 eq. (1.26)) with its constraints as inequalities (issue 48; the treatment of
// RATTLE's two projections as complementarity problems follows the nonsmooth RATTLE that cardillo
// runs beside Moreau and nonsmooth generalized-alpha). One step from (q_k, v_k):
//   positions:  q_k+1 = q_k + h v_k + h^2/2 M^-1 (f_k - G(q_k)^T L),
//               0 <= L_i ⊥ -g_i(q_k+1) >= 0                    (SHAKE's projection, one-sided)
//   half step:  v_k+1/2 = (q_k+1 - q_k) / h, formed as v_k + X / h from the displacement X
//   velocities: v_k+1 = v_k+1/2 + h/2 M^-1 f_k+1 - M^-1 G(q_k+1)^T P,
//               0 <= P_i ⊥ -(G_i v_k+1 + e G_i v_k) >= 0        (i at its length at q_k+1: Moreau's
//               impact problem, core/unilateral_impulse.hpp)
// The position problem is a nonlinear complementarity problem in L: solved by an active set over the
// links (Murty's least-index rule) with RATTLE's Newton on the active
// multipliers inside, each Newton iteration one structured saddle-point solve on the active set
// (ConstrainedMechanicalSolver::factor_active). So no link ever ends a step beyond its length (to
// newton_tol), and no link at its length ends a step opening beyond it: the position drift of
// Moreau-Jean's velocity-level scheme is absent. In a phase where the active set does not change
// and its impulses stay positive (a taut link, forward in time) it is RATTLE: second order and
// symplectic on the constraint manifold (its declared order and traits); a step back is not
// RATTLE's, and the method is not symmetric (nonsmooth_rattle_info). A snap inside a step is not
// located: with a rebound (e > 0) the velocity -e v_r is applied at the step's end instead of at
// the impact, a position error e v_r theta h (theta the impact's place in the step), so first
// order across such an impact; with e = 0 the snap study measures second order on its cases
// (snap.md), which this file does not derive.
//
// Where the position problem has no solution. SHAKE's equations put the multipliers' forces along
// the link directions at q_k, and the links' squared lengths at q_k+1 are quadratic in them:
// g_i(q_free - M^-1 G(q_k)^T L) = g_i(q_free) - G_i(q_free) M^-1 G(q_k)^T L + |D_i M^-1 G(q_k)^T L|^2 / 2
// (D_i the difference of link i's two joints). The last term only lengthens. For a given state
// a solution exists only below some step (Hairer-Lubich-Wanner VII.1, existence for h small),
// and that step shrinks where the free flight's excess g_i(q_free) ~ h^2 |v_i - v_i-1|^2 / 2 is
// large against what the correction can take before its quadratic part wins. Model C's joints are
// light against the links' tension across the chain (its mass matrix puts each link's mass at the
// link's centre, so a joint's transverse zigzag has an effective mass of 1.2e-4 kg against 2.5e-3
// kg on the diagonal): a taut cable whipping straight after its last snap (C_single_snap at
// t = 0.176 s, a tension spike of ~16 kN and ~24 us half-width in the exact taut dynamics) has no
// SHAKE step at h = 2.5e-4 (and none with any subset of the links held: a complementarity
// problem without a solution) though the step from the same state exists at h = 2.0e-4; the
// runs at h = 1e-3 ... 3.125e-5 all stop at the spike (t = 0.175 ... 0.1762 s), 1.5625e-5 runs
// through. No active set, starting guess or iteration count helps there; the step says so when
// Newton does not settle (integrators/one_sided_positions.cpp) instead of blaming its iteration count.
//
// The energy balance books, at each step where a link closes (at its length at q_k+1, carrying
// no multiplier the step before, and approached: G_i(q_k+1) v_k > 0), the energy the step's
// multipliers took: E at the free Stoermer-Verlet step's end less E at the step's end
// (core/unilateral_impulse.hpp energy_taken_by_impulses); the rest of E - E0 - W is the scheme's
// smooth error.

#include "integrators/nonsmooth_rattle/nonsmooth_rattle.hpp"

#include <cmath>

#include "core/fixed_step.hpp"
#include "core/format.hpp"
#include "core/unilateral_impulse.hpp"
#include "integrators/one_sided_positions.hpp"
#include "integrators/rattle_step.hpp"
#include "integrators/step_end_impulses.hpp"
#include "integrators/unilateral_scheme_requirements.hpp"
#include "integrators/work_terms.hpp"

namespace tb {

namespace {

class NonsmoothRattleStepper final : public FixedStepStepper {
 public:
  NonsmoothRattleStepper(const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0)
      : FixedStepStepper(t0, s.h, form.initial_state()),
        form_(form),
        n_(form.positions()),
        m_(form.constraints()),
        newton_tol_(s.get("newton_tol")),
        max_newton_iters_(s.get_int("max_newton_iters")),
        solver_(form.make_solver()),
        positions_(form, *solver_, newton_tol_, max_newton_iters_, "the free flight"),
        work_(form),
        equality_(equality_rows(form)) {
    scale_inverse_ = form.constraint_scale().cwiseInverse();
    Eigen::VectorXd g;
    form_.constraint(y_.head(n_), g);
    engaged_.assign(m_, false);
    for (int i = 0; i < m_; ++i) engaged_[i] = g[i] * scale_inverse_[i] >= -newton_tol_;
  }

 private:
  bool advance(double h, Eigen::VectorXd& next, StepFailure& failure) override {
    q0_ = y_.head(n_);
    v0_ = y_.segment(n_, n_);
    form_.force(t_, q0_, v0_, f_);
    ++counters_.rhs_evals;
    // Positions: the active set of the one-sided projection, from the links the free flight (no
    // multiplier) carries beyond their length and those that carried a multiplier or an impulse the
    // step before (a taut chain stays mostly taut from one step to the next). Started from the free
    // flight's alone, the least-index rule flipped one link a pass and needed more than 4 m + 8
    // passes on the ten-link cable at h = 7.8e-6 s (C_single_snap, 0.1654 s, a shock running down
    // six links): there the previous step's set is a pass or two from the solution. Where both
    // starts settle they reach the same set (the steps from 1e-3 to 1.56e-5 s and the cooperative
    // case's give the same snap table to every digit printed).
    std::vector<bool> active(m_, false);
    {
      if (!solver_->factor_active(q0_, q0_, equality_)) {
        failure = {StepFailure::Kind::SolverFailed, "the form's solver cannot factor the mass matrix without its one-sided constraints"};
        return false;
      }
      Eigen::VectorXd a, unused;
      solver_->solve(f_, Eigen::VectorXd::Zero(m_), a, unused);
      half_kick0_ = 0.5 * h * a;
      form_.constraint(q0_ + h * v0_ + 0.5 * h * h * a, g_);
      for (int i = 0; i < m_; ++i) active[i] = equality_[i] || g_[i] > 0.0 || engaged_[i];
    }
    const Eigen::VectorXd q_free = q0_ + h * v0_ + h * half_kick0_;
    if (!positions_.solve(q0_ + h * v0_, 0.5 * h * h * f_, q0_, q_free, active, counters_, failure)) return false;
    q_ = positions_.configuration();
    X_ = positions_.displacement();
    L_ = positions_.multipliers();
    if (std::string why = form_.why_not_admissible(q_); !why.empty()) {
      failure = {StepFailure::Kind::Diverged, why};
      return false;
    }
    // v_k+1/2 from the displacement (increment form), then the second half kick without impulse.
    const Eigen::VectorXd v_half = v0_ + X_ / h;
    form_.force(t_ + h, q_, v_half, f1_);
    ++counters_.rhs_evals;
    if (!solver_->factor_active(q_, q_, equality_)) {
      failure = {StepFailure::Kind::SolverFailed, "the form's solver cannot factor the mass matrix without its one-sided constraints"};
      return false;
    }
    Eigen::VectorXd kick, unused;
    solver_->solve(0.5 * h * f1_, Eigen::VectorXd::Zero(m_), kick, unused);
    const Eigen::VectorXd v_free = v_half + kick;
    // Velocities: Moreau's impact problem on the links at their length at q_k+1.
    StepEndImpulses end;
    if (!impulses_at_step_end(form_, *solver_, q_, v_free, v0_, engaged_, newton_tol_, next, end, failure)) return false;
    const ImpulseSolution& vel = end.impulses;
    work_.advance(t_, h, q0_, v0_, q_, vel.v_plus, y_, next);
    if (end.closing) {
      // The step without its multipliers: the free Stoermer-Verlet step from (q_k, v_k).
      form_.force(t_ + h, q_free, v0_ + 2.0 * half_kick0_, f1_);
      ++counters_.rhs_evals;
      Eigen::VectorXd kick1;
      solver_->factor_active(q_free, q_free, equality_);
      solver_->solve(0.5 * h * f1_, Eigen::VectorXd::Zero(m_), kick1, unused);
      next[2 * n_] += energy_taken_by_impulses(form_, t_ + h, next, q_free, v0_ + half_kick0_ + kick1);
    }
    note_impact(t_ + h, AppliedImpact::Kind::AtStepEnd, end.closed);
    for (int i = 0; i < m_; ++i) engaged_[i] = (active[i] && L_[i] > 0.0) || vel.active[i];
    return true;
  }

  const ConstrainedMechanicalFormulation& form_;
  const int n_, m_;
  const double newton_tol_;
  const int max_newton_iters_;
  std::unique_ptr<ConstrainedMechanicalSolver> solver_;
  OneSidedPositionProjection positions_;  // the position stage (integrators/one_sided_positions.hpp)
  TrapezoidalWork work_;
  Eigen::VectorXd scale_inverse_, q0_, v0_, f_, f1_, q_, X_, L_, g_, half_kick0_;
  std::vector<bool> equality_;  // the form's equality rows (always active)
  std::vector<bool> engaged_;   // the links that carried a multiplier or an impulse in the last step
};

}  // namespace

IntegratorInfo nonsmooth_rattle_info() {
  // Its order and symplecticity are RATTLE's, those of a phase whose active set holds (the
  // conformance checks run a taut swing). Not symmetric: its velocity law is one-sided (an impulse
  // only against an outward rate), and a step back with -h turns the rates' signs, so the step back
  // from a taut swing takes no impulse where the step took one (measured: it returns to 37 % of
  // the step's motion at h = 1e-3 s, the miss falling like h). Across an impact nothing is
  // promised: the snap study measures what it does there.
  IntegratorInfo info{"nonsmooth_rattle", 2, false, MethodTraits{.implicit = true, .symplectic = true},
                      "nonsmooth RATTLE: RATTLE's position and velocity projections as complementarity problems (one-sided "
                      "links, Newton's impact law), active sets on the form's structured solver (unilateral constraints only)",
                      rattle_newton_settings(),
                      consuming([](const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0) {
                        return std::make_unique<NonsmoothRattleStepper>(form, s, t0);
                      })};
  info.why_not = [](const Formulation& f) -> std::string {
    const auto& form = static_cast<const ConstrainedMechanicalFormulation&>(f);
    return why_not_unilateral_scheme(form, "this method's multipliers are one-sided");
  };
  info.impacts_by = "one-sided position and velocity projections each step (active sets by principal pivoting) with "
                    "Newton's impact law";
  return info;
}

}  // namespace tb
