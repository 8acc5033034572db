// A fourth-order Lie group variational integrator: a symmetric composition of the LGVI step.
//
// Derivation (Hairer, Lubich & Wanner, Geometric Numerical Integration, 2nd ed., §II.4, eqs.
// (4.4)-(4.6); Yoshida, Phys. Lett. A 150 (1990) 262-268; Suzuki, Phys. Lett. A 146 (1990)
// 319-323). Let Φ_h be one step of the LGVI (integrators/lgvi: the model's discrete Legendre
// transform solved by Newton), of order p = 2 and symmetric, Φ_{-h} ∘ Φ_h = id (tested for
// every model in tests/test_lgvi_composition.cpp; a model whose step is not symmetric says so
// through DiscreteLieGroupFormulation::why_not_time_symmetric and this integrator refuses it).
// The composition
//   Ψ_h = Φ_{γ_s h} ∘ ... ∘ Φ_{γ_1 h}                                            (4.4)
// has order p + 1 when γ_1 + ... + γ_s = 1 and γ_1^{p+1} + ... + γ_s^{p+1} = 0 (Theorem 4.1),
// and, being symmetric when the γ_i are palindromic (γ_{s+1-i} = γ_i), even order, so p + 2 = 4.
// With s = 3 (Yoshida's triple jump)
//   γ_1 = γ_3 = 1 / (2 - 2^{1/3}) ≈ 1.3512,   γ_2 = -2^{1/3} / (2 - 2^{1/3}) ≈ -1.7024,   (4.5)
// and with s = 5 (Suzuki's fractal)
//   γ_1 = γ_2 = γ_4 = γ_5 = 1 / (4 - 4^{1/3}) ≈ 0.4145,   γ_3 = 1 - 4 γ_1 ≈ -0.6580.       (4.6)
// Both are compositions of symplectic maps that preserve the discrete momentum map (each Φ
// does), so Ψ is symplectic and conserves the same momenta; R stays on SO(3) since every
// substep multiplies it by a Cayley rotation. The triple jump takes 3 LGVI steps per step, one
// of them backwards and 1.7 times as long as h (each substep stays inside the LGVI's linear
// stability limit, that of its Störmer-Verlet-like translations, h ω < 2, only while
// 1.70 h ω < 2); Suzuki's takes 5, none longer than 0.66 h. A step's Newton solves
// start from their own stage's previous solutions (one LgviStepSolver per stage), since the
// substeps differ in size and sign.

#include "integrators/lgvi4/lgvi4.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/format.hpp"
#include "integrators/lgvi_step_solver.hpp"

namespace tb {

std::vector<double> lgvi4_coefficients(int scheme) {
  if (scheme == 0) {
    const double c = std::cbrt(2.0), g1 = 1.0 / (2.0 - c);
    return {g1, -c * g1, g1};
  }
  if (scheme == 1) {
    const double p = 1.0 / (4.0 - std::cbrt(4.0));
    return {p, p, 1.0 - 4.0 * p, p, p};
  }
  throw std::invalid_argument("lgvi4: composition scheme " + std::to_string(scheme) + " is not 0 or 1");
}

namespace {

class Lgvi4Stepper final : public TimeStepper {
 public:
  Lgvi4Stepper(const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, form.initial_state()), gamma_(lgvi4_coefficients(s.get_int("scheme"))), h_(s.h), t0_(t0) {
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
  SettingSpec scheme{"scheme",
                     "composition of lgvi steps: 0 Yoshida's triple jump (3 substeps, γ = 1.351, −1.702, 1.351), "
                     "1 Suzuki's 5-stage fractal (5 substeps, γ = 0.415 ×4 around −0.658)",
                     1.0, 0.0, true, 1.0, true};
  settings.insert(settings.begin(), scheme);
  return {"lgvi4", FormulationKind::DiscreteLieGroup, 4, false,
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
