#include "core/fixed_step.hpp"

#include <utility>

namespace tb {

FixedStepStepper::FixedStepStepper(double t0, double h, Eigen::VectorXd y0)
    : TimeStepper(t0, std::move(y0)), t0_(t0), h_(h), next_(y_.size()) {}

bool FixedStepStepper::step(double t_stop, StepFailure& failure) {
  // t0 + (n+1) h from the step count, as Boost.Odeint's integrate_const does; a t_full a few
  // ulps short of t_stop lands on t_stop rather than leaving a sliver of a step after it.
  const double t_full = t0_ + double(counters_.steps + 1) * h_;
  const bool forward = h_ > 0.0;
  const bool lands = forward ? t_full > t_stop - 1e-12 * h_ : t_full < t_stop - 1e-12 * h_;
  const double t_next = lands ? t_stop : t_full;
  const double dt = t_next - t_;
  if (!(forward ? dt > 0.0 : dt < 0.0)) {
    failure = {StepFailure::Kind::SolverFailed, "no time left to step"};
    return false;
  }
  step_impacts_.clear();
  if (!advance(dt, next_, failure)) return false;  // time, state, step count and impacts as they were
  record_impacts(step_impacts_);
  y_.swap(next_);
  t_ = t_next;
  ++counters_.steps;
  return true;
}

}  // namespace tb
