#pragma once
// The string pendulum (Model A's semi-discrete system) as a first-order ODE in embedded
// coordinates, for either string mass discretisation (SPEC "Formulations"; "Lumped-mass
// model"). Model A offers it as its ODE form for both discretisations; Model B's reel-locked
// lumped baseline wraps it.

#include <string>

#include "core/formulation.hpp"
#include "mechanics/end_body_rates.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"
#include "numerics/block_tridiagonal.hpp"

namespace tb::string_pendulum {

// State [r_2..r_{N+1}, v_2..v_{N+1}, R (9 numbers, row-major), Omega] (the physical-state
// layout); Rdot = R hat(Omega) (seed 000 eq. (1)), accelerations from one O(N)
// block-tridiagonal mass-matrix solve per evaluation (a diagonal one for the lumped string).
// Energy and pi3 are those of the chosen string mass model, conserved by its exact flow.
class StringOdeForm final : public OdeFormulation {
 public:
  // The body rides on the end node by construction: no constraint among the coordinates.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
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
  // The rate rows in mass-matrix form for the Lie group form (LieGroupOdeFormulation, forwarded
  // by LieGroupOdeOf), in its rate layout [Omega, v_2..v_{N+1}] (the rotation's rate first,
  // then the positions'): r = M(R) [v'; Omega'] - f with the mass matrix and right-hand sides
  // of Mechanics::accelerations (string_ode_form.cpp), and its tangents: M(R) block-tridiagonal,
  // K = dr/d(r, R) (the elastic stiffness, block-tridiagonal, and the body's R-coupling),
  // C = dr/dOmega (the body's gyroscopic and centripetal terms). O(N) entries.
  void rate_residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                     Eigen::VectorXd& S) const;
  void rate_tangent_entries(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                            std::vector<Eigen::Triplet<double>>& M, std::vector<Eigen::Triplet<double>>& K,
                            std::vector<Eigen::Triplet<double>>& C) const;

 private:
  Mechanics mech_;
  InitialCondition ic_;
  EndBody body_;  // the body's terms in the rate rows
  mutable State state_;  // rhs() workspace (one formulation object per run)
  mutable Eigen::VectorXd acc_;
  mutable BlockTridiagonal3 mass_, mass_abs_;  // rate_residual() workspace
  mutable Eigen::VectorXd x_, xa_, Mx_, Mxa_;
};

}  // namespace tb::string_pendulum
