#pragma once
// One RATTLE step on a constrained mechanical form (rattle_step.cpp: the scheme and its
// derivation), shared by rattle and rattle4 (its 4th-order composition).

#include <memory>
#include <string>
#include <vector>

#include "core/integrator.hpp"
#include "integrators/implicit_step_result.hpp"
#include "integrators/work_terms.hpp"

namespace tb {

// newton_tol and max_newton_iters of a RATTLE step (rattle and rattle4 declare the same).
std::vector<SettingSpec> rattle_newton_settings();

// One RATTLE step y_k -> y_{k+1} over h (either sign: the scheme is symmetric, so a step of
// -h from y_{k+1} returns y_k), with its own solver and workspace. Exposed for the tests
// (symmetry, per-step constraint residuals); the steppers of rattle and rattle4 use it.
class RattleStep {
 public:
  using Result = ImplicitStepResult;  // newton_iters: on the position multipliers
  RattleStep(const ConstrainedMechanicalFormulation& form, double newton_tol, int max_newton_iters);
  Result step(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next);

 private:
  double constraint_error(const Eigen::VectorXd& q);
  // The step for a configuration-dependent mass matrix (rattle_step.cpp: the trapezoidal discrete
  // Lagrangian's constrained, forced discrete Euler-Lagrange equations).
  Result step_configuration_dependent_mass(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next);
  // The stages of the two steps (rattle_step.cpp), members so that they work in the workspace
  // below without copying it; those returning bool return false when the step failed (out says why).
  bool book_force_evaluation(Result& out) const;
  bool solve_position_multipliers(double h, Result& out);
  bool position_multipliers_failed(double err, double predictor_err, Result& out) const;
  bool second_half_kick(double t, double h, Result& out);
  void write_next_state(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next, Result& out);
  bool solve_positions_configuration_dependent_mass(double h, Result& out);
  void momentum_residual(double h);
  double momentum_residual_over_floor() const;
  bool correct_positions(double h, Result& out);
  bool positions_and_multipliers_failed(double g_err, double r_err, double predictor_err, Result& out) const;
  // The step's failure when the free flight already breaks the constraints by a tenth of their size.
  bool outgrown_step(double predictor_err, const std::string& solver, Result& out) const;
  bool second_half_kick_configuration_dependent_mass(double t, double h, Result& out);
  const ConstrainedMechanicalFormulation& form_;
  std::unique_ptr<ConstrainedMechanicalSolver> solver_;
  double newton_tol_;
  int max_newton_iters_;
  int n_, m_, w_;  // positions, constraints, work terms
  Eigen::VectorXd scale_inverse_;
  TrapezoidalWork work_;
  Eigen::VectorXd q0_, v0_, f_, q_, X_, x_, g_, s_, r_, lambda_, vhalf_, v1_, Gv_;
  Eigen::VectorXd dq_, vbar_, MX_, dMdq_, Tq_, GTl_, S_, lambda_sum_, base_, mass_row_sums_;  // configuration-dependent M
};

}  // namespace tb
