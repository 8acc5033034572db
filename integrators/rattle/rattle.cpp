// The rattle integrator: fixed steps of the RATTLE step (integrators/rattle_step.cpp: the scheme,
// its derivation and its Newton on the multipliers) on a constrained mechanical form.

#include "integrators/rattle/rattle.hpp"

#include "integrators/rattle_step.hpp"

namespace tb {

namespace {

class RattleStepper final : public TimeStepper {
 public:
  RattleStepper(const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, form.initial_state()),
        step_(form, s.get("newton_tol"), s.get_int("max_newton_iters")),
        h_(s.h),
        t0_(t0) {}

  bool step(double t_stop, StepFailure& failure) override {
    return take_fixed_step(t0_, h_, t_stop, next_, failure, [&](double h, Eigen::VectorXd& next, StepFailure& f) {
      const RattleStep::Result r = step_.step(t_, h, y_, next);
      counters_.newton_iters += r.newton_iters;
      counters_.rhs_evals += r.force_evals;
      if (!r.ok) f = r.failure;
      return r.ok;
    });
  }

 private:
  RattleStep step_;
  double h_, t0_;
  Eigen::VectorXd next_;
};

}  // namespace

IntegratorInfo rattle_info() {
  return {"rattle", FormulationKind::ConstrainedMechanical, 2, false, MethodTraits{.implicit = true, .symmetric = true, .symplectic = true, .conserves_momentum_map = true},
          "RATTLE: constrained Stoermer-Verlet in natural coordinates (R as 9 numbers), Newton on the multipliers "
          "with the model's structured solver",
          rattle_newton_settings(),
          [](const Formulation& f, const IntegratorSettings& s, double t0) -> std::unique_ptr<TimeStepper> {
            return std::make_unique<RattleStepper>(dynamic_cast<const ConstrainedMechanicalFormulation&>(f), s, t0);
          }};
}

}  // namespace tb
