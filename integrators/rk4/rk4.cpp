// Classical fixed-step Runge-Kutta of order 4 (Boost.Odeint runge_kutta4) on a model's ODE form.
// Butcher tableau: c = (0, 1/2, 1/2, 1), b = (1/6, 1/3, 1/3, 1/6), a21 = a32 = 1/2, a43 = 1.

#include "integrators/rk4/rk4.hpp"

#include "integrators/odeint_system.hpp"

#include <cmath>

namespace tb {
namespace {

using Rk4Odeint = boost::numeric::odeint::runge_kutta4<Eigen::VectorXd, double, Eigen::VectorXd, double,
                                                       boost::numeric::odeint::vector_space_algebra>;

}  // namespace

IntegratorInfo rk4_info() {
  return {"rk4", 4, false, MethodTraits{.imaginary_axis_bound = 2.0 * std::sqrt(2.0)}, "classical Runge-Kutta 4, fixed step (Boost.Odeint), R as 9 numbers", {},
          consuming([](const OdeFormulation& ode, const IntegratorSettings& s, double t0) {
            return std::make_unique<FixedStepOdeint<Rk4Odeint>>(ode, s.h, t0);
          })};
}

}  // namespace tb
