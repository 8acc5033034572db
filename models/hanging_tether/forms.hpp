#pragma once
// The hanging tether's formulation (SPEC "Formulations"): a first-order ODE in the node
// positions and velocities, y = [r_1..r_{N-1}, v_1..v_{N-1}, W_dissipated],
//   r' = v,   v' = M^{-1} f(r) - zeta v,   W_dissipated' = 2 zeta T,
// with one O(N) block-tridiagonal solve per evaluation, for either discretisation (the full
// tether's consistent mass or the lumped tether's diagonal mass); every ODE integrator runs it.

#include "models/hanging_tether/mechanics.hpp"

namespace tb::hanging_tether {

// The initial shape of a run, at rest.
enum class InitialShape {
  Straight,  // shapes.hpp straight_shape: every element compressed, the tether falls and settles
  Parabola,  // shapes.hpp parabola_shape with polygon length L: elements about unstretched
};

class TetherForm final : public OdeFormulation {
 public:
  TetherForm(const Parameters& p, InitialShape shape);
  int state_size() const override { return mech_.state_size(); }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialShape shape_;
  mutable State state_;  // rhs() workspace (one formulation object per run)
  mutable Eigen::VectorXd acc_;
};

}  // namespace tb::hanging_tether
