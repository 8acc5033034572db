#pragma once
// The formulations Model A offers (SPEC "Formulations"): the embedded ODE and the discrete
// Lie group (LGVI) form. Both wrap the same Mechanics, so they integrate the same system.

#include "models/string_pendulum/discrete_lagrangian.hpp"
#include "models/string_pendulum/mechanics.hpp"

namespace tb::string_pendulum {

class OdeForm final : public OdeFormulation {
 public:
  OdeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return 6 * mech_.params().N + 12; }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }

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
