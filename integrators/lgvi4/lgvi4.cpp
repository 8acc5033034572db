// A fourth-order Lie group variational integrator: a symmetric composition of the LGVI step.
//
// Derivation: integrators/composition.hpp (Hairer, Lubich & Wanner §II.4 (4.4)-(4.6); Yoshida
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

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/format.hpp"
#include "integrators/composition.hpp"
#include "integrators/lgvi_step_solver.hpp"

namespace tb {

namespace {

class Lgvi4Stepper final : public TimeStepper {
 public:
  Lgvi4Stepper(const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, form.initial_state()), gamma_(fourth_order_composition(s.get_int("scheme"))), h_(s.h), t0_(t0) {
    stages_.reserve(gamma_.size());
    for (std::size_t i = 0; i < gamma_.size(); ++i) stages_.emplace_back(form, s, counters_);
  }

  bool step(double t_stop, StepFailure& failure) override {
    return take_fixed_step(t0_, h_, t_stop, next_, failure, [&](double h, Eigen::VectorXd& next, StepFailure& f) {
      const Eigen::VectorXd* from = &y_;
      for (std::size_t i = 0; i < gamma_.size(); ++i) {
        Eigen::VectorXd& to = i % 2 == 0 ? a_ : b_;
        if (!stages_[i].solve(*from, gamma_[i] * h, to, f)) {
          f.reason = "substep " + std::to_string(i + 1) + " of " + std::to_string(gamma_.size()) + " (h' = " +
                     format_g(gamma_[i], 4) + " h): " + f.reason;
          return false;  // nothing committed: time, state and predictor histories as they were
        }
        from = &to;
      }
      for (auto& stage : stages_) stage.commit();
      next = *from;
      return true;
    });
  }

 private:
  std::vector<double> gamma_;
  std::vector<LgviStepSolver> stages_;  // one per substep: its own model step and predictor history
  double h_;
  double t0_;
  Eigen::VectorXd a_, b_;  // substep states
  Eigen::VectorXd next_;
};

}  // namespace

IntegratorInfo lgvi4_info() {
  std::vector<SettingSpec> settings = lgvi_newton_settings();
  const SettingSpec scheme = composition_scheme_setting("lgvi");
  settings.insert(settings.begin(), scheme);
  return {"lgvi4", FormulationKind::DiscreteLieGroup, 4, false, MethodTraits{.implicit = true, .symmetric = true, .symplectic = true, .conserves_momentum_map = true},
          "4th-order symmetric composition (Yoshida/Suzuki) of the lgvi step; same Newton solver, 3 or 5 lgvi steps per step",
          settings,
          [](const Formulation& f, const IntegratorSettings& s, double t0) -> std::unique_ptr<TimeStepper> {
            const auto& form = dynamic_cast<const DiscreteLieGroupFormulation&>(f);
            if (const std::string why = form.why_not_time_symmetric(); !why.empty())
              throw std::invalid_argument("lgvi4 composes a symmetric step to 4th order, and this step is not symmetric: " +
                                          why);
            return std::make_unique<Lgvi4Stepper>(form, s, t0);
          }};
}

}  // namespace tb
