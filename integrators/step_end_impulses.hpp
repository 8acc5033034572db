#pragma once
// The end of a step of a time-stepping scheme for unilateral links whose positions are already
// one-sided (nonsmooth_rattle, nonsmooth_generalized_alpha; issue 48): at q_k+1, the links at their
// length take Moreau's impact problem with Newton's law from the velocity the scheme reached without
// impulses (core/unilateral_impulse.hpp), and the step says whether a link closed in it, the step
// where the scheme books the energy its corrections took.

#include <Eigen/Dense>
#include <vector>

#include "core/integrator.hpp"
#include "core/unilateral_impulse.hpp"

namespace tb {

struct StepEndImpulses {
  ImpulseSolution impulses;    // v_plus, the impulses and the links that carry one
  std::vector<bool> at_limit;  // the links at their length at q_k+1 (|g_i| / size_i within tol)
  // A link closed in this step: at its length, not engaged at the step's start, approached
  // (G_i(q_k+1) v_k > 0).
  bool closing = false;
  // The links that closed in it as the step's record counts them (links_closed, core/unilateral_impulse.hpp,
  // with the links engaged at the step's start as held). Not `closing`'s test (at the length and
  // approaching, which books the step's loss): a link beyond its length whose velocity the step turned
  // inward before its end takes no impulse, and is no closing.
  int closings = 0;
  std::vector<ClosedLink> closed;  // those links, named and with their closing rates (closed_link_list)
};

// From (q1, v_free) with Newton's law on v0 (the step's start velocity); `engaged` the one-sided
// links held at the step's start. On success writes [q1, v_plus] into the first 2n entries of
// `next` (resized to the form's state) and returns true; false with the reason otherwise (the
// impulse problem's, or a non-finite state).
bool impulses_at_step_end(const ConstrainedMechanicalFormulation& form, ConstrainedMechanicalSolver& solver,
                          const Eigen::VectorXd& q1, const Eigen::VectorXd& v_free, const Eigen::VectorXd& v0,
                          const std::vector<bool>& engaged, double tol, Eigen::VectorXd& next, StepEndImpulses& out,
                          StepFailure& failure);

}  // namespace tb
