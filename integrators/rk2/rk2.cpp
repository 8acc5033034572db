// Fixed-step explicit Runge-Kutta of order 2 on a model's ODE form. On the lumped-mass string
// (the "lumped" discretisation of Models A and B: diagonal string mass, R as 9 numbers with
// Rdot = R hat(Omega)) at the LGVI's step it is the papers' baseline (seed 002 Table 1,
// "lumped mass + RK"; SPEC "Model B", "Lumped-mass model"), the LGVI's order at the same step.
//
// Method: the explicit midpoint rule as a Boost.Odeint explicit_generic_rk<2, 2>. Butcher tableau:
//
//     0   |
//    1/2  | 1/2
//   ------+----------
//         |  0    1
//
//   c = (0, 1/2), a21 = 1/2, b = (0, 1):
//   k1 = f(t, y), k2 = f(t + h/2, y + h/2 k1), y_{n+1} = y_n + h k2.

#include "integrators/rk2/rk2.hpp"

#include <cmath>

#include "integrators/odeint_system.hpp"

namespace tb {
namespace {

namespace odeint = boost::numeric::odeint;

using MidpointOdeint = odeint::explicit_generic_rk<2, 2, Eigen::VectorXd, double, Eigen::VectorXd, double,
                                            odeint::vector_space_algebra,
                                            odeint::operations_dispatcher<Eigen::VectorXd>::operations_type,
                                            odeint::initially_resizer>;

MidpointOdeint explicit_midpoint() {
  const boost::array<double, 1> a21 = {{0.5}};
  const MidpointOdeint::coef_b_type b = {{0.0, 1.0}};
  const MidpointOdeint::coef_c_type c = {{0.0, 0.5}};
  return MidpointOdeint(MidpointOdeint::coef_a_type(a21), b, c);
}

}  // namespace

IntegratorInfo rk2_info() {
  return {"rk2", 2, false, MethodTraits{.imaginary_axis_stable = false},
          "explicit midpoint RK2, fixed step (Boost.Odeint generic RK); on the lumped string, the seed-002 'RK' baseline", {},
          consuming([](const OdeFormulation& ode, const IntegratorSettings& s, double t0) {
            return std::make_unique<FixedStepOdeint<MidpointOdeint>>(ode, s.h, t0, explicit_midpoint());
          })};
}

}  // namespace tb
