// Classical fixed-step Runge-Kutta of order 4 (Boost.Odeint runge_kutta4) on a model's ODE form.
// Butcher tableau: c = (0, 1/2, 1/2, 1), b = (1/6, 1/3, 1/3, 1/6), a21 = a32 = 1/2, a43 = 1.

#include "integrators/rk4/rk4.hpp"

#include <cmath>

#include "integrators/odeint_system.hpp"

namespace tb {
namespace {

using Stepper = boost::numeric::odeint::runge_kutta4<Eigen::VectorXd, double, Eigen::VectorXd, double,
                                                     boost::numeric::odeint::vector_space_algebra>;

class Rk4Stepper final : public TimeStepper {
 public:
  Rk4Stepper(const OdeFormulation& ode, double h, double t0)
      : TimeStepper(t0, ode.initial_state()), ode_(ode), h_(h), t0_(t0), next_(y_.size()) {}

  bool step(double t_stop, std::string& failure) override {
    // Time is t0 + n h (not accumulated), as in odeint's integrate_const; only the last step
    // may be shortened to land on t_stop.
    const double t_next_full = t0_ + double(counters_.steps + 1) * h_;
    const double t_next = t_next_full > t_stop - 1e-12 * h_ ? t_stop : t_next_full;
    const double dt = t_next - t_;
    if (!(dt > 0.0)) {
      failure = "no time left to step";
      return false;
    }
    stepper_.do_step(OdeintSystem{&ode_, &counters_.rhs_evals}, y_, t_, next_, dt);
    if (!all_finite(next_)) {
      failure = "state became non-finite (NaN/Inf)";
      return false;
    }
    y_.swap(next_);
    t_ = t_next;
    ++counters_.steps;
    return true;
  }

 private:
  const OdeFormulation& ode_;
  double h_, t0_;
  Eigen::VectorXd next_;
  Stepper stepper_;
};

}  // namespace

IntegratorInfo rk4_info() {
  return {"rk4", FormulationKind::EmbeddedOde, 4, false,
          "classical Runge-Kutta 4, fixed step (Boost.Odeint), R as 9 numbers", {},
          [](const Formulation& f, const IntegratorSettings& s, double t0) -> std::unique_ptr<TimeStepper> {
            return std::make_unique<Rk4Stepper>(dynamic_cast<const OdeFormulation&>(f), s.h, t0);
          }};
}

}  // namespace tb
