#pragma once
// The formulations Model B offers: the embedded ODE (RK4/RK45 cross-validation of the LGVI,
// which the paper does not have) and the discrete Lie group form (the paper's LGVI).

#include "models/reel_pendulum/discrete_lagrangian.hpp"
#include "models/reel_pendulum/mechanics.hpp"

namespace tb::reel_pendulum {

// State: the physical layout of Mechanics::pack, with the work integrals as quadratures
// (carnot_work' = Q sdot, control_work' = (u/d) sdot) integrated to the method's accuracy.
class OdeForm final : public OdeFormulation {
 public:
  OdeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return mech_.physical_size(); }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
  mutable State state_;
  mutable Eigen::VectorXd acc_;
};

// State: [s, q_2..q_{N+1}, R (9), p_2..p_{N+1}, Pi, p_s, carnot_work, control_work] —
// configuration, discrete momenta, and the discrete work of the forcing (37)-(38).
class LieGroupForm final : public DiscreteLieGroupFormulation {
 public:
  LieGroupForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return mech_.physical_size(); }
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;
  std::unique_ptr<DiscreteLieGroupStep> make_step() const override;

  const Mechanics& mechanics() const { return mech_; }
  State to_physical(const Eigen::VectorXd& y) const;
  Eigen::VectorXd from_physical(const State& s) const;

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

}  // namespace tb::reel_pendulum
