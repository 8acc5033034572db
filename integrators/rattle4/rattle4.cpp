// A fourth-order RATTLE: the symmetric composition (integrators/composition.hpp; Hairer, Lubich
// & Wanner §II.4 (4.4)-(4.6), and §VII.1 for RATTLE) of the RATTLE step of integrators/rattle.
//
// RATTLE is symmetric, and symplectic on the constrained manifold for forces that do not depend
// on the velocity (HLW Theorems VII.1.3-1.4), so Φ_{-h} ∘ Φ_h = id and the palindromic
// compositions of Yoshida (3 substeps) and Suzuki (5) are of order 4, symmetric, symplectic
// where RATTLE is, and conserve what RATTLE conserves (momentum maps of symmetries, the
// constraints g(q) = 0 and G(q) v = 0 at every substep's end to the Newton tolerance). With a
// velocity-dependent force (the damped tether) RATTLE's step takes it at v_k and v_{k+1}
// (integrators/rattle), still symmetric, so the composition is of order 4 there too (measured).
// Substep i starts at t_k + (γ_1 + ... + γ_{i-1}) h. RATTLE's step has no history (its Newton
// starts from the free flight q_k + h v_k), so one RattleStep serves every substep.

#include "integrators/rattle4/rattle4.hpp"

#include <string>

#include "core/format.hpp"
#include "integrators/composition.hpp"
#include "integrators/rattle_step.hpp"

namespace tb {

namespace {

class Rattle4Stepper final : public TimeStepper {
 public:
  Rattle4Stepper(const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, form.initial_state()),
        gamma_(fourth_order_composition(s.get_int("scheme"))),
        step_(form, s.get("newton_tol"), s.get_int("max_newton_iters")),
        h_(s.h),
        t0_(t0) {}

  bool step(double t_stop, StepFailure& failure) override {
    return take_fixed_step(t0_, h_, t_stop, next_, failure, [&](double h, Eigen::VectorXd& next, StepFailure& f) {
      const Eigen::VectorXd* from = &y_;
      double t = t_;
      for (std::size_t i = 0; i < gamma_.size(); ++i) {
        Eigen::VectorXd& to = i % 2 == 0 ? a_ : b_;
        const RattleStep::Result r = step_.step(t, gamma_[i] * h, *from, to);
        counters_.newton_iters += r.newton_iters;
        counters_.rhs_evals += r.force_evals;
        if (!r.ok) {
          f = r.failure;
          f.reason = "substep " + std::to_string(i + 1) + " of " + std::to_string(gamma_.size()) + " (h' = " +
                     format_g(gamma_[i], 4) + " h): " + f.reason;
          return false;  // time and state as they were
        }
        t += gamma_[i] * h;
        from = &to;
      }
      next = *from;
      return true;
    });
  }

 private:
  std::vector<double> gamma_;
  RattleStep step_;
  double h_, t0_;
  Eigen::VectorXd a_, b_;  // substep states
  Eigen::VectorXd next_;
};

}  // namespace

IntegratorInfo rattle4_info() {
  std::vector<SettingSpec> settings = rattle_newton_settings();
  settings.insert(settings.begin(), composition_scheme_setting("rattle"));
  return {"rattle4", FormulationKind::ConstrainedMechanical, 4, false, MethodTraits{.implicit = true, .symmetric = true, .symplectic = true, .conserves_momentum_map = true},
          "4th-order symmetric composition (Yoshida/Suzuki) of the rattle step; 3 or 5 rattle steps per step",
          settings,
          [](const Formulation& f, const IntegratorSettings& s, double t0) -> std::unique_ptr<TimeStepper> {
            const auto& form = dynamic_cast<const ConstrainedMechanicalFormulation&>(f);
            return std::make_unique<Rattle4Stepper>(form, s, t0);
          }};
}

}  // namespace tb
