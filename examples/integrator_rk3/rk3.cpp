// Kutta's third-order method on a model's ODE form, fixed step. Butcher tableau:
//   c = (0, 1/2, 1), a21 = 1/2, a31 = -1, a32 = 2, b = (1/6, 2/3, 1/6).
#include "rk3.hpp"

#include "core/fixed_step.hpp"

namespace my_methods {
namespace {

using namespace tb;

// The driver (FixedStepStepper) owns time: steps end on t0 + n h, the last one lands on the end
// time, and a failed step leaves time and state as they were. The scheme writes one step.
class Rk3Stepper final : public FixedStepStepper {
 public:
  Rk3Stepper(const OdeFormulation& ode, double h, double t0) : FixedStepStepper(t0, h, ode.initial_state()), ode_(ode) {}

 private:
  bool advance(double dt, Eigen::VectorXd& next, StepFailure& failure) override {
    ode_.rhs(t_, y_, k1_);
    ode_.rhs(t_ + dt / 2, y_ + dt / 2 * k1_, k2_);
    ode_.rhs(t_ + dt, y_ - dt * k1_ + 2 * dt * k2_, k3_);
    counters_.rhs_evals += 3;
    next = y_ + dt / 6 * (k1_ + 4 * k2_ + k3_);
    if (all_finite(next)) return true;
    failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
    return false;
  }

  const OdeFormulation& ode_;
  Eigen::VectorXd k1_, k2_, k3_;
};

}  // namespace

IntegratorInfo rk3_info() {
  return {"rk3", /*order=*/3, /*adaptive=*/false,
          MethodTraits{},  // explicit, not symplectic; its stability region holds |h w| <= sqrt 3 of the imaginary axis
          "Kutta's third-order Runge-Kutta, fixed step", /*settings=*/{},
          // It consumes the ODE form because its factory takes an OdeFormulation.
          consuming([](const OdeFormulation& ode, const IntegratorSettings& s, double t0) {
            return std::make_unique<Rk3Stepper>(ode, s.h, t0);
          })};
}

}  // namespace my_methods
