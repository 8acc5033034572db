// Lie group variational integrator (seed 000 §IV; seed 003 Algorithm 1 for the
// position-momentum form). Each step solves the model's discrete Legendre transform
// G(x) = 0 for the step unknowns x (position increments, Cayley parameters of F_k) by
// Newton's method with the model's analytic, structured Jacobian, then updates
// g_{k+1} = g_k f_k and the momenta explicitly. Because R_{k+1} = R_k F_k with F_k = Cay(c)
// exactly orthogonal, orthonormality is kept to round-off whatever the Newton tolerance.

#include "integrators/lgvi/lgvi.hpp"

#include "integrators/lgvi_step_solver.hpp"

namespace tb {
namespace {

class LgviStepper final : public TimeStepper {
 public:
  LgviStepper(const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, form.initial_state()), solver_(form, s, counters_), h_(s.h), t0_(t0), next_(y_.size()) {}

  bool step(double t_stop, StepFailure& failure) override {
    return take_fixed_step(t0_, h_, t_stop, next_, failure, [&](double h, Eigen::VectorXd& next, StepFailure& f) {
      if (!solver_.solve(y_, h, next, f)) return false;
      solver_.commit();
      return true;
    });
  }

 private:
  LgviStepSolver solver_;  // Newton with predictor and continuation (integrators/lgvi_step_solver.hpp)
  double h_;
  double t0_;
  Eigen::VectorXd next_;
};

}  // namespace

IntegratorInfo lgvi_info() {
  return {"lgvi", FormulationKind::DiscreteLieGroup, 2, false, MethodTraits{.implicit = true, .symmetric = true, .symplectic = true, .conserves_momentum_map = true},
          "Lie group variational integrator: discrete Lagrangian, Newton on Cayley parameters, O(N) linear algebra",
          lgvi_newton_settings(),
          [](const Formulation& f, const IntegratorSettings& s, double t0) -> std::unique_ptr<TimeStepper> {
            return std::make_unique<LgviStepper>(dynamic_cast<const DiscreteLieGroupFormulation&>(f), s, t0);
          }};
}

}  // namespace tb
