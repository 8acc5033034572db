#pragma once
// Model C's unilateral cables as a hybrid index-1 DAE, for IDA (issue 48: the event-driven BDF method
// on the cables that go slack and snap). Between events the DAE of dae_form.cpp (natural coordinates,
// each link's multiplier an algebraic variable, the held links' rows Baumgarte-stabilised at the
// acceleration level, seed 004 §3) with a slack link's row replaced by its multiplier's:
//   held link j of cable a:  d_j . (A_j - A_{j-1}) + |DV_j|^2 + 2p d_j . DV_j + p^2 C_j = 0   (DaeForm)
//   slack link:              lambda_j^a l^2 / m_p = 0                                       (no tension)
// so a slack link's joints move apart or together freely, each carrying its share of the link's mass.
// State y = [DaeForm's y (N) | W, the impacts' loss (J) | mode, one per constraint row of the
// constrained form (1 held) | release gap, one per row]: the last three differential with y' = 0.
//
// The switches and jumps are the hybrid ODE's (core/hybrid_constrained_ode.hpp), the same code the
// event-driven Runge-Kutta methods run: this form carries a HybridConstrainedOde on the constrained
// form (constrained_form.cpp, whose q and v are this DAE's joints and velocities, and R' = R hat(Omega))
// and maps its state to it and back. Its event functions are that ODE's: a held link's tension from the
// stabilised index-1 solve at IDA's differential state (not IDA's own multiplier: the two forms agree on
// the constraint manifold and, off it, each stabilises with its own Baumgarte rate), a slack link's gap. At a located
// event its jump (Newton's impact law over the closing and held links, the loss booked in W, the
// modes settled at the acceleration level, a Zeno accumulation reported) acts on the mapped state,
// and consistent_after_jump re-solves the multipliers and y' of the new mode (DaeForm::solve_index_one
// with the slack links released) before IDA restarts.
#include <memory>
#include <vector>

#include "core/hybrid_constrained_ode.hpp"
#include "models/multirotor_payload/forms.hpp"

namespace tb::multirotor_payload {

class HybridDaeForm final : public DaeFormulation {
 public:
  HybridDaeForm(const Parameters& p, const InitialCondition& ic, HybridTimeScales scales, HybridClosingRules closing = {});
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  int state_size() const override { return dae_size_ + 1 + 2 * rows_; }
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return switches_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;
  void switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const override;
  bool apply_jump(double t, Eigen::VectorXd& y) const override;
  const JumpLog* jump_log() const override { return switches_.jump_log(); }

  Eigen::VectorXd differential_components() const override;
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters& b) const override;
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters& b) const override;
  bool consistent_after_jump(double t, Eigen::VectorXd& y, Eigen::VectorXd& yp, const BaumgarteParameters& b) const override;
  void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                Eigen::VectorXd& F) const override;
  // DaeForm's entries, a slack link's row replaced (its entries kept as explicit zeros, so that the
  // sparsity pattern IDA's KLU reads at the start holds in every mode), and the tail's cj diagonal.
  void jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& entries) const override;
  int lower_bandwidth() const override { return dae_.lower_bandwidth(); }
  int upper_bandwidth() const override { return dae_.upper_bandwidth(); }

  // The hybrid ODE's state [q, v, W, mode, release gap] of y, and y's differential part from one
  // (the multipliers left to solve_multipliers). Public for the tests.
  Eigen::VectorXd switching_state(const Eigen::VectorXd& y) const;
  void from_switching_state(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  const DaeForm& dae() const { return dae_; }

 private:
  bool held(const Eigen::VectorXd& y, int a, int j) const { return y[dae_size_ + 1 + constrained_.link_row(a, j)] > 0.5; }
  // The multipliers of y's mode into y, and y' (DaeForm::solve_index_one, slack links released).
  Eigen::VectorXd solve_multipliers(Eigen::VectorXd& y, const BaumgarteParameters& b) const;
  // A slack link's row: lambda times l^2 / m_p, in the held row's units (m^2/s^2).
  double slack_row_scale() const;

  DaeForm dae_;
  ConstrainedForm constrained_;     // the index maps of the hybrid ODE's q and v
  HybridConstrainedOde switches_;   // one form object per run: its Zeno guard is this run's
  int m_, n_, dae_size_, rows_;
};

}  // namespace tb::multirotor_payload
