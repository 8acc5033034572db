#pragma once
// The hanging tether's formulations (SPEC "Formulations"), both in the node positions and
// velocities, y = [r_1..r_{N-1}, v_1..v_{N-1}, W_dissipated], for either discretisation (the
// full tether's consistent mass or the lumped tether's diagonal mass):
//  - TetherForm, a first-order ODE
//      r' = v,   v' = M^{-1} f(r) - zeta v,   W_dissipated' = 2 zeta T,
//    with one O(N) block-tridiagonal solve per evaluation; every ODE integrator runs it;
//  - ConstrainedTetherForm, the same mechanics as M r'' = f(r) - zeta M v with no constraints
//    (g empty) and the dissipated work as the form's work term: RATTLE is then Stoermer-Verlet;
//    and, over it, the index-1 DAE form (UnconstrainedDaeOf: the implicit ODE r' = v,
//    M v' = f(r) - zeta M v, with the dissipated work node by node) for IDA;
//  - LieGroupTetherForm, the variational integrator of the trapezoidal discrete Lagrangian in
//    the node positions with the damping by the discrete Lagrange-d'Alembert principle
//    (lie_group_form.cpp), for lgvi and lgvi4, in positions and momenta y = [r, p, W_dissipated].

#include "models/hanging_tether/mechanics.hpp"

namespace tb::hanging_tether {

// The initial shape of a run, at rest.
enum class InitialShape {
  Straight,  // shapes.hpp straight_shape: every element compressed, the tether falls and settles
  Parabola,  // shapes.hpp parabola_shape with polygon length L: elements about unstretched
  // shapes.hpp slack_middle_shape with strain 2%: the middle half of the elements slack, the
  // outer quarters taut. The step-cost benchmarks' state (no case file names it): a tension-only
  // tether's step then meets both its slack and its taut branch.
  SlackMiddle,
  // The hanging equilibrium of the discretisation (static_equilibrium.hpp), at rest: a driven
  // anchor's case starts there, so that every motion is the drive's.
  Equilibrium,
};

// The state at t = 0: the case's shape, at rest, nothing dissipated yet.
Eigen::VectorXd initial_tether_state(const Mechanics& mech, InitialShape shape);

class TetherForm final : public OdeFormulation {
 public:
  // Free nodes between fixed anchors: no holonomic constraint.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  TetherForm(const Parameters& p, InitialShape shape);
  int state_size() const override { return mech_.state_size(); }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return mech_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialShape shape_;
  mutable State state_;  // rhs() workspace (one formulation object per run)
  mutable Eigen::VectorXd acc_;
};

class ConstrainedTetherForm final : public ConstrainedMechanicalFormulation {
 public:
  // constraints() = 0: plain Stoermer-Verlet, nothing to violate.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  ConstrainedTetherForm(const Parameters& p, InitialShape shape);
  Eigen::VectorXd initial_state() const override { return initial_tether_state(mech_, shape_); }
  Observation observe(double t, const Eigen::VectorXd& y) const override { return mech_.observe(mech_.unpack(t, y)); }
  std::vector<std::string> extra_column_names() const override { return mech_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }  // TetherForm's layout

  int positions() const override { return 3 * mech_.free_nodes(); }
  int constraints() const override { return 0; }
  void mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const override;
  void mass_entries(std::vector<Eigen::Triplet<double>>& entries) const override;
  // f = static_forces(r) - zeta M v: elastic, gravity and the viscous damping (with a driven
  // anchor r_0 = A(t), and its coupling anchor_inertia_force on node 1).
  void force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const override;
  bool force_depends_on_velocity() const override { return mech_.params().damping_rate > 0.0; }
  // The dissipated work and, with a driven anchor, W~ of the anchor's work (mechanics.hpp).
  int work_terms() const override { return mech_.driven() ? 2 : 1; }
  // The dissipated power zeta v_f.(M v)_f (2 zeta T with a fixed anchor) and P~ (mechanics.hpp).
  void power(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& P) const override;
  void constraint(const Eigen::VectorXd& /*q*/, Eigen::VectorXd& g) const override { g.resize(0); }
  Eigen::VectorXd constraint_scale() const override { return Eigen::VectorXd(0); }
  void constraint_jacobian(const Eigen::VectorXd& /*q*/, std::vector<Eigen::Triplet<double>>& entries) const override {
    entries.clear();
  }
  void constraint_jacobian_times(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*v*/,
                                 Eigen::VectorXd& Gv) const override {
    Gv.resize(0);
  }
  void constraint_jacobian_transpose_times(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*lambda*/,
                                           Eigen::VectorXd& GTlambda) const override {
    GTlambda.setZero(positions());
  }
  // Tangents for generalized_alpha: df/dq = -S (Mechanics::assemble_tangent_stiffness, the
  // elastic springs' block-tridiagonal stiffness; gravity is constant), df/dv = -zeta M; no
  // constraints, so no d(G^T lambda)/dq.
  std::string why_not_tangents() const override { return ""; }
  void force_jacobian_entries(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              std::vector<Eigen::Triplet<double>>& dfdq,
                              std::vector<Eigen::Triplet<double>>& dfdv) const override;
  // With no constraints the saddle-point system is M x = r: the factored block-tridiagonal mass.
  std::unique_ptr<ConstrainedMechanicalSolver> make_solver() const override;

  // For the index-1 DAE form (UnconstrainedDaeOf, mechanics/unconstrained_dae.hpp): a node couples
  // to its neighbours through the springs (and the consistent mass); the damping
  // f_d = -zeta M v through the mass matrix only (lumped: none), and its power on each node is
  // that node's share of the dissipated work.
  int node_half_bandwidth() const { return 1; }
  int dissipation_node_half_bandwidth() const { return mech_.params().discretisation == Discretisation::Full ? 1 : 0; }
  void dissipative_force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& fd) const;
  void dissipative_force_jacobian_entries(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                          std::vector<Eigen::Triplet<double>>& dfdq,
                                          std::vector<Eigen::Triplet<double>>& dfdv) const;
  // The driven anchor's P~ node by node (all of it on free node 1: it reads r_1 and v_1 only), and
  // its derivatives as (node, coordinate) entries: dP~/dr_1 = -v_0^T K_0 (K_0 = element 0's
  // stiffness, F_0 = F(r_1 - A) so dF_0/dr_1 = K_0), dP~/dv_1 = -M_10 a_0.
  bool drives_a_point() const { return mech_.driven(); }
  void drive_node_powers(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& P) const;
  void drive_node_power_jacobian_entries(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                         std::vector<Eigen::Triplet<double>>& dPdq,
                                         std::vector<Eigen::Triplet<double>>& dPdv) const;

 private:
  Mechanics mech_;
  InitialShape shape_;
  mutable std::vector<Vec3> nodes_;  // force() workspace (one formulation object per run)
};

// State y = [r_1..r_{N-1}, p_1..p_{N-1}, W_dissipated(, W~)]: positions, the discrete momenta
// (p = M_ff v at t0, the continuous Legendre transform less the driven anchor's part M_f0 v_0,
// so that the layout does not depend on t), the work the discrete damping forces dissipated and,
// with a driven anchor, W~ of its work (lie_group_form.cpp).
class LieGroupTetherForm final : public DiscreteLieGroupFormulation {
 public:
  // Free nodes between fixed anchors: no holonomic constraint.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  LieGroupTetherForm(const Parameters& p, InitialShape shape);
  int state_size() const override { return mech_.state_size(); }
  Eigen::VectorXd initial_state() const override;
  // H(r, p) with v = M^{-1} p, and the dissipated work as TetherForm reports it.
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return mech_.extra_column_names(); }
  // [r, M^{-1} p, W]: TetherForm's layout (one O(N) solve with the factored mass matrix).
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;
  std::unique_ptr<DiscreteLieGroupStep> make_step() const override;
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialShape shape_;
};

}  // namespace tb::hanging_tether
