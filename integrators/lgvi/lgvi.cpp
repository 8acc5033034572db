// Lie group variational integrator (seed 000 §IV; seed 003 Algorithm 1 for the
// position-momentum form). Each step solves the model's discrete Legendre transform
// G(x) = 0 for the step unknowns x (position increments, Cayley parameters of F_k) by
// Newton's method with the model's analytic, structured Jacobian, then updates
// g_{k+1} = g_k f_k and the momenta explicitly. Because R_{k+1} = R_k F_k with F_k = Cay(c)
// exactly orthogonal, orthonormality is kept to round-off whatever the Newton tolerance.

#include "integrators/lgvi/lgvi.hpp"

#include "core/fixed_step.hpp"
#include "integrators/lgvi_step_solver.hpp"

namespace tb {
namespace {

class LgviStepper final : public FixedStepStepper {
 public:
  LgviStepper(const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, double t0)
      : FixedStepStepper(t0, s.h, form.initial_state()), solver_(form, s, counters_) {}

 private:
  bool advance(double h, Eigen::VectorXd& next, StepFailure& failure) override {
    if (!solver_.solve(t_, y_, h, next, failure)) return false;
    solver_.commit();  // the predictor's history moves on only with an accepted step
    return true;
  }

  LgviStepSolver solver_;  // Newton with predictor and continuation (integrators/lgvi_step_solver.hpp)
};

}  // namespace

IntegratorInfo lgvi_info() {
  return {"lgvi", 2, false, MethodTraits{.implicit = true, .symmetric = true, .symplectic = true, .conserves_momentum_map = true,
                     .imaginary_axis_bound = 2.0, .on_manifold = true},
          "Lie group variational integrator: discrete Lagrangian, Newton on Cayley parameters, O(N) linear algebra",
          lgvi_newton_settings(),
          consuming([](const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, double t0) {
            return std::make_unique<LgviStepper>(form, s, t0);
          })};
}

}  // namespace tb
