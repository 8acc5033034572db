// The variational collision integrator (issue 48) after Fetecau, Marsden, Ortiz & West,
// "Nonsmooth Lagrangian mechanics and variational collision integrators", SIAM J. Appl. Dyn. Syst.
// 2 (2003) 381-416 (FMOW below). Between collisions it is the variational integrator of the
// trapezoidal discrete Lagrangian with the links held as constraints,
//   L_d(q_k, q_k+1, h) = h/2 [ T((q_k+1 - q_k)/h) - V(q_k) - V(q_k+1) ],
// that is RATTLE (Marsden & West, Acta Numerica 10 (2001) 357, § 3.5; Hairer, Lubich & Wanner,
// Geometric Numerical Integration, VII.1 eq. (1.26)); a link opens at the step whose position
// multiplier comes out negative (a tension only). On the planar pendulum's taut string this is the
// LGVI on S^1 (models/planar_pendulum/lie_group_form.cpp: the chord's kinetic term is the
// trapezoidal one restricted to |r| = l, one discrete map computed two ways;
// tests/test_variational_collision.cpp measures them together), and in its slack flight
// Stoermer-Verlet on R^2, the variational integrator of the translation group; Tran & Leok
// ("Lie group variational collision integrators for a class of hybrid systems", arXiv 2310.15356,
// 2024) build the same construction on SO(3) for a rigid body's contacts.
//
// FMOW's step across a collision. Where the step on the links held, A, would carry a link j not
// in A beyond its length, the step is split at the collision: the discrete action over it is
//   L_d(q_k, q~, alpha h) + L_d(q~, q_k+1, (1 - alpha) h),   g_j(q~) = 0,
// with the collision point q~ and the fraction alpha in (0, 1] as unknowns beside q_k+1. Its
// discrete Euler-Lagrange equations are (i) the substep's discrete Legendre transform
// p_k = -D_1 L_d(q_k, q~, alpha h) (RATTLE's position stage over alpha h, with A held), which
// gives q~(alpha), and g_j(q~(alpha)) = 0, which gives alpha: the collision time solved inside the
// step (here by the Illinois variant of regula falsi on alpha, each trial one position stage, to
// the position tolerance); (ii) the variation of q~ along the boundary {g_j = 0}: the momentum's
// jump at q~ is normal to it, p~+ - p~- = -G_j(q~)^T P, so every momentum the impulse does not
// touch (the tangential, and a momentum map whose symmetry keeps g_j) is conserved across the
// collision exactly, as FMOW's Noether theorem for collisions says; (iii) the variation of the
// collision time, which for an elastic collision (e = 1) is the conservation of the discrete
// energy across it. A rope does not bounce (e = 0 by default, the issue): for e < 1 the collision
// is dissipative and no variational principle gives its normal component; we take Newton's law
// G_j v~+ = -e G_j v~- on the discrete velocities at q~ in place of (iii), through Moreau's impact
// problem over the links at their length at q~ (core/unilateral_impulse.hpp: the impulses P >= 0,
// the links held in A with it), which is (ii) with the impulse's size fixed by the law. For e = 1
// this conserves the kinetic energy at q~, not FMOW's discrete energy, so it is not FMOW's elastic
// step; the bundled cases have e = 0. The loss the impulses take at q~, 1/2 P^T (G v~+ + G v~-), is
// booked in the form's first work term, so E - E0 - W keeps only the scheme's smooth error.
// Then the rest of the step, (1 - alpha) h, is again a RATTLE step from (q~, v~+) with the links
// that took an impulse held, split again at a further closing: links that close together (a
// cooperative snap) take one impact problem when they reach their length within 1e-10 of it at the
// collision point (the event-driven methods' window, core/hybrid_constrained_ode.cpp; with the
// position tolerance alone the three symmetric cables of C_cooperative_snap closed 1e-14 s apart
// as a chain of single impacts, and each snap's loss came out wrong by up to all of it), otherwise
// one collision each, in their order. A rebound (e > 0) whose flight back would end within the rest
// of its step is absorbed by the next piece's position stage, which holds the link with a tension,
// so a run of rebounds that accumulates (Zeno) is passed as a time-stepping scheme passes it; more
// than m + 8 collisions inside one step is still reported, never looped on.
//
// Order: RATTLE's 2 on each piece; with the collision time solved to the tolerance, the jump is
// taken at the discrete trajectory's own collision point rather than at a step's end, so the O(h)
// error of a misplaced jump (a rebound's -e v_r applied a fraction of a step late) is absent and the
// order across a closing stays 2 (measured by the snap study; not proved here). An opening is at
// step resolution: the tension falls continuously through 0 there, so a step's misplacement costs
// O(h) in a force that is itself O(h), O(h^2) in the velocity, once.
// Not symmetric: its one-sided rules (the opening at a negative multiplier, the impulse only
// against an outward rate) do not reverse under h -> -h, as nonsmooth RATTLE's do not.

#include "integrators/variational_collision/variational_collision.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/fixed_step.hpp"
#include "core/format.hpp"
#include "core/unilateral_impulse.hpp"
#include "integrators/one_sided_positions.hpp"
#include "integrators/rattle_step.hpp"
#include "integrators/unilateral_scheme_requirements.hpp"
#include "integrators/work_terms.hpp"

namespace tb {

namespace {

// The relative gap the position stage leaves on a link it holds (its Newton's floor).
constexpr double kGapFloor = 1e-10;

// One RATTLE piece of length tau from (q, v) on the links held (before its velocity stage): the
// configuration it reaches, the velocity there before any impulse, the position multipliers and
// the links held at its end (the position stage's settled set).
struct Piece {
  Eigen::VectorXd q, v_free, multipliers;
  std::vector<bool> held;
};

// What every piece from one state needs, computed once per state: the regula falsi takes up to
// tens of pieces from the same start, which differ only in their length.
struct PieceStart {
  double t = 0.0;
  Eigen::VectorXd q, v, f, a;   // the state, f(t, q, v) and the free acceleration M^-1 f
  std::vector<bool> may_enter;  // the links held and those at their length there
};

class VariationalCollisionStepper final : public FixedStepStepper {
 public:
  VariationalCollisionStepper(const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0)
      : FixedStepStepper(t0, s.h, form.initial_state()),
        form_(form),
        n_(form.positions()),
        m_(form.constraints()),
        tol_(s.get("newton_tol")),
        solver_(form.make_solver()),
        positions_(form, *solver_, tol_, s.get_int("max_newton_iters"), "the piece's free flight"),
        work_(form),
        equality_(equality_rows(form)),
        scale_inverse_(form.constraint_scale().cwiseInverse()) {
    Eigen::VectorXd g;
    form_.constraint(y_.head(n_), g);
    held_.assign(m_, false);
    for (int i = 0; i < m_; ++i) held_[i] = equality_[i] || g[i] * scale_inverse_[i] >= -tol_;
  }

 private:
  bool advance(double h, Eigen::VectorXd& next, StepFailure& failure) override {
    Eigen::VectorXd y = y_;
    double t = t_, remaining = h;
    const int most_collisions = m_ + 8;
    for (int collisions = 0;; ++collisions) {
      PieceStart start;
      if (!begin_pieces(t, y, start, failure)) return false;
      Piece piece;
      if (!take_piece(start, remaining, piece, failure)) return false;
      note_absorbed_rebounds(start.t, piece);
      const std::vector<int> beyond = links_beyond(piece);
      if (beyond.empty()) return finish_step(t, remaining, y, piece, next, failure);
      if (collisions == most_collisions) {
        failure = {StepFailure::Kind::SolverFailed,
                   std::to_string(most_collisions) + " collisions inside one step of " + format_g(h, 3) +
                       " s: an accumulation of impacts (Zeno), which this scheme reports rather than loops on"};
        return false;
      }
      double fraction = 0.0;
      if (!locate_collision(start, remaining, beyond, fraction, piece, failure)) return false;
      note_absorbed_rebounds(start.t, piece);
      const double tau = fraction * remaining;
      if (!collide(t, tau, y, piece, failure)) return false;
      t += tau;
      remaining -= tau;
      if (remaining <= 64.0 * std::numeric_limits<double>::epsilon() * std::abs(h)) {
        next = y;
        return true;
      }
    }
  }

  // The start of the pieces from (t, y): f, the free acceleration, and the links allowed a position
  // multiplier (those held, and those at their length there).
  bool begin_pieces(double t, const Eigen::VectorXd& y, PieceStart& start, StepFailure& failure) {
    start.t = t;
    start.q = y.head(n_);
    start.v = y.segment(n_, n_);
    form_.force(t, start.q, start.v, start.f);
    ++counters_.rhs_evals;
    if (!solver_->factor_active(start.q, start.q, equality_)) {
      failure = {StepFailure::Kind::SolverFailed, "the form's solver cannot factor the mass matrix without its one-sided constraints"};
      return false;
    }
    Eigen::VectorXd unused;
    solver_->solve(start.f, Eigen::VectorXd::Zero(m_), start.a, unused);
    form_.constraint(start.q, g_);
    start.may_enter.resize(m_);
    for (int i = 0; i < m_; ++i) start.may_enter[i] = held_[i] || g_[i] * scale_inverse_[i] >= -tol_;
    return true;
  }

  // The RATTLE piece of length tau from the start, with the links held (held_) and those at their
  // length at its start allowed to take a position multiplier, no other link.
  bool take_piece(const PieceStart& start, double tau, Piece& out, StepFailure& failure) {
    const Eigen::VectorXd& q = start.q;
    const Eigen::VectorXd& v = start.v;
    if (tau == 0.0) {
      out = {q, v, Eigen::VectorXd::Zero(m_), held_};
      return true;
    }
    const Eigen::VectorXd q_free = q + tau * v + 0.5 * tau * tau * start.a;
    std::vector<bool> active(held_);
    if (!positions_.solve(q + tau * v, 0.5 * tau * tau * start.f, q, q_free, active, counters_, failure, nullptr,
                          &start.may_enter))
      return false;
    out.q = positions_.configuration();
    out.multipliers = positions_.multipliers();
    out.held = active;
    if (std::string why = form_.why_not_admissible(out.q); !why.empty()) {
      failure = {StepFailure::Kind::Diverged, why};
      return false;
    }
    // v_k+1/2 from the displacement (increment form), then the second half kick without impulse.
    const Eigen::VectorXd v_half = v + positions_.displacement() / tau;
    form_.force(start.t + tau, out.q, v_half, f1_);
    ++counters_.rhs_evals;
    if (!solver_->factor_active(out.q, out.q, equality_)) {
      failure = {StepFailure::Kind::SolverFailed, "the form's solver cannot factor the mass matrix without its one-sided constraints"};
      return false;
    }
    Eigen::VectorXd kick, unused;
    solver_->solve(0.5 * tau * f1_, Eigen::VectorXd::Zero(m_), kick, unused);
    out.v_free = v_half + kick;
    return true;
  }

  // The one-sided links the piece carried beyond their length without holding them: its collisions.
  std::vector<int> links_beyond(const Piece& piece) {
    form_.constraint(piece.q, g_);
    std::vector<int> beyond;
    for (int i = 0; i < m_; ++i)
      if (!piece.held[i] && form_.one_sided(i) && g_[i] * scale_inverse_[i] > tol_) beyond.push_back(i);
    return beyond;
  }

  // The largest relative gap g_i / size_i over the links `beyond` at the piece's end.
  double largest_gap(const Piece& piece, const std::vector<int>& beyond) {
    form_.constraint(piece.q, g_);
    double gap = -std::numeric_limits<double>::infinity();
    for (int i : beyond) gap = std::max(gap, g_[i] * scale_inverse_[i]);
    return gap;
  }

  // FMOW's collision time: the fraction alpha of the remaining time at which the first of the links
  // `beyond` reaches its length along the RATTLE piece, by the Illinois method on the largest
  // relative gap (negative at alpha = 0, above the tolerance at 1), to |gap| <= tol / 2.
  bool locate_collision(const PieceStart& start, double tau, const std::vector<int>& beyond, double& fraction, Piece& at,
                        StepFailure& failure) {
    const double t = start.t;
    Piece lo_piece;
    if (!take_piece(start, 0.0, lo_piece, failure)) return false;
    double lo = 0.0, hi = 1.0, gap_lo = largest_gap(lo_piece, beyond), gap_hi = largest_gap(at, beyond);
    if (gap_lo >= -0.5 * tol_) {  // a link at its length at the piece's start, moving out: collides there
      fraction = 0.0;
      at = lo_piece;
      return true;
    }
    double beyond_at_hi = gap_hi;  // the gap at hi, before the Illinois rule halves gap_hi
    int side = 0;  // the Illinois rule: halve the value of an end that stayed twice
    for (int it = 0; it < 200; ++it) {
      const double trial = (lo * gap_hi - hi * gap_lo) / (gap_hi - gap_lo);
      fraction = std::clamp(trial, lo + 1e-3 * (hi - lo), hi - 1e-3 * (hi - lo));
      if (!take_piece(start, fraction * tau, at, failure)) return false;
      const double gap = largest_gap(at, beyond);
      if (std::abs(gap) <= 0.5 * tol_) return true;
      if (gap > 0.0) {
        hi = fraction;
        gap_hi = gap;
        beyond_at_hi = gap;
        if (side == 1) gap_lo *= 0.5;
        side = 1;
      } else {
        lo = fraction;
        gap_lo = gap;
        if (side == -1) gap_hi *= 0.5;
        side = -1;
      }
      // The bracket at round-off in time: the gap cannot come nearer 0 than its own round-off. Its
      // outer end is taken where it is within the position stage's floor (1e-10 of the length,
      // integrators/one_sided_positions.cpp), the link then at its length for the impact problem.
      if ((hi - lo) * std::abs(tau) <= 4.0 * std::numeric_limits<double>::epsilon() * (std::abs(t) + std::abs(tau))) {
        if (beyond_at_hi <= kGapFloor) {
          fraction = hi;
          return take_piece(start, hi * tau, at, failure);
        }
        failure = {StepFailure::Kind::SolverFailed,
                   "the links' gap jumps across the collision time (to " + format_g(beyond_at_hi, 3) +
                       " of their length within round-off of it): the links held change there"};
        return false;
      }
    }
    failure = {StepFailure::Kind::SolverFailed, "the collision time inside the step did not settle in 200 trials"};
    return false;
  }

  // The impact at the collision point: Moreau's impact problem with Newton's law over the links at
  // their length there, from the piece's pre-impact velocity; y becomes (q~, v~+).
  bool collide(double t, double tau, Eigen::VectorXd& y, const Piece& piece, StepFailure& failure) {
    const ImpulseSolution impact =
        solve_impulses(form_, *solver_, piece.q, piece.v_free, piece.v_free, form_.restitution(), links_at_limit(piece.q));
    if (!impact.ok) {
      failure = {StepFailure::Kind::SolverFailed, "the collision's impulse problem: " + impact.why_not};
      return false;
    }
    Eigen::VectorXd next;
    if (!end_piece(t, tau, y, piece, impact, true, next, failure)) return false;
    y = next;
    note_collision(t + tau, piece, impact);
    return true;
  }

  // A collision at t: its record (TimeStepper::applied_impacts), the links it closed (links_closed: a
  // positive impulse on a link the piece did not hold; a collision that closed none is not one), and
  // with e > 0 the links it sent back into a flight, watched by note_absorbed_rebounds.
  void note_collision(double t, const Piece& piece, const ImpulseSolution& impact) {
    const std::vector<bool> closed = closed_links(form_, impact, piece.held);
    if (std::count(closed.begin(), closed.end(), true) == 0) return;
    for (int i = 0; i < m_; ++i)
      if (closed[i]) rebounding_[i] = form_.restitution() > 0.0;
    note_impact(t, AppliedImpact::Kind::Located, closed_link_list(form_, impact, piece.held));
  }

  // A link sent into a flight by a rebound that the piece after it ends holding, with a tension: its
  // flight back to its length ended inside the piece, and the position stage took the flight and the next
  // closing as one plastic hold (the file's header). Counted, at the piece's start, as an absorbed rebound.
  void note_absorbed_rebounds(double t, const Piece& piece) {
    for (int i = 0; i < m_; ++i) {
      if (!rebounding_[i]) continue;
      rebounding_[i] = false;
      if (piece.held[i] && piece.multipliers.size() == m_ && piece.multipliers[i] > 0.0)
        note_impact(t, AppliedImpact::Kind::Absorbed, 1);
    }
  }

  // A piece that reached the step's end with no link beyond its length: RATTLE's velocity stage,
  // the impulses that keep the links at their length from opening outwards (e = 0 for the links
  // held; Newton's law with the form's e for a link that reaches its length exactly at the step's
  // end without being held, a collision at alpha = 1, booked as one).
  bool finish_step(double t, double tau, const Eigen::VectorXd& y, const Piece& piece, Eigen::VectorXd& next,
                   StepFailure& failure) {
    const std::vector<bool> at_limit = links_at_limit(piece.q);
    ImpulseSolution velocity = solve_impulses(form_, *solver_, piece.q, piece.v_free, piece.v_free, 0.0, at_limit);
    bool collision = false;
    for (int i = 0; velocity.ok && i < m_; ++i)
      collision = collision || (velocity.active[i] && form_.one_sided(i) && !piece.held[i] && !held_[i]);
    if (collision)
      velocity = solve_impulses(form_, *solver_, piece.q, piece.v_free, piece.v_free, form_.restitution(), at_limit);
    if (!velocity.ok) {
      failure = {StepFailure::Kind::SolverFailed, velocity.why_not};
      return false;
    }
    if (!end_piece(t, tau, y, piece, velocity, collision, next, failure)) return false;
    if (collision) note_collision(t + tau, piece, velocity);
    return true;
  }

  // The state at a piece's end from the impulses there: (q, v+), the work terms advanced over the
  // piece, the impulses' loss booked in the first where `book` (a collision), and the links held
  // after it (a multiplier in the piece or an impulse at its end).
  bool end_piece(double t, double tau, const Eigen::VectorXd& y, const Piece& piece, const ImpulseSolution& impulses, bool book,
                 Eigen::VectorXd& next, StepFailure& failure) {
    next = y;
    next.head(n_) = piece.q;
    next.segment(n_, n_) = impulses.v_plus;
    if (!all_finite(next.head(2 * n_))) {
      failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
      return false;
    }
    if (tau > 0.0) work_.advance(t, tau, y.head(n_), y.segment(n_, n_), piece.q, impulses.v_plus, y, next);
    if (book) next[2 * n_] += impulses.energy_taken;
    for (int i = 0; i < m_; ++i) held_[i] = equality_[i] || (piece.held[i] && piece.multipliers[i] > 0.0) || impulses.active[i];
    return true;
  }

  // The links at their length at q to the position stage's floor: the candidates of an impact
  // problem. Links that reach their length at one instant (the cooperative case's three cables,
  // symmetric to round-off) are then one impact, as the event-driven methods take them
  // (core/hybrid_constrained_ode.cpp, the same 1e-10), not a chain of impacts 1e-14 s apart.
  std::vector<bool> links_at_limit(const Eigen::VectorXd& q) {
    form_.constraint(q, g_);
    std::vector<bool> at(m_);
    for (int i = 0; i < m_; ++i) at[i] = equality_[i] || g_[i] * scale_inverse_[i] >= -kGapFloor;
    return at;
  }

  const ConstrainedMechanicalFormulation& form_;
  const int n_, m_;
  const double tol_;  // the links' relative position tolerance (newton_tol)
  std::unique_ptr<ConstrainedMechanicalSolver> solver_;
  OneSidedPositionProjection positions_;  // RATTLE's position stage on the links held (integrators/one_sided_positions.hpp)
  TrapezoidalWork work_;
  const std::vector<bool> equality_;  // the form's equality rows (always held)
  const Eigen::VectorXd scale_inverse_;
  std::vector<bool> held_;  // the links held: at their length with a multiplier or an impulse in the last piece
  std::vector<bool> rebounding_ = std::vector<bool>(m_, false);  // sent into a flight by the last collision (e > 0)
  Eigen::VectorXd f1_, g_;
};

}  // namespace

IntegratorInfo variational_collision_info() {
  // RATTLE's order and symplecticity on every piece between collisions (the conformance checks run
  // a taut swing); not symmetric (the file's header). Across a collision the snap study measures it.
  IntegratorInfo info{"variational_collision", 2, false, MethodTraits{.implicit = true, .symplectic = true},
                      "variational collision integrator (Fetecau, Marsden, Ortiz & West 2003): RATTLE's discrete "
                      "Lagrangian on the links held, the collision time solved inside the step, Newton's impact law at "
                      "the collision point (unilateral constraints only)",
                      rattle_newton_settings(),
                      consuming([](const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0) {
                        return std::make_unique<VariationalCollisionStepper>(form, s, t0);
                      })};
  info.why_not = [](const Formulation& f) -> std::string {
    const auto& form = static_cast<const ConstrainedMechanicalFormulation&>(f);
    return why_not_unilateral_scheme(form, "this method's links hold only in tension");
  };
  info.impacts_by = "the collision time solved inside the step (a RATTLE piece to the collision point), Moreau's impact "
                    "problem with Newton's law there, then RATTLE on the rest of the step";
  return info;
}

}  // namespace tb
