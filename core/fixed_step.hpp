#pragma once
// The fixed-step driver (after Drake's IntegratorBase::DoStep and Boost.Odeint's
// integrate_const): it owns the start time t0 and the step h, puts step n at t0 + n h (not an
// accumulated sum, so round-off does not pile up over a million steps), shortens only the last
// step to land exactly on t_stop, counts the accepted steps and keeps the contract of
// TimeStepper::step, that a failed step leaves time() and state() as they were. A scheme
// implements only advance(): the state one step dt after (time(), state()).
// A negative h integrates backwards (t_stop below time()), as Boost.Odeint does with a negative
// dt: the generic tests take a symmetric method's step back, Φ_{-h}(Φ_h(y)) = y.

#include <Eigen/Dense>

#include "core/integrator.hpp"

namespace tb {

class FixedStepStepper : public TimeStepper {
 public:
  // One step to t0 + (n+1) h, or to t_stop when that is within 1e-12 |h| of it or beyond (in the
  // direction of h).
  bool step(double t_stop, StepFailure& failure) final;

  double start_time() const { return t0_; }
  double step_size() const { return h_; }  // h; the last step of a run may be shorter

 protected:
  FixedStepStepper(double t0, double h, Eigen::VectorXd y0);

  // Writes the state a step dt after (t_, y_) into `next` (its size and contents on entry are
  // the scheme's scratch) and returns true, or returns false with the reason in `failure`.
  // It may add to counters_ (evaluations, Newton iterations) but must not move t_, y_ or the
  // step count: the driver does, and only on success.
  virtual bool advance(double dt, Eigen::VectorXd& next, StepFailure& failure) = 0;

  // For advance(): an impact the step applies (TimeStepper::applied_impacts), recorded if the step is accepted.
  void note_impact(double t, AppliedImpact::Kind kind, int links) {
    step_impacts_.push_back({t, kind, links, counters_.steps + 1});
  }
  // The same with the links it closed and their closing rates (core/closed_link.hpp); none closed, nothing noted.
  void note_impact(double t, AppliedImpact::Kind kind, std::vector<ClosedLink> closed) {
    if (closed.empty()) return;
    const int links = static_cast<int>(closed.size());
    step_impacts_.push_back({t, kind, links, counters_.steps + 1, std::move(closed)});
  }

 private:
  std::vector<AppliedImpact> step_impacts_;
  double t0_, h_;
  Eigen::VectorXd next_;  // the candidate state, swapped with y_ when a step succeeds
};

}  // namespace tb
