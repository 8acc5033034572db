// A fourth-order RATTLE: the symmetric composition (core/composition.hpp; Hairer, Lubich
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

#include "core/composition.hpp"
#include "integrators/rattle_step.hpp"

namespace tb {

namespace {

class Rattle4Stepper final : public SymmetricComposition {
 public:
  Rattle4Stepper(const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0)
      : SymmetricComposition(t0, s.h, form.initial_state(), fourth_order_composition(s.word("scheme"))),
        step_(form, s.get("newton_tol"), s.get_int("max_newton_iters")) {}

 private:
  bool substep(std::size_t /*i*/, double t, double dt, const Eigen::VectorXd& from, Eigen::VectorXd& to,
               StepFailure& failure) override {
    return book(step_.step(t, dt, from, to), counters_, failure);
  }

  RattleStep step_;  // no history: one serves every substep
};

}  // namespace

IntegratorInfo rattle4_info() {
  std::vector<SettingSpec> settings = rattle_newton_settings();
  settings.insert(settings.begin(), composition_scheme_setting("rattle"));
  return {"rattle4", 4, false, MethodTraits{.implicit = true, .symmetric = true, .symplectic = true, .conserves_momentum_map = true},
          "4th-order symmetric composition (Yoshida/Suzuki) of the rattle step; 3 or 5 rattle steps per step",
          settings,
          consuming([](const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0) {
            return std::make_unique<Rattle4Stepper>(form, s, t0);
          })};
}

}  // namespace tb
