#pragma once
// The penalty regularisation of any constrained form with one-sided rows (issue 48's "no events"
// baseline on a cable of unilateral links): each one-sided row becomes a linear spring-dashpot
// (core/kelvin_voigt_contact.hpp) acting while it is violated, so the motion is an ODE without jumps
// that every ODE method steps through; the equality rows (a rigid body's R^T R = I) stay held.
//
// Per row i, in length units: the gap x_i = g_i / sqrt(s_i) (s_i = constraint_scale: on a link
// g = (|d|^2 - l^2)/2, s = l^2, so x = (|d|^2 - l^2)/(2 l) = (|d| - l)(1 + (|d| - l)/(2 l)), the
// stretch to a relative O(stretch / l)) and its rate x'_i = (G v)_i / sqrt(s_i). Where x_i > 0 the row
// pulls with T_i = k_i x_i + c_i x'_i (N; not clipped at 0: the dashpot pushes while the row shortens
// faster than k x / c, which is what makes Newton's e exact for a free contact), a generalised force
// -G_i^T T_i / sqrt(s_i), the gradient of the spring's energy 1/2 k_i x_i^2 plus the dashpot's.
// Between them the equality rows are Baumgarte-stabilised at the acceleration level (seed 004 §3, as
// core/hybrid_constrained_ode.hpp holds its rows):
//   q' = v,   [M  G_E^T] [v'    ]   [f(t, q, v) - sum_i G_i^T T_i / sqrt(s_i)          ]
//             [G_E  0  ] [lambda] = [-(dG/dt) v - 2 p G v - p^2 g, the equality rows E]
// with the form's own structured solver (factor_active on E), O(N) on a cable.
//
// Stiffness: each row has the contact frequency omega against the rest held rigid. Its effective mass along
// itself with every other row held, m_i = [W^-1]_ii (W = G M^-1 G^T in length units: the rigid cable's impulse
// matrix), is taken at a calibration configuration the model gives with every row at its length (a slack start
// would read the rows' directions short), and k_i = m_i omega^2, c_i = 2 zeta omega m_i, zeta from e
// (restitution_damping_ratio). On a cable of light joints carrying heavy bodies m_i is the bodies' reduced mass
// (a link between two free joints alone would be the joints' grams, a spring too soft to carry the payload); n
// such rows in series carry a body at about omega / sqrt(n), and the light joints between stiff rows ring at
// about 2 sqrt(k_i / m_joint), far above omega: the regularisation's stiffness.
//
// State y = [q, v, W (the form's work terms)]: the dashpot's work is added to W's first entry, the
// impacts' loss, so that E - E0 - W stays the invariant, E holding the springs' 1/2 k_i x_i^2. Its
// switching functions are the rows' kinks, x_i (a method that locates kinks stops there; no jump).

#include <memory>
#include <string>
#include <vector>

#include "core/formulation.hpp"

namespace tb {

struct PenaltyLaw {
  double contact_frequency = 0.0;  // omega (rad/s): each one-sided row's own, alone, at the calibration configuration
  double restitution = 0.0;        // Newton's e, reproduced by a free contact of one row (the linear oscillator's)
  double baumgarte_rate = 0.0;     // p (1/s): the equality rows' drift decays like exp(-p t)
};

class PenaltyConstrainedOde final : public OdeFormulation {
 public:
  // The form must have one-sided rows and a work term; calibration_q has every one-sided row at its length
  // (std::invalid_argument otherwise, or where a row's effective mass is not positive and finite there).
  PenaltyConstrainedOde(std::unique_ptr<const ConstrainedMechanicalFormulation> form, PenaltyLaw law,
                        const Eigen::VectorXd& calibration_q);
  // The rows' stretch is the regularisation's own, observed as a violation; the equality rows drift by Baumgarte.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  int state_size() const override { return base_; }
  Eigen::VectorXd initial_state() const override { return form_->initial_state(); }
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return form_->extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return form_->physical_state(y); }
  void switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const override;

  // Every one-sided row's pull T_e at the form's state y = [q, v, ...], in their order (N; 0 where a row is not
  // stretched, negative where its dashpot pushes).
  Eigen::VectorXd pulls(const Eigen::VectorXd& y) const;
  // Their spring's part alone, k_e x_e (N; 0 where not stretched): the elastic force each row carries, without
  // the dashpot's c x', which jumps by c v where a row closes at speed v.
  Eigen::VectorXd spring_pulls(const Eigen::VectorXd& y) const;
  int one_sided_rows() const { return int(one_sided_.size()); }
  double stiffness(int e) const { return k_[size_t(e)]; }
  double damping(int e) const { return c_[size_t(e)]; }
  double effective_mass(int e) const { return mass_[size_t(e)]; }
  // The same row's effective mass with the other one-sided rows free (only the equality rows held), at the
  // calibration configuration: what its own spring and dashpot act on when its neighbours do not hold it.
  double local_mass(int e) const { return local_mass_[size_t(e)]; }
  // The linearised motion on the calibration configuration with every one-sided row stretched (its springs and
  // dashpots only: no tension's geometric stiffness, no gravity), M z'' + C z' + K z = 0 on the equality rows' null
  // space, solved densely once (O(N^3): tests and pages, not the integration):
  //  - fastest: the largest |eigenvalue| (1/s), which an explicit method's stability region must hold times h;
  //  - the slowest oscillatory pair (a collective contact: several rows in series), its frequency |lambda| (rad/s)
  //    and damping ratio -Re lambda / |lambda|, and the linear oscillator's restitution at that ratio.
  struct LinearModes {
    double fastest = 0.0;
    double slow_frequency = 0.0, slow_damping_ratio = 0.0, slow_restitution = 0.0;
    bool found = false;  // false where the form gives no dense entries or no oscillatory pair
  };
  LinearModes linear_modes() const;
  double damping_ratio() const { return zeta_; }
  // How long an observer reads one contact's loss for (s): core/kelvin_voigt_contact.hpp contact_window.
  double contact_time() const;
  const PenaltyLaw& law() const { return law_; }

 private:
  // The gaps x and rates x' of every row (length units; the equality rows' too).
  void gaps(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& x, Eigen::VectorXd& rate) const;
  std::unique_ptr<const ConstrainedMechanicalFormulation> form_;
  PenaltyLaw law_;
  int n_, rows_, base_;
  std::vector<int> one_sided_;
  std::vector<bool> equality_;
  Eigen::VectorXd root_scale_;  // sqrt(constraint_scale()): a row's length unit
  std::vector<double> mass_, local_mass_, k_, c_;
  double zeta_ = 1.0;
  Eigen::VectorXd calibration_q_;  // where the stiffness was calibrated (linear_modes)
  mutable std::unique_ptr<ConstrainedMechanicalSolver> solver_;  // one formulation object per run
};

}  // namespace tb
