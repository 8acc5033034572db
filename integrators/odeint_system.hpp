#pragma once
// Adapts an OdeFormulation to Boost.Odeint's system concept `sys(x, dxdt, t)` over
// Eigen::VectorXd. Odeint copies systems by value, so the evaluation counter is held by
// pointer and survives the copies.

#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>

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

// A fixed-step explicit Odeint stepper as a TimeStepper: time is t0 + n h (not accumulated,
// as in odeint's integrate_const), only the last step is shortened to land on t_stop, and a
// step whose result is not finite is rejected with the state left as it was.
template <class OdeintStepper>
class FixedStepOdeint final : public TimeStepper {
 public:
  FixedStepOdeint(const OdeFormulation& ode, double h, double t0, OdeintStepper stepper = OdeintStepper())
      : TimeStepper(t0, ode.initial_state()), ode_(ode), h_(h), t0_(t0), next_(y_.size()), stepper_(std::move(stepper)) {}

  bool step(double t_stop, StepFailure& failure) override {
    return take_fixed_step(t0_, h_, t_stop, next_, failure, [&](double dt, Eigen::VectorXd& next, StepFailure& f) {
      stepper_.do_step(OdeintSystem{&ode_, &counters_.rhs_evals}, y_, t_, next, dt);
      if (all_finite(next)) return true;
      f = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
      return false;
    });
  }

 private:
  const OdeFormulation& ode_;
  double h_, t0_;
  Eigen::VectorXd next_;
  OdeintStepper stepper_;
};

}  // namespace tb
