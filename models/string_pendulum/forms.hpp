#pragma once
// The formulations Model A offers (SPEC "Formulations"): the embedded ODE and the discrete
// Lie group (LGVI) form, which wrap the same (consistent-mass) Mechanics and so integrate the
// same system, and the lumped-mass form: the papers' baseline string (diagonal mass), a
// different discretisation computed and observed by the same Mechanics code.

#include "models/string_pendulum/discrete_lagrangian.hpp"
#include "models/string_pendulum/mechanics.hpp"

namespace tb::string_pendulum {

// First-order ODE in embedded coordinates for either string mass model: state
// [r_2..r_{N+1}, v_2..v_{N+1}, R (9 numbers, row-major), Omega] (the physical-state layout),
// Rdot = R hat(Omega), accelerations from one O(N) mass-matrix solve. `work` and `acc` are
// caller-owned workspaces. Shared by OdeForm and LumpedForm.
void embedded_ode_rhs(const Mechanics& mech, const Eigen::VectorXd& y, State& work, Eigen::VectorXd& acc,
                      Eigen::VectorXd& dydt);

class OdeForm final : public OdeFormulation {
 public:
  OdeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return 6 * mech_.params().N + 12; }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
  mutable State state_;          // rhs() workspace (one formulation object per run)
  mutable Eigen::VectorXd acc_;
};

// The lumped-mass string (SPEC "Model B", "Lumped-mass model"; the papers' "RK" baseline after
// Driscoll et al.): the same nodes, springs, gravity loads and rigid body as OdeForm, each
// element's mass split half-and-half onto its two nodes (Mechanics with StringMass::Lumped),
// R as 9 numbers with Rdot = R hat(Omega). Same state layout, physical state and observables
// as OdeForm; energy and pi3 are those of the lumped model (conserved by its exact flow).
class LumpedForm final : public OdeFormulation {
 public:
  LumpedForm(const Parameters& p, const InitialCondition& ic);
  FormulationKind kind() const override { return FormulationKind::LumpedMass; }
  int state_size() const override { return 6 * mech_.params().N + 12; }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
  mutable State state_;          // rhs() workspace (one formulation object per run)
  mutable Eigen::VectorXd acc_;
};

// State layout: [r_2..r_{N+1} (3N), R (9, row-major), p_2..p_{N+1} (3N), Pi (3)] — the
// configuration g_k and the discrete momenta (mu_k) of the position-momentum form.
class LieGroupForm final : public DiscreteLieGroupFormulation {
 public:
  LieGroupForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return 6 * mech_.params().N + 12; }
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;
  std::unique_ptr<DiscreteLieGroupStep> make_step() const override;

  const Mechanics& mechanics() const { return mech_; }
  // Configuration + momenta <-> physical state (momenta to velocities through the O(N)
  // inverse of the continuous Legendre transform).
  State to_physical(const Eigen::VectorXd& y) const;
  Eigen::VectorXd from_physical(const State& s) const;

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

}  // namespace tb::string_pendulum
