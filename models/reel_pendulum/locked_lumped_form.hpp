#pragma once
#include "models/reel_pendulum/mechanics.hpp"
#include "mechanics/string_pendulum/string_ode_form.hpp"

namespace tb::reel_pendulum {

// Lumped-mass string for Model B with the reel locked: the string pendulum's ODE with lumped
// string mass (string of length L - s_p), observed with Model B's columns.
class LockedLumpedForm final : public OdeFormulation {
 public:
  // The body rides on the end node by construction: no constraint among the coordinates.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  LockedLumpedForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return lumped_.state_size(); }
  Eigen::VectorXd initial_state() const override { return lumped_.initial_state(); }
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  bool project(Eigen::VectorXd& y) const override;  // the lumped string's projection (R onto SO(3))
  lie::HomogeneousProduct manifold() const override { return lumped_.manifold(); }
  // For the Lie group form (LieGroupOdeOf): the lumped string's rate rows and tangents.
  void rate_residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                     Eigen::VectorXd& S) const {
    lumped_.rate_residual(t, y, vdot, r, S);
  }
  void rate_tangent_entries(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                            std::vector<Eigen::Triplet<double>>& M, std::vector<Eigen::Triplet<double>>& K,
                            std::vector<Eigen::Triplet<double>>& C) const {
    lumped_.rate_tangent_entries(t, y, vdot, M, K, C);
  }
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;

 private:
  Parameters p_;
  double s0_;
  string_pendulum::StringOdeForm lumped_;
};

}  // namespace tb::reel_pendulum
