// The rattle integrator: fixed steps of the RATTLE step (integrators/rattle_step.cpp: the scheme,
// its derivation and its Newton on the multipliers) on a constrained mechanical form.

#include "integrators/rattle/rattle.hpp"

#include "core/fixed_step.hpp"
#include "integrators/rattle_step.hpp"

namespace tb {

namespace {

class RattleStepper final : public FixedStepStepper {
 public:
  RattleStepper(const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0)
      : FixedStepStepper(t0, s.h, form.initial_state()),
        step_(form, s.get("newton_tol"), s.get_int("max_newton_iters")) {}

 private:
  bool advance(double h, Eigen::VectorXd& next, StepFailure& failure) override {
    return book(step_.step(t_, h, y_, next), counters_, failure);
  }

  RattleStep step_;
};

}  // namespace

IntegratorInfo rattle_info() {
  return {"rattle", 2, false, MethodTraits{.implicit = true, .symmetric = true, .symplectic = true, .conserves_momentum_map = true, .imaginary_axis_bound = 2.0},
          "RATTLE: constrained Stoermer-Verlet in natural coordinates (R as 9 numbers), Newton on the multipliers "
          "with the model's structured solver",
          rattle_newton_settings(),
          consuming([](const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0) {
            return std::make_unique<RattleStepper>(form, s, t0);
          })};
}

}  // namespace tb
