#pragma once
// The formulations the elastic pendulum offers: the first-order ODE (rk4, rk45) and a
// discrete Lie group form with no rotational unknowns (the LGVI then reduces to
// Stoermer-Verlet, the variational integrator of the trapezoidal discrete Lagrangian).
// There is no constraint and no rigid body, so no DAE and no lumped-mass form.

#include "models/elastic_pendulum/mechanics.hpp"

namespace tb::elastic_pendulum {

// State [x, v] (the physical-state layout).
class OdeForm final : public OdeFormulation {
 public:
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

}  // namespace tb::elastic_pendulum
