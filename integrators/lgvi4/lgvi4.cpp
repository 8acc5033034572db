// A fourth-order Lie group variational integrator: a symmetric composition of the LGVI step.
//
// Derivation: core/composition.hpp (Hairer, Lubich & Wanner §II.4 (4.4)-(4.6); Yoshida
// 1990; Suzuki 1990) with Φ_h one step of the LGVI (integrators/lgvi: the model's discrete
// Legendre transform solved by Newton), of order 2 and symmetric, Φ_{-h} ∘ Φ_h = id (tested for
// every model in tests/test_lgvi_composition.cpp; a model whose step is not symmetric says so
// through DiscreteLieGroupFormulation::why_not_time_symmetric and this integrator refuses it).
// Both are compositions of symplectic maps that preserve the discrete momentum map (each Φ
// does), so Ψ is symplectic and conserves the same momenta; R stays on SO(3) since every
// substep multiplies it by a Cayley rotation. The triple jump takes 3 LGVI steps per step, one
// of them backwards, Suzuki's 5. A step's Newton solves
// start from their own stage's previous solutions (one LgviStepSolver per stage), since the
// substeps differ in size and sign.

#include "integrators/lgvi4/lgvi4.hpp"

#include <stdexcept>
#include <string>

#include "core/composition.hpp"
#include "integrators/lgvi_step_solver.hpp"

namespace tb {

namespace {

class Lgvi4Stepper final : public SymmetricComposition {
 public:
  Lgvi4Stepper(const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, double t0)
      : SymmetricComposition(t0, s.h, form.initial_state(), fourth_order_composition(s.word("scheme"))) {
    stages_.reserve(substeps());
    for (std::size_t i = 0; i < substeps(); ++i) stages_.emplace_back(form, s, counters_);
  }

 private:
  // t: the substep's own start (a model whose Lagrangian depends on time reads it).
  bool substep(std::size_t i, double t, double dt, const Eigen::VectorXd& from, Eigen::VectorXd& to,
               StepFailure& failure) override {
    return stages_[i].solve(t, from, dt, to, failure);
  }
  // Predictor histories move on only when the whole step succeeded.
  void accept() override {
    for (auto& stage : stages_) stage.commit();
  }

  std::vector<LgviStepSolver> stages_;  // one per substep: its own model step and predictor history
};

}  // namespace

IntegratorInfo lgvi4_info() {
  std::vector<SettingSpec> settings = lgvi_newton_settings();
  const SettingSpec scheme = composition_scheme_setting("lgvi");
  settings.insert(settings.begin(), scheme);
  IntegratorInfo info{"lgvi4", 4, false, MethodTraits{.implicit = true, .symmetric = true, .symplectic = true, .conserves_momentum_map = true,
                     .on_manifold = true},
          "4th-order symmetric composition (Yoshida/Suzuki) of the lgvi step; same Newton solver, 3 or 5 lgvi steps per step",
          settings,
          consuming([](const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, double t0) {
            if (const std::string why = form.why_not_time_symmetric(); !why.empty())
              throw std::invalid_argument("lgvi4 composes a symmetric step to 4th order, and this step is not symmetric: " +
                                          why);
            return std::make_unique<Lgvi4Stepper>(form, s, t0);
          })};
  // A step that is not symmetric composes to no higher order: declined (n/a, with the form's
  // reason) before anything is built, the factory's throw only guarding direct use.
  info.why_not = [](const Formulation& form) -> std::string {
    const auto* lg = dynamic_cast<const DiscreteLieGroupFormulation*>(&form);
    if (!lg) return "not a discrete Lie group form";
    const std::string why = lg->why_not_time_symmetric();
    return why.empty() ? "" : "it composes a symmetric step to 4th order, and this step is not symmetric: " + why;
  };
  return info;
}

}  // namespace tb
