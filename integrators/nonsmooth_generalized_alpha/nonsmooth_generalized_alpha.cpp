// Nonsmooth generalized-alpha (issue 48) after Chen, Acary, Virlez & Bruls, "A nonsmooth
// generalized-alpha scheme for flexible multibody systems with unilateral constraints", IJNME 96
// (2013) 487-511 (CAVB below), with the position correction of Bruls, Acary & Cardona,
// "Simultaneous enforcement of constraints at position and velocity levels in the nonsmooth
// generalized-alpha scheme", CMAME 281 (2014) 131-161 (BAC below); a descendant with friction is
// Capobianco, Harsch, Eugster & Leine, IJNME 122 (2021) 6497. The motion is split into a smooth
// part, integrated by the generalized-alpha recursion (Chung & Hulbert 1993; the parameters from
// rho_inf, integrators/alpha_parameters.hpp), and a nonsmooth part, the impulses of the links that
// snap taut and a position correction, which never enter the recursion: a snap moves v and q but
// not the accelerations the recursion carries (CAVB Sect. 3, the velocity split into a smooth part
// and a jump; BAC Sect. 3, the same for the positions).
//
// One step from (q_n, v_n) with the memory wdot_n (the smooth acceleration) and a_n (the
// acceleration-like variable), in this suite's sign convention (g_i <= 0 admissible, the force
// -G^T lambda, lambda >= 0 a tension; core/formulation.hpp):
//  1. smooth stage, the generalized-alpha step of Arnold & Bruels (Multibody Syst. Dyn. 18 (2007)
//     185, Sect. 2: index 3) on the links H held at t_n (at their length, carrying a tension, a
//     position multiplier or an impulse in the step before; the form's equality rows always):
//       (1 - alpha_m) a_n+1 + alpha_m a_n = (1 - alpha_f) wdot_n+1 + alpha_f wdot_n
//       q~ = q_n + h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_n+1
//       v~ = v_n + h (1 - gamma) a_n + h gamma a_n+1
//       M wdot_n+1 = f(t_n+1, q~, v~) - G(q~)^T lambda,   g_i(q~) = 0 (i in A),  lambda_i = 0 (i not in A),
//     A = H less the links whose tension comes out negative (released one at a time, first by
//     index, and the stage solved again: a link opens where its tension falls through 0). Newton
//     on (wdot_n+1, lambda_A), the rows g scaled by beta' so that the matrix is generalized-alpha's
//     [M + (gamma'/beta') C_t + K_t/beta', G_A^T; G_A, 0] (integrators/alpha_iteration_matrix.hpp:
//     q~ and v~ move with wdot by 1/beta' = beta h^2 (1 - alpha_f)/(1 - alpha_m) and gamma'/beta').
//  2. position correction (BAC Sect. 3.2, q = q~ + M^-1 G^T nu with a one-sided nu):
//       q_n+1 = q~ - M^-1 G(q~)^T nu,  0 <= nu_i  ⊥  -g_i(q_n+1) >= 0
//     (integrators/one_sided_positions.hpp), the links in tension in step 1 kept at their length
//     whatever the sign of their nu: no link ends a step beyond its length (to newton_tol).
//  3. velocity jump (CAVB eq. (34); BAC's W = M^-1 G^T Lambda) with Newton's impact law over the
//     links at their length at q_n+1 (core/unilateral_impulse.hpp, Moreau's impact problem):
//       v_n+1 = v~ - M^-1 G(q_n+1)^T Lambda,  0 <= Lambda_i  ⊥  -(G_i v_n+1 + e G_i v_n) >= 0.
//  At a step where a link snaps taut (at its length at q_n+1, not held, approached: G_i v_n > 0),
//  wdot_n+1 is taken again at (q_n+1, v_n+1) from the acceleration-level problem with the new held
//  links (those at their length that did not rebound: a link left moving inwards by its impulse,
//  e > 0, is slack after it) (M wdot = f - G^T lambda, G_i wdot + (dG_i/dt) v = 0, lambda >= 0: the form's curvature),
//  and a_n+1 follows from it by the recursion: the link's tension acts from t_n+1 on, as in BAC's
//  smooth equations imposed at the step's end.
//
// How this differs from the papers, and why. It is the staggered form: BAC solve the three stages
// and their multipliers together (a semismooth Newton on the step's whole complementarity problem)
// with the smooth equations at (q_n+1, v_n+1); here one after the other, the smooth stage at
// (q~, v~), so each stage is a problem the suite's solvers already solve (the alpha Newton, the
// one-sided projection, the impulse problem). And the held links' smooth tensions are fixed at the
// position level (index 3, as the equality constraints of CAVB), where CAVB put the unilateral ones
// at the acceleration level: measured on C_single_snap at h = 2.5e-4, the acceleration-level stage
// (G_i(q~) wdot + (dG_i/dt)(q~, v~) = 0, its curvature quadratic in the unknown through v~) lost its
// solution at 0.124 s and at every step from 1e-3 to 3.9e-6, the position-level one runs to
// 0.191 s there and through at 3.1e-5 and finer; on the pendulum's drop its energy balance between
// switches is 4.6e-5 J against 0.037 J at h = 2e-3.
//
// Order. Second order where no link closes (the smooth stage is generalized-alpha, the corrections
// vanish to Newton's tolerance on the held links); first order across a snap (CAVB Sect. 4): the
// jump acts along the links' directions at q_n+1, not where the impact happened, and on the
// pendulum that direction has turned by v_t tau / l since (tau from the impact to the step's end),
// so the impulse takes v_r v_t tau / l off the tangential speed too and the snap takes
// m v_t^2 v_r tau / l more than Newton's law (to first order in tau; never less). On
// T_pendulum_drop (v_t = 2.38, v_r = 3.17 m/s at the snap, l = 1 m) the snap study measures
// |lost - law on its own state| = 0.0026 J at every step whose end falls tau = 1.45e-4 s after the
// snap (2e-3 ... 2.5e-4), 3.58e-4 J at tau = 2.0e-5 (h = 1.25e-4): the estimate to the digits
// printed; 0.018 J as the root mean square over the snap's place in a 2e-3 s step. nonsmooth
// RATTLE splits its impulse between its two projections and measures second order on these e = 0
// cases; this scheme's declared order is its smooth one.
//
// The energy balance books, at each step where a link closes, the energy the step's corrections
// took: E at (q~, v~) less E at the step's end (core/unilateral_impulse.hpp
// energy_taken_by_impulses). The rest of E - E0 - W is the scheme's smooth error and its
// dissipation (rho_inf < 1 damps the modes with h omega >> 1).
//
// Where it fails. On C_single_snap it fails at h = 1e-3, 2.5e-4, 1.25e-4, 6.25e-5 and 1.56e-5 s
// (not at 5e-4, 3.1e-5, 7.8e-6, 3.9e-6), between 0.176 and 0.192 s, around the whip after the last
// snaps (nonsmooth_rattle.cpp's header; the reference's 6600 N peak at 0.1908 s), in three ways:
// the smooth stage's Newton does not converge (some after releasing a link within the step), the
// position correction's Newton does not, or its active set does not settle. Why is not established:
// Newton failing to converge from the predictor does not show that the step has no solution, and
// no search for one was made here (nonsmooth RATTLE's was: nonsmooth_rattle.cpp). Each failure
// names its stage and the links held; the snap study reports them as results.
//
// Where it gains energy. At the coarser steps on Model C's cables E - E0 - W rises: in the smooth
// stage, at steps where no link closes, never in the corrections (measured by the balance at
// (q~, v~) against the step's start and end: every correction took energy). On C_cooperative_snap
// at h = 1e-3 the step ending at 0.250 s gained 1.84 J with its 15 links held (its corrections took
// 0.098 J), after -0.26 and -0.28 J in the two before, at the reference's tension peak (0.248 s);
// on C_single_snap at 5e-4, +0.13 to +0.25 J a step over 0.1770-0.1785 s. Generalized-alpha's
// numerical dissipation is a property of linear problems; a tension that rises to kN and falls
// within about a step on links of grams (h omega >> 1) is far from one, and nothing bounds the
// smooth stage's energy there (cf. Acary, ZAMM 2016, on alpha methods with contact).

#include "integrators/nonsmooth_generalized_alpha/nonsmooth_generalized_alpha.hpp"

#include <cmath>
#include <limits>

#include "core/fixed_step.hpp"
#include "core/format.hpp"
#include "core/unilateral_impulse.hpp"
#include "integrators/alpha_iteration_matrix.hpp"
#include "integrators/alpha_parameters.hpp"
#include "integrators/one_sided_positions.hpp"
#include "integrators/step_end_impulses.hpp"
#include "integrators/unilateral_scheme_requirements.hpp"
#include "integrators/work_terms.hpp"

namespace tb {

namespace {

class NonsmoothGeneralizedAlphaStepper final : public FixedStepStepper {
 public:
  NonsmoothGeneralizedAlphaStepper(const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0)
      : FixedStepStepper(t0, s.h, form.initial_state()),
        form_(form),
        n_(form.positions()),
        m_(form.constraints()),
        p_(GeneralizedAlphaParameters::from_rho_inf(s.get("rho_inf"))),
        newton_tol_(s.get("newton_tol")),
        max_newton_iters_(s.get_int("max_newton_iters")),
        solver_(form.make_solver()),
        matrix_(form),
        positions_(form, *solver_, newton_tol_, max_newton_iters_, "the smooth stage's configuration"),
        work_(form),
        equality_(equality_rows(form)),
        scale_inverse_(form.constraint_scale().cwiseInverse()) {
    Eigen::VectorXd g;
    form_.constraint(y_.head(n_), g);
    held_.assign(m_, false);
    for (int i = 0; i < m_; ++i) held_[i] = !equality_[i] && g[i] * scale_inverse_[i] >= -newton_tol_;
  }

 private:
  // The acceleration-level problem at (t, q, v) on the structured solver (the start, and the end of
  // a step where a link snapped):
  //   M wdot = f - G_A^T lambda,  G_A wdot + (dG/dt) v = 0,  A settled by least index among the held links.
  bool consistent_acceleration(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& wdot,
                               Eigen::VectorXd& lambda, StepFailure& failure) {
    form_.force(t, q, v, f_);
    ++counters_.rhs_evals;
    form_.constraint_curvature(q, v, H_);
    std::vector<bool> active(m_);
    for (int i = 0; i < m_; ++i) active[i] = equality_[i] || held_[i];
    for (int pivot = 0; pivot <= 4 * m_ + 8; ++pivot) {
      if (!solver_->factor_active(q, q, active)) {
        failure = {StepFailure::Kind::SolverFailed, "singular constraint matrix in the acceleration-level problem of the held links"};
        return false;
      }
      solver_->solve(f_, -H_, wdot, lambda);
      form_.constraint_jacobian_times(q, wdot, Gw_);
      const int flip = acceleration_pivot(active, lambda);
      if (flip < 0) return wdot.allFinite();
      active[flip] = !active[flip];
    }
    failure = {StepFailure::Kind::SolverFailed, "the acceleration-level problem of the held links did not settle"};
    return false;
  }

  // Murty's least-index rule on the acceleration-level complementarity, from Gw_ = G wdot and H_:
  // the first held link that pushes (lambda_i < 0) or that the motion would stretch
  // (G_i wdot + H_i > 0, relative to the terms summed); -1 when none.
  int acceleration_pivot(const std::vector<bool>& active, const Eigen::VectorXd& lambda) const {
    const double push_tol = 64.0 * std::numeric_limits<double>::epsilon() * (m_ ? lambda.cwiseAbs().maxCoeff() : 0.0);
    for (int i = 0; i < m_; ++i) {
      if (equality_[i] || !held_[i]) continue;
      if (active[i] ? lambda[i] < -push_tol : Gw_[i] + H_[i] > 1e-9 * (std::abs(Gw_[i]) + std::abs(H_[i]))) return i;
    }
    return -1;
  }

  // The recursion's start at (t, q, v): wdot from the acceleration-level problem with the held links,
  // a by the perturbed start (the header).
  bool start_recursion(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double h, StepFailure& failure) {
    if (!consistent_acceleration(t, q, v, wdot_, lambda_, failure)) return false;
    // Perturbed start (Arnold-Bruels Sect. 4): a = wdot(t + (alpha_m - alpha_f) h) + O(h^2).
    const double tau = (p_.alpha_m - p_.alpha_f) * h;
    a_ = wdot_;
    Eigen::VectorXd wdot_tau, lambda_tau;
    StepFailure unused;
    if (tau != 0.0 && consistent_acceleration(t + tau, q + tau * v + 0.5 * tau * tau * wdot_, v + tau * wdot_, wdot_tau,
                                              lambda_tau, unused))
      a_ = wdot_tau;
    return true;
  }

  // q~ - q_n and v~ from wdot_n+1 (step 1's kinematics, increment form).
  void smooth_kinematics(double h, const Eigen::VectorXd& v0, const Eigen::VectorXd& wdot1) {
    const double am = p_.alpha_m, af = p_.alpha_f;
    a1_ = (af * wdot_ + (1.0 - af) * wdot1 - am * a_) / (1.0 - am);
    dq_ = h * v0 + h * h * ((0.5 - p_.beta) * a_ + p_.beta * a1_);
    v1_ = v0 + h * ((1.0 - p_.gamma) * a_ + p_.gamma * a1_);
  }

  // Step 1: Newton on (wdot_n+1, lambda_A) with the active set of the held links; leaves wdot1_,
  // lambda1_, q~ = q0 + dq_ and v~ = v1_ (the header).
  bool smooth_stage(double h, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0, StepFailure& failure) {
    const double t1 = t_ + h;
    const double one_over_beta_p = p_.beta * h * h * (1.0 - p_.alpha_f) / (1.0 - p_.alpha_m);
    const double beta_p = 1.0 / one_over_beta_p, gamma_p = p_.gamma / (p_.beta * h);
    const double q_size = std::max(1.0, q0.lpNorm<Eigen::Infinity>());
    std::vector<bool> active(m_);
    for (int i = 0; i < m_; ++i) active[i] = equality_[i] || held_[i];
    wdot1_ = wdot_;  // predictor: the last smooth acceleration and tension
    lambda1_ = lambda_;
    for (int i = 0; i < m_; ++i)
      if (!active[i]) lambda1_[i] = 0.0;
    Eigen::VectorXd rhs(n_ + m_), q1;
    for (int pivot = 0; pivot <= m_; ++pivot) {
      double last = -1.0, correction = 0.0;
      bool converged = false;
      for (int it = 0; it < max_newton_iters_ && !converged; ++it) {
        smooth_kinematics(h, v0, wdot1_);
        q1 = q0 + dq_;
        form_.force(t1, q1, v1_, f_);
        ++counters_.rhs_evals;
        form_.mass_times(wdot1_, Mw_);
        form_.constraint_jacobian_transpose_times(q1, lambda1_, GTl_);
        form_.constraint(q1, g_);
        // The dynamic rows, and the held links' g(q~) scaled by beta' (their derivative in wdot is then
        // G(q~)); a row off the active set asks its multiplier to be 0.
        rhs.head(n_) = f_ - Mw_ - GTl_;
        for (int i = 0; i < m_; ++i) rhs[n_ + i] = active[i] ? -beta_p * g_[i] : -lambda1_[i];
        if (!rhs.allFinite()) {
          failure = {StepFailure::Kind::Diverged, "the smooth stage's residual is non-finite (NaN/Inf)"};
          return false;
        }
        if (!matrix_.factor(t1, q1, v1_, wdot1_, lambda1_, beta_p, gamma_p, &active)) {
          failure = {StepFailure::Kind::SolverFailed,
                     "singular Newton matrix of the smooth stage on the held links (" + matrix_.last_error() + ")"};
          return false;
        }
        const Eigen::VectorXd dx = matrix_.solve(rhs);
        ++counters_.newton_iters;
        if (!dx.allFinite()) {
          failure = {StepFailure::Kind::Diverged, "the smooth stage's Newton correction is non-finite (NaN/Inf)"};
          return false;
        }
        wdot1_ += dx.head(n_);
        lambda1_ += dx.tail(m_);
        // In the problem's units: the configuration's change, relative to max(1, |q|); stopped at
        // newton_tol or at the round-off floor (below 1e-12 and no longer falling fourfold).
        correction = one_over_beta_p * dx.head(n_).lpNorm<Eigen::Infinity>() / q_size;
        converged = correction <= newton_tol_ || (last >= 0.0 && correction >= 0.25 * last && correction <= 1e-12);
        last = correction;
      }
      if (!converged) {
        std::string links;
        for (int i = 0; i < m_; ++i)
          if (active[i] && !equality_[i]) links += (links.empty() ? "" : ",") + std::to_string(i);
        failure = {StepFailure::Kind::SolverFailed,
                   "Newton on the smooth stage (wdot_n+1 and the tensions of the links held: " +
                       (links.empty() ? std::string("none") : links) + ", numbered from 0) did not reach newton_tol in " +
                       std::to_string(max_newton_iters_) + " iterations (last correction " + format_g(correction, 3) +
                       " of max(1, |q|))" +
                       (pivot > 0 ? " after " + std::to_string(pivot) + " change(s) of the held set within the step" : "")};
        return false;
      }
      smooth_kinematics(h, v0, wdot1_);
      q1 = q0 + dq_;
      form_.constraint(q1, g_);
      // A held link that pushes (lambda_i < 0) opens: released, and the stage solved again without it
      // (the first such link by index, one at a time). A released link that the stage then carries
      // beyond its length is not taken back here: the one-sided position correction of step 2 holds
      // it, and with the jump of step 3 decides whether it snaps (so the set only shrinks, at most
      // m passes; taking it back by the least-index rule cycled on C_single_snap at 0.194 s).
      const double push_tol = 64.0 * std::numeric_limits<double>::epsilon() * (m_ ? lambda1_.cwiseAbs().maxCoeff() : 0.0);
      int flip = -1;
      for (int i = 0; i < m_ && flip < 0; ++i)
        if (!equality_[i] && active[i] && lambda1_[i] < -push_tol) flip = i;
      if (flip < 0) return true;
      active[flip] = false;
      lambda1_[flip] = 0.0;
    }
    return true;  // unreachable: each pass releases a link
  }

  bool advance(double h, Eigen::VectorXd& next, StepFailure& failure) override {
    if (!started_) {
      if (!start_recursion(t_, y_.head(n_), y_.segment(n_, n_), step_size(), failure)) return false;
      started_ = true;
    }
    const Eigen::VectorXd q0 = y_.head(n_), v0 = y_.segment(n_, n_);
    if (!smooth_stage(h, q0, v0, failure)) return false;
    const Eigen::VectorXd q_smooth = q0 + dq_, v_smooth = v1_;
    // Step 2: the one-sided position correction, its active set started from the held links and
    // those the smooth stage carried beyond their length.
    form_.constraint(q_smooth, g_);
    std::vector<bool> active(m_);
    for (int i = 0; i < m_; ++i) active[i] = equality_[i] || held_[i] || g_[i] > 0.0;
    // The links the smooth stage holds in tension stay at their length (kept), whatever the sign of
    // their nu: the correction undoes the overshoot of links that closed in the step, and releasing a
    // link is the smooth stage's decision (its tension through 0), not the projection's. (Before the
    // smooth stage held its links at the position level, their lengths drifted by round-off either
    // way, and a one-sided correction that left an inward drift as a slack made the next step take
    // it for a snap: on the drop, a spurious snap every other step of the taut swing.)
    std::vector<bool> taut(m_, false);
    for (int i = 0; i < m_; ++i) taut[i] = held_[i] && lambda1_[i] > 0.0;
    if (!positions_.solve(q_smooth, Eigen::VectorXd::Zero(n_), q_smooth, q_smooth, active, counters_, failure, &taut))
      return false;
    const Eigen::VectorXd q1 = q0 + (dq_ + positions_.displacement());
    if (std::string why = form_.why_not_admissible(q1); !why.empty()) {
      failure = {StepFailure::Kind::Diverged, why};
      return false;
    }
    // Step 3: the velocity jump at the links at their length at q_n+1.
    StepEndImpulses end;
    if (!impulses_at_step_end(form_, *solver_, q1, v_smooth, v0, held_, newton_tol_, next, end, failure)) return false;
    const ImpulseSolution& jump = end.impulses;
    const std::vector<bool>& at_limit = end.at_limit;
    work_.advance(t_, h, q0, v0, q1, jump.v_plus, y_, next);
    if (end.closing) {
      next[2 * n_] += energy_taken_by_impulses(form_, t_ + h, next, q_smooth, v_smooth);
    }
    note_impact(t_ + h, AppliedImpact::Kind::AtStepEnd, end.closed);
    // The memory moves on (the jump and the correction stay out of it), and the links held next
    // step: at their length and carrying a tension, a position multiplier or an impulse.
    const Eigen::VectorXd& nu = positions_.multipliers();
    // A link that rebounded (e > 0: its impulse left it moving inwards, G_i v_n+1 = -e G_i v_n) is slack
    // after the jump: held, its acceleration-level problem would give it the tension of a link at its
    // length (its curvature term, m |v|^2 / l on the pendulum) and the recursion would carry that inward
    // acceleration into the free flight (on the rebound in free space an inward kick of h |v+|^2 / (2 l)
    // per rebound, an energy gain of first order, measured before this rule). With e = 0 nothing rebounds (the held set
    // is as before); with e > 0 a link rebounded where it approached (G_i v_n > 0) and leaves at more than
    // half of Newton's -e G_i v_n (round-off cannot put it there).
    const double e = form_.restitution();
    if (e > 0.0) {
      form_.constraint_jacobian_times(q1, jump.v_plus, gdot_plus_);
      form_.constraint_jacobian_times(q1, v0, gdot_minus_);
    }
    for (int i = 0; i < m_; ++i) {
      const bool rebounded = e > 0.0 && jump.active[i] && gdot_minus_[i] > 0.0 && gdot_plus_[i] < -0.5 * e * gdot_minus_[i];
      held_[i] = !equality_[i] && at_limit[i] && !rebounded && (lambda1_[i] > 0.0 || (active[i] && nu[i] > 0.0) || jump.active[i]);
    }
    if (end.closing) {
      // A link that snapped taut carries its tension from t_n+1 on, and the smooth stage, whose
      // links were those held at t_n, left it out of wdot_n+1. The monolithic scheme (BAC) imposes
      // its smooth equations at (q_n+1, v_n+1) with the links at their length there: so wdot_n+1 is
      // taken again, at the corrected state with the new held links (the acceleration-level problem
      // of the start), and a_n+1 follows by the recursion.
      const Eigen::VectorXd wdot_n = wdot_;
      if (!consistent_acceleration(t_ + h, q1, jump.v_plus, wdot_, lambda_, failure)) return false;
      a_ = (p_.alpha_f * wdot_n + (1.0 - p_.alpha_f) * wdot_ - p_.alpha_m * a_) / (1.0 - p_.alpha_m);
    } else {
      wdot_ = wdot1_;
      a_ = a1_;
      lambda_ = lambda1_;
    }
    return true;
  }

  const ConstrainedMechanicalFormulation& form_;
  const int n_, m_;
  const GeneralizedAlphaParameters p_;
  const double newton_tol_;
  const int max_newton_iters_;
  std::unique_ptr<ConstrainedMechanicalSolver> solver_;  // the start's, the correction's and the jump's solves
  AlphaIterationMatrix matrix_;                          // the smooth stage's Newton matrix
  OneSidedPositionProjection positions_;                 // step 2
  TrapezoidalWork work_;
  const std::vector<bool> equality_;  // the form's equality rows (always active)
  const Eigen::VectorXd scale_inverse_;
  std::vector<bool> held_;  // the one-sided links held in the smooth stage (see the header)
  bool started_ = false;
  Eigen::VectorXd wdot_, a_, lambda_;  // memory: wdot_n, a_n, and lambda_n (Newton's predictor)
  Eigen::VectorXd wdot1_, lambda1_, a1_, dq_, v1_, f_, H_, Mw_, GTl_, Gw_, g_, gdot_plus_, gdot_minus_;
};

}  // namespace

IntegratorInfo nonsmooth_generalized_alpha_info() {
  std::vector<SettingSpec> settings = newton_settings(
      "the smooth stage's Newton stops when its change of the configuration is <= newton_tol max(1, |q_n|_inf) (or "
      "stops falling below 1e-12: round-off); the position correction's when max |g_i| / (size of link i) <= "
      "newton_tol (or below 1e-10 after a correction)",
      1e-14);
  settings.insert(settings.begin(), rho_inf_setting(" in the smooth stage (its tensions then oscillate undamped)"));
  IntegratorInfo info{"nonsmooth_generalized_alpha", 2, false, MethodTraits{.implicit = true, .dissipative = true},
                      "nonsmooth generalized-alpha (Chen-Acary-Virlez-Bruls 2013, position correction of Bruls-Acary-"
                      "Cardona 2014), staggered: an index-3 alpha step on the links held (released where their tension "
                      "turns negative), a one-sided position correction and an impulse with Newton's impact law, both "
                      "kept out of the alpha recursion (unilateral constraints only)",
                      settings,
                      consuming([](const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0) {
                        return std::make_unique<NonsmoothGeneralizedAlphaStepper>(form, s, t0);
                      })};
  info.why_not = [](const Formulation& f) -> std::string {
    const auto& form = static_cast<const ConstrainedMechanicalFormulation&>(f);
    if (std::string why = why_not_unilateral_scheme(form, "this method's tensions and impulses are one-sided"); !why.empty()) return why;
    if (std::string why = form.why_not_tangents(); !why.empty()) return why + " (the smooth stage's Newton matrix)";
    Eigen::VectorXd H;
    const Eigen::VectorXd y0 = form.initial_state();
    if (!form.constraint_curvature(y0.head(form.positions()), y0.segment(form.positions(), form.positions()), H))
      return "its form gives no constraint curvature (dG/dt) v, which the acceleration-level start of the alpha "
             "recursion needs (at t0 and after each snap)";
    return "";
  };
  info.impacts_by = "an index-3 generalized-alpha stage on the links held, then a one-sided position correction and an "
                    "impulse problem (active sets by principal pivoting) with Newton's impact law, kept out of the alpha "
                    "recursion";
  return info;
}

}  // namespace tb
