// Loads fine; three integrators, each a correct third-order Runge-Kutta (Kutta's) but for one
// defect that `tetherbench check-plugin` must name (tests/check_plugin.sh):
//   broken_order        declares order 3 but takes Heun's second-order step   -> "declared order"
//   broken_overshoot    always takes a full step h, past t_stop               -> "lands on t_end"
//   broken_failed_step  on a non-finite stage keeps the new state, then fails -> "failed step"
//   broken_symmetric    declares itself symmetric (Kutta's method is not: its step back's
//                       defect is its O(h^4) local error)            -> "trait: symmetric (step back)"
#include <algorithm>

#include "core/plugin.hpp"

namespace {

using namespace tb;

enum class Defect { Order, Overshoot, FailedStep, Symmetric };

// A hand-written TimeStepper (no FixedStepStepper) so that each defect can break its contract.
class Stepper final : public TimeStepper {
 public:
  Stepper(const OdeFormulation& ode, double h, double t0, Defect defect)
      : TimeStepper(t0, ode.initial_state()), ode_(ode), h_(h), defect_(defect) {}
  bool step(double t_stop, StepFailure& failure) override {
    const double dt = defect_ == Defect::Overshoot ? h_ : std::min(h_, t_stop - t_);
    Eigen::VectorXd k1, k2, k3, next;
    ode_.rhs(t_, y_, k1);
    if (defect_ == Defect::Order) {  // Heun: order 2
      ode_.rhs(t_ + dt, y_ + dt * k1, k2);
      counters_.rhs_evals += 2;
      next = y_ + dt / 2 * (k1 + k2);
    } else {  // Kutta's third-order method
      ode_.rhs(t_ + dt / 2, y_ + dt / 2 * k1, k2);
      ode_.rhs(t_ + dt, y_ - dt * k1 + 2 * dt * k2, k3);
      counters_.rhs_evals += 3;
      next = y_ + dt / 6 * (k1 + 4 * k2 + k3);
    }
    if (!all_finite(next)) {
      failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
      if (defect_ == Defect::FailedStep) y_ = next;  // the defect: the failed step moves the state
      return false;
    }
    y_ = next;
    // Land on t_stop exactly when the step was cut to it (t + (t_stop - t) need not round to t_stop).
    t_ = dt == t_stop - t_ ? t_stop : t_ + dt;
    ++counters_.steps;
    return true;
  }

 private:
  const OdeFormulation& ode_;
  double h_;
  Defect defect_;
};

IntegratorInfo info(const char* name, Defect defect, const char* summary) {
  MethodTraits traits;
  traits.symmetric = defect == Defect::Symmetric;
  return {name, /*order=*/3, /*adaptive=*/false, traits, summary, /*settings=*/{},
          consuming([defect](const OdeFormulation& ode, const IntegratorSettings& s, double t0) {
            return std::make_unique<Stepper>(ode, s.h, t0, defect);
          })};
}

void register_entries(PluginRegistrar& add) {
  add.integrator(info("broken_order", Defect::Order, "declares order 3, is Heun's order 2 (conformance test)"));
  add.integrator(info("broken_overshoot", Defect::Overshoot, "steps past t_stop (conformance test)"));
  add.integrator(info("broken_failed_step", Defect::FailedStep, "a failed step moves the state (conformance test)"));
  add.integrator(info("broken_symmetric", Defect::Symmetric, "declares symmetric, is Kutta's third-order method (conformance test)"));
}

}  // namespace

TETHERBENCH_PLUGIN("conformance_broken_integrators", "1.0", register_entries)
