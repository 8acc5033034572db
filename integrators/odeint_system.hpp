#pragma once
// Adapts an OdeFormulation to Boost.Odeint's system concept `sys(x, dxdt, t)` over
// Eigen::VectorXd. Odeint copies systems by value, so the evaluation counter is held by
// pointer and survives the copies.

#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>

#include "core/fixed_step.hpp"
#include "core/formulation.hpp"
#include "core/integrator.hpp"

namespace tb {

struct OdeintSystem {
  const OdeFormulation* ode;
  long* rhs_evals;
  void operator()(const Eigen::VectorXd& y, Eigen::VectorXd& dydt, double t) const {
    ++*rhs_evals;
    ode->rhs(t, y, dydt);
  }
};

// A fixed-step explicit Odeint stepper's step (the driver, core/fixed_step.hpp, owns time and
// landing): a step whose result is not finite is rejected.
template <class OdeintStepper>
class FixedStepOdeint final : public FixedStepStepper {
 public:
  FixedStepOdeint(const OdeFormulation& ode, double h, double t0, OdeintStepper stepper = OdeintStepper())
      : FixedStepStepper(t0, h, ode.initial_state()), ode_(ode), stepper_(std::move(stepper)) {}

 private:
  bool advance(double dt, Eigen::VectorXd& next, StepFailure& failure) override {
    stepper_.do_step(OdeintSystem{&ode_, &counters_.rhs_evals}, y_, t_, next, dt);
    if (all_finite(next)) return true;
    failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
    return false;
  }

  const OdeFormulation& ode_;
  OdeintStepper stepper_;
};

}  // namespace tb
