#pragma once
// The fixed-step stepper of the generalized-alpha schemes (generalized_alpha, lie_generalized_alpha):
// before its first step the scheme needs its start values (the acceleration-like variable a_0 with
// the perturbed start of the Arnold-Bruls-Cardona analyses, and the accelerations at t0), computed
// with the run's full step h; every step after that is the scheme's step, booked by book()
// (integrators/implicit_step_result.hpp).

#include <utility>

#include "core/fixed_step.hpp"
#include "integrators/implicit_step_result.hpp"

namespace tb {

// Step: a class with start(t0, y0, h) -> {ok, failure, force_evals} and step(t, h, y, next) ->
// ImplicitStepResult; built in place from `args` (it holds factorisations, which do not move).
template <class Step>
class StartedAlphaStepper final : public FixedStepStepper {
 public:
  template <class... Args>
  StartedAlphaStepper(double t0, double h, Eigen::VectorXd y0, Args&&... args)
      : FixedStepStepper(t0, h, std::move(y0)), step_(std::forward<Args>(args)...) {}

 private:
  bool advance(double h, Eigen::VectorXd& next, StepFailure& failure) override {
    if (!started_) {
      const auto r = step_.start(start_time(), y_, step_size());
      counters_.rhs_evals += r.force_evals;
      if (!r.ok) {
        failure = r.failure;
        return false;
      }
      started_ = true;
    }
    return book(step_.step(t_, h, y_, next), counters_, failure);
  }

  Step step_;
  bool started_ = false;
};

}  // namespace tb
