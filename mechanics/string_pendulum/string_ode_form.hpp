#pragma once
// The string pendulum (Model A's semi-discrete system) as a first-order ODE in embedded
// coordinates, for either string mass discretisation (SPEC "Formulations"; "Lumped-mass
// model"). Model A offers it as its ODE form for both discretisations; Model B's reel-locked
// lumped baseline wraps it.

#include "core/formulation.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"

namespace tb::string_pendulum {

// State [r_2..r_{N+1}, v_2..v_{N+1}, R (9 numbers, row-major), Omega] (the physical-state
// layout); Rdot = R hat(Omega) (seed 000 eq. (1)), accelerations from one O(N)
// block-tridiagonal mass-matrix solve per evaluation (a diagonal one for the lumped string).
// Energy and pi3 are those of the chosen string mass model, conserved by its exact flow.
class StringOdeForm final : public OdeFormulation {
 public:
  StringOdeForm(const Parameters& p, const InitialCondition& ic, StringMass string_mass = StringMass::Consistent);
  int state_size() const override { return 6 * mech_.params().N + 12; }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  bool project(Eigen::VectorXd& y) const override;  // R onto SO(3); the nodes are free in R^3
  lie::HomogeneousProduct manifold() const override;  // R in SO(3), the nodes in R^3, each with its velocity
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
  mutable State state_;  // rhs() workspace (one formulation object per run)
  mutable Eigen::VectorXd acc_;
};

}  // namespace tb::string_pendulum
