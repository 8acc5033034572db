// Runge-Kutta-Munthe-Kaas of order 4 (Munthe-Kaas 1999, "High order Runge-Kutta methods on
// manifolds", Appl. Numer. Math. 29, 115-127, Algorithm 2.1; Iserles, Munthe-Kaas, Norsett &
// Zanna 2000, Acta Numerica 9, §5.2), fixed step, on a model's Lie group ODE form: the
// classical RK4 tableau applied to the algebra equation u' = dexp^{-1}_u(xi(exp(u) . y0))
// (integrators/munthe_kaas_stages.hpp), with c = (0, 1/2, 1/2, 1), a21 = a32 = 1/2, a43 = 1,
// b = (1/6, 1/3, 1/3, 1/6):
//   k1 = xi(y0)
//   k2 = dexp^{-1}_{u2} xi(exp(u2) . y0),  u2 = h k1 / 2
//   k3 = dexp^{-1}_{u3} xi(exp(u3) . y0),  u3 = h k2 / 2
//   k4 = dexp^{-1}_{u4} xi(exp(u4) . y0),  u4 = h k3
//   y1 = exp(h (k1 + 2 k2 + 2 k3 + k4) / 6) . y0.
// dexp^{-1} truncated after ad^2 (v - [u, v]/2 + [u, [u, v]]/12): q = p - 2 = 2 suffices for
// order 4 (Munthe-Kaas 1999, Thm. 2), and since B_3 = 0 it is also the series to ad^3.
// Explicit and not symplectic: its energy error drifts like rk4's; R and q move only by exp,
// so R^T R = I and |q| = 1 hold to round-off.

#include "integrators/rkmk4/rkmk4.hpp"

#include "core/fixed_step.hpp"
#include "integrators/munthe_kaas_stages.hpp"

namespace tb {
namespace {

const ExplicitTableau& classical_rk4() {
  static const ExplicitTableau tableau{{0.0, 0.5, 0.5, 1.0}, {{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}},
                                       {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0}};
  return tableau;
}

class Rkmk4Stepper final : public FixedStepStepper {
 public:
  Rkmk4Stepper(const LieGroupOdeFormulation& form, double h, double t0)
      : FixedStepStepper(t0, h, form.initial_state()), stages_(form, 2) {}

 private:
  bool advance(double dt, Eigen::VectorXd& next, StepFailure& failure) override {
    if (!stages_.evaluate(classical_rk4(), t_, y_, dt, counters_.rhs_evals)) {
      failure = {StepFailure::Kind::Diverged, "field became non-finite (NaN/Inf) at a stage"};
      return false;
    }
    stages_.combine(classical_rk4().b, dt, u_);
    stages_.form().manifold().act(u_, y_, next);
    if (all_finite(next)) return true;
    failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
    return false;
  }

  MuntheKaasStages stages_;
  Eigen::VectorXd u_;
};

}  // namespace

IntegratorInfo rkmk4_info() {
  return {"rkmk4", 4, false, MethodTraits{.on_manifold = true},
          "Runge-Kutta-Munthe-Kaas 4 (Munthe-Kaas 1999), fixed step, explicit: RK4 in the Lie algebra, R and q_i moved by exp",
          {},
          consuming([](const LieGroupOdeFormulation& form, const IntegratorSettings& s, double t0) {
            return std::make_unique<Rkmk4Stepper>(form, s.h, t0);
          })};
}

}  // namespace tb
