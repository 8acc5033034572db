#pragma once
// The formulations the elastic pendulum offers: the first-order ODE (rk4, rk45) and a
// discrete Lie group form with no rotational unknowns (the LGVI then reduces to
// Stoermer-Verlet, the variational integrator of the trapezoidal discrete Lagrangian).
// There is no constraint and no rigid body: its index-1 DAE form is the implicit ODE
// x' = v, m v' = -grad V (UnconstrainedDaeOf over the constrained form below), and there is no
// lumped-mass form.

#include "models/elastic_pendulum/mechanics.hpp"

namespace tb::elastic_pendulum {

// State [x, v] (the physical-state layout).
class OdeForm final : public OdeFormulation {
 public:
  // A point mass on a spring: no holonomic constraint.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  OdeForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}
  int state_size() const override { return 6; }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

// State [x_k, p_k]: configuration and discrete momentum of the position-momentum form.
class LieGroupForm final : public DiscreteLieGroupFormulation {
 public:
  // A point mass on a spring: no holonomic constraint.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  LieGroupForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}
  int state_size() const override { return 6; }
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  // [x, p/m]: the inverse continuous Legendre transform.
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;
  std::unique_ptr<DiscreteLieGroupStep> make_step() const override;
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

// The constrained mechanical system with no constraint (RATTLE reduces to Stoermer-Verlet):
// q = x, v = x', M = m I3, f = -grad V. State [x, v] (the physical layout).
class ConstrainedForm final : public ConstrainedMechanicalFormulation {
 public:
  // A point mass on a spring: no holonomic constraint.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  ConstrainedForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}
  Eigen::VectorXd initial_state() const override;
  Observation observe(double, const Eigen::VectorXd& y) const override { return mech_.observe(y.head<3>(), y.tail<3>()); }
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }

  int positions() const override { return 3; }
  int constraints() const override { return 0; }
  void mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const override { Mv = mech_.params().m * v; }
  void mass_entries(std::vector<Eigen::Triplet<double>>& entries) const override;
  void force(double, const Eigen::VectorXd& q, const Eigen::VectorXd&, Eigen::VectorXd& f) const override {
    f = -mech_.potential_gradient(q.head<3>());
  }
  void constraint(const Eigen::VectorXd&, Eigen::VectorXd& g) const override { g.resize(0); }
  Eigen::VectorXd constraint_scale() const override { return Eigen::VectorXd(0); }
  void constraint_jacobian(const Eigen::VectorXd&, std::vector<Eigen::Triplet<double>>&) const override {}
  void constraint_jacobian_times(const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& Gv) const override {
    Gv.resize(0);
  }
  void constraint_jacobian_transpose_times(const Eigen::VectorXd&, const Eigen::VectorXd&,
                                           Eigen::VectorXd& GTlambda) const override {
    GTlambda.setZero(3);
  }
  std::unique_ptr<ConstrainedMechanicalSolver> make_solver() const override;
  // One node: its DAE form (UnconstrainedDaeOf, mechanics/unconstrained_dae.hpp) has nothing to band.
  int node_half_bandwidth() const { return 0; }
  // Tangents: K_f = -Hess V (the spring), no velocity dependence, no constraints.
  std::string why_not_tangents() const override { return ""; }
  void force_jacobian_entries(double, const Eigen::VectorXd& q, const Eigen::VectorXd&,
                              std::vector<Eigen::Triplet<double>>& dfdq,
                              std::vector<Eigen::Triplet<double>>&) const override {
    const Mat3 H = mech_.potential_hessian(q.head<3>());
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) dfdq.emplace_back(i, j, -H(i, j));
  }

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

}  // namespace tb::elastic_pendulum
