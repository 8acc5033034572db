#pragma once
// The impulse problem of unilateral constraints (issue 48; Moreau 1988, "Unilateral contact and
// dry friction in finite freedom dynamics", §§ 5-7; Acary & Brogliato 2008, Numerical Methods for
// Nonsmooth Dynamical Systems, § 10.1): at a configuration q, from a velocity v_free that no
// constraint impulse has touched yet, find the impulses P >= 0 of the candidate constraints with
//   M v+ = M v_free - G^T P,
//   0 <= P_i  ⊥  w_i = -(G_i v+ + e G_i v-) >= 0      (i a candidate; P_i = 0 otherwise),
// the velocity-level complementarity with Newton's impact law (ConstrainedMechanicalFormulation::
// unilateral: g <= 0 admissible, G_i v > 0 opening a link beyond its length). It is a linear
// complementarity problem in P whose matrix, the Delassus operator W = G M^-1 G^T on the
// candidates, is symmetric positive definite where their gradients are independent: the impulses
// then minimise a strictly convex quadratic over P >= 0, which the active-set method of Lawson and
// Hanson (NNLS) solves in finitely many passes, the objective falling at each (Cottle, Pang &
// Stone, The Linear Complementarity Problem, § 1.2: the LCP of a symmetric positive definite
// matrix is that quadratic program). Each pass solves the saddle-point system on the current
// active set with the form's own structured solver (factor_active), never W itself.
//
// Equality rows (one_sided(i) false, e.g. a rigid body's R^T R = I beside a cable's links) are in
// the active set from the start, never pivoted, with G_i v+ = 0: a mixed LCP whose Schur
// complement on the one-sided rows is again symmetric positive definite, so the pivoting is the
// same on it.
//
// Used by an event-driven method at a located closing (v_free = v- = the velocity just before)
// and by a time-stepping scheme every step (v_free = v_k + h M^-1 f, v- = v_k).

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "core/closed_link.hpp"
#include "core/formulation.hpp"

namespace tb {

// The rows that are equalities (!form.one_sided(i)): always in the active set, so the "free"
// solves of a scheme (no one-sided constraint acting) still keep them.
std::vector<bool> equality_rows(const ConstrainedMechanicalFormulation& form);

struct ImpulseSolution {
  bool ok = false;
  std::string why_not;          // where !ok: what failed (a singular system, pivots that did not settle)
  Eigen::VectorXd v_plus;       // the velocity after
  Eigen::VectorXd impulse;      // P, one per constraint (0 off the active set)
  std::vector<bool> active;     // the constraints that carry an impulse
  int pivots = 0;               // the saddle-point solves it took
  // The kinetic energy the impulses took from v_free: 1/2 P^T (G v+ + G v_free) (J), formed from
  // the constraint rates (never as a difference of two kinetic energies). At an impact
  // (v_free = v-) it is Newton's law's loss 1/2 (1 - e^2) gdot-^T W_C^-1 gdot- over the links C
  // that close.
  double energy_taken = 0.0;
  Eigen::VectorXd rate_minus;   // G v-: each constraint's rate before the impulses (the closing rate Newton's law takes)
};

ImpulseSolution solve_impulses(const ConstrainedMechanicalFormulation& form, ConstrainedMechanicalSolver& solver,
                               const Eigen::VectorXd& q, const Eigen::VectorXd& v_free, const Eigen::VectorXd& v_minus,
                               double restitution, const std::vector<bool>& candidates);

// The links an impulse problem closed, as a scheme's record counts them (TimeStepper::applied_impacts):
// one-sided, not held before it (`held`, one flag per constraint), and given a positive impulse. A link
// that is only in the active set with a zero impulse (beyond its length, its velocity already turned
// inward) is no closing.
std::vector<bool> closed_links(const ConstrainedMechanicalFormulation& form, const ImpulseSolution& solution,
                               const std::vector<bool>& held);
// The closed_links as a record names them (core/closed_link.hpp): each one's index among the form's one-sided rows
// and its closing rate G_i v- over its constraint_scale, as the hybrid form's jump log gives an event-driven closing.
std::vector<ClosedLink> closed_link_list(const ConstrainedMechanicalFormulation& form, const ImpulseSolution& solution,
                                         const std::vector<bool>& held);
// How many closed_links there are.
int links_closed(const ConstrainedMechanicalFormulation& form, const ImpulseSolution& solution,
                 const std::vector<bool>& held);

// The mechanical energy a time-stepping scheme's constraint impulses took over one step: E at the state
// the step would have reached without them (q_free, v_free) less E at the state it reached (y_next),
// both through the form's own observation (J). Booked at a step where a link closes, it is the work
// of the scheme's own impulse there, the snap's loss as the scheme applied it, so that E - E0 - W
// keeps only the scheme's smooth error (a referee read of the snap study: a loss estimated from a
// pre-impact velocity the scheme does not know is off by O(h) and dominated the balance).
double energy_taken_by_impulses(const ConstrainedMechanicalFormulation& form, double t, const Eigen::VectorXd& y_next,
                                const Eigen::VectorXd& q_free, const Eigen::VectorXd& v_free);

}  // namespace tb
