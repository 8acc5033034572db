#pragma once
// Fourth-order symmetric compositions of any symmetric second-order one-step map (Hairer, Lubich
// & Wanner, Geometric Numerical Integration, 2nd ed., §II.4, eqs. (4.4)-(4.6); Yoshida, Phys.
// Lett. A 150 (1990) 262-268; Suzuki, Phys. Lett. A 146 (1990) 319-323; after
// GeometricIntegrators.jl's Composition(method, coefficients)). The base map is the scheme's;
// the composition, its coefficients and its bookkeeping are written once, here.
//
// A step of size h is the base step Φ at sizes γ_1 h, ..., γ_s h in turn:
//   Ψ_h = Φ_{γ_s h} ∘ ... ∘ Φ_{γ_1 h}                                              (4.4)
// of order p + 1 when Σ γ_i = 1 and Σ γ_i^{p+1} = 0 (Theorem 4.1), and, the γ_i being
// palindromic and Φ symmetric (Φ_{-h} ∘ Φ_h = id), symmetric and so of even order: 4 from p = 2.
//   scheme 0, Yoshida's triple jump: γ_1 = γ_3 = 1/(2 - 2^{1/3}) ≈ 1.3512, γ_2 ≈ -1.7024   (4.5)
//   scheme 1, Suzuki's fractal:      γ_1,2,4,5 = 1/(4 - 4^{1/3}) ≈ 0.4145, γ_3 ≈ -0.6580    (4.6)
// The triple jump's middle substep runs backwards and 1.7 times as long as h, so each substep
// stays inside the base step's linear stability limit (h ω < 2 for the Störmer-Verlet-like
// ones) only while 1.70 h ω < 2; Suzuki's five substeps are none longer than 0.66 h.
// Ψ inherits what every Φ conserves (a symplectic form, momentum maps, a manifold it maps onto).

#include <Eigen/Dense>
#include <cstddef>
#include <string>
#include <vector>

#include "core/fixed_step.hpp"
#include "core/integrator.hpp"

namespace tb {

// The two compositions, by the words of the `scheme` setting.
inline constexpr const char* kSuzuki = "suzuki";    // Suzuki's 5-stage fractal (1990)
inline constexpr const char* kYoshida = "yoshida";  // Yoshida's triple jump (1990)

// The substep fractions γ_1..γ_s of `scheme` (kSuzuki or kYoshida); std::invalid_argument otherwise.
std::vector<double> fourth_order_composition(const std::string& scheme);

// The `scheme` setting of a composition of `base` steps (its meaning names the base): the word
// "suzuki" (default) or "yoshida"; the retired integer codes 1 and 0 are refused by name.
SettingSpec composition_scheme_setting(const std::string& base);

// A fixed-step stepper whose step is the composition (4.4) of a symmetric base step. The scheme
// implements substep() (one Φ); the composition runs them, names the failing substep, and calls
// accept() only when every substep of the step succeeded, so a failed step commits nothing.
class SymmetricComposition : public FixedStepStepper {
 protected:
  SymmetricComposition(double t0, double h, Eigen::VectorXd y0, std::vector<double> gamma);

  std::size_t substeps() const { return gamma_.size(); }

  // Substep i: one base step of size dt (γ_i h, negative for a backward substep) from `from` at
  // time t (t_k + (γ_1 + ... + γ_i-1) h) into `to`; false with the reason in `failure`.
  virtual bool substep(std::size_t i, double t, double dt, const Eigen::VectorXd& from, Eigen::VectorXd& to,
                       StepFailure& failure) = 0;
  // Every substep of the step succeeded: a base step with a history (a predictor) keeps it now.
  virtual void accept() {}

 private:
  bool advance(double h, Eigen::VectorXd& next, StepFailure& failure) final;

  std::vector<double> gamma_;
  Eigen::VectorXd a_, b_;  // substep states, used in turn
};

}  // namespace tb
