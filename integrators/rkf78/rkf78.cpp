// Adaptive Runge-Kutta-Fehlberg 7(8) (Fehlberg 1968, NASA TR R-287, Table X; Boost.Odeint
// runge_kutta_fehlberg78 under its controlled_runge_kutta error control) on a model's ODE
// form: 13 stages, the 7th-order solution propagated, the embedded 8th-order one for the
// local error estimate, err_i / (atol + rtol |y_i|) <= 1 per component.
//
// It computes the stored reference solutions and is not one of the compared integrators
// (integrators/registry.hpp: reference_solver_registry), so no method ranked in the tables is
// measured against itself; the compared rk45 recomputes every reference as a cross-check.
// No dense output: a reference needs only the state at its horizon, where the last step is
// shortened to land exactly.

#include "integrators/rkf78/rkf78.hpp"

#include <cmath>
#include <exception>

#include "integrators/odeint_system.hpp"

namespace tb {
namespace {

namespace odeint = boost::numeric::odeint;
using Fehlberg78 = odeint::runge_kutta_fehlberg78<Eigen::VectorXd, double, Eigen::VectorXd, double,
                                                  odeint::vector_space_algebra>;
using Controlled = odeint::result_of::make_controlled<Fehlberg78>::type;

class Rkf78Stepper final : public TimeStepper {
 public:
  Rkf78Stepper(const OdeFormulation& ode, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, ode.initial_state()),
        ode_(ode),
        stepper_(odeint::make_controlled(s.tolerances().atol, s.tolerances().rtol, Fehlberg78())),
        dt_(s.h) {}

  bool step(double t_stop, StepFailure& failure) override {
    // Retry with the controller's smaller step until the local error test passes; a step that
    // has shrunk to round-off relative to t is a failure of the error control.
    for (;;) {
      const double dt = std::min(dt_, t_stop - t_);
      if (!(dt > 1e-14 * std::max(1.0, std::abs(t_)))) {
        failure = {StepFailure::Kind::SolverFailed,
                   "step size control failed: the step shrank to " + std::to_string(dt) + " s at t = " +
                       std::to_string(t_) + " s"};
        return false;
      }
      double t = t_, h = dt;
      odeint::controlled_step_result result;
      try {
        result = stepper_.try_step(OdeintSystem{&ode_, &counters_.rhs_evals}, y_, t, next_, h);
      } catch (const std::exception& e) {
        failure = {StepFailure::Kind::SolverFailed, std::string("step size control failed: ") + e.what()};
        return false;
      }
      if (result == odeint::fail) {  // h is the controller's smaller step
        ++counters_.error_test_failures;
        if (!std::isfinite(h)) {
          failure = {StepFailure::Kind::Diverged, "error estimate became non-finite (NaN/Inf)"};
          return false;
        }
        dt_ = h;
        continue;
      }
      if (!all_finite(next_)) {
        failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
        return false;
      }
      // Only a full (not shortened) step proposes the next one; landing on t_stop keeps dt_.
      if (dt == dt_) dt_ = h;
      y_.swap(next_);
      t_ = dt == t_stop - t_ ? t_stop : t;
      ++counters_.steps;
      return true;
    }
  }

 private:
  const OdeFormulation& ode_;
  Controlled stepper_;
  double dt_;
  Eigen::VectorXd next_;
};

}  // namespace

IntegratorInfo rkf78_info() {
  return {"rkf78", 7, true, MethodTraits{},
          "adaptive Runge-Kutta-Fehlberg 7(8) (Boost.Odeint), rtol/atol; makes the reference solutions, not compared",
          error_tolerance_settings("relative tolerance of the error control err_i ≤ atol + rtol·|y_i|", 1e-12,
                                   "absolute tolerance of the error control err_i ≤ atol + rtol·|y_i|", 1e-14),
          consuming([](const OdeFormulation& form, const IntegratorSettings& s, double t0) {
            return std::make_unique<Rkf78Stepper>(form, s, t0);
          })};
}

}  // namespace tb
