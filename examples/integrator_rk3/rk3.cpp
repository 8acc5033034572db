// Kutta's third-order method on a model's ODE form, fixed step. Butcher tableau:
//   c = (0, 1/2, 1), a21 = 1/2, a31 = -1, a32 = 2, b = (1/6, 2/3, 1/6).
#include "rk3.hpp"

namespace my_methods {
namespace {

using namespace tb;

class Rk3Stepper final : public TimeStepper {
 public:
  Rk3Stepper(const OdeFormulation& ode, double h, double t0)
      : TimeStepper(t0, ode.initial_state()), ode_(ode), h_(h), t0_(t0) {}

  bool step(double t_stop, StepFailure& failure) override {
    const double t_next = next_fixed_step_end(t0_, h_, t_stop);  // t0 + n h, landing on t_stop
    const double dt = t_next - t_;
    ode_.rhs(t_, y_, k1_);
    ode_.rhs(t_ + dt / 2, y_ + dt / 2 * k1_, k2_);
    ode_.rhs(t_ + dt, y_ - dt * k1_ + 2 * dt * k2_, k3_);
    counters_.rhs_evals += 3;
    Eigen::VectorXd next = y_ + dt / 6 * (k1_ + 4 * k2_ + k3_);
    if (!all_finite(next)) {  // time and state stay as they were
      failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
      return false;
    }
    y_.swap(next);
    t_ = t_next;
    ++counters_.steps;
    return true;
  }

 private:
  const OdeFormulation& ode_;
  double h_, t0_;
  Eigen::VectorXd k1_, k2_, k3_;
};

}  // namespace

IntegratorInfo rk3_info() {
  return {"rk3", FormulationKind::EmbeddedOde, /*order=*/3, /*adaptive=*/false,
          MethodTraits{},  // explicit, not symplectic; its stability region holds |h w| <= sqrt 3 of the imaginary axis
          "Kutta's third-order Runge-Kutta, fixed step", /*settings=*/{},
          [](const Formulation& f, const IntegratorSettings& s, double t0) -> std::unique_ptr<TimeStepper> {
            return std::make_unique<Rk3Stepper>(dynamic_cast<const OdeFormulation&>(f), s.h, t0);
          }};
}

}  // namespace my_methods
