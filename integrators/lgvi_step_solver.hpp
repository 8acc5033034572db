#pragma once
// How the Lie group variational integrators (integrators/lgvi, integrators/lgvi4) solve one step
// of a model's discrete equations (DiscreteLieGroupStep): Newton's method with the model's analytic Newton matrix,
// started from an extrapolation of the previous solutions, globalised by continuation in the
// step size. Shared by `lgvi` (one step of size h) and `lgvi4` (a composition of substeps of
// different, also negative, sizes: one solver per stage, each with its own predictor history).
// It sits beside the integrator folders, as odeint_system.hpp does, because an integrator folder
// includes no other integrator's folder (tests/test_layering.cpp).

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "core/integrator.hpp"

namespace tb {

// The settings the solver reads (newton_tol, max_newton_iters), declared once for every
// integrator built on it.
std::vector<SettingSpec> lgvi_newton_settings();

// max_i |G_i| / floor_i for a residual G whose terms have magnitudes S
// (DiscreteLieGroupStep::residual_magnitudes): 1 or less is at the round-off floor (0 for an
// empty residual). lie_generalized_alpha judges its residual rows by the same floor.
double residual_excess(const Eigen::VectorXd& G, const Eigen::VectorXd& S);

class LgviStepSolver {
 public:
  // Reads the settings of lgvi_newton_settings() from s; counts residual evaluations and Newton
  // iterations in `counters` (the stepper's).
  LgviStepSolver(const DiscreteLieGroupFormulation& form, const IntegratorSettings& s, StepCounters& counters);

  // Solves the step of size h (h != 0, either sign) from y at time t and writes the new state into
  // y_next. On failure returns false with the reason (Diverged: the residual or the state became
  // non-finite; SolverFailed: no solution found). The predictor history is not touched until
  // commit(): a caller that takes several substeps commits them once all have succeeded.
  bool solve(double t, const Eigen::VectorXd& y, double h, Eigen::VectorXd& y_next, StepFailure& failure);
  // Makes the last successful solve() part of the predictor history.
  void commit();

 private:
  struct NewtonResult {
    bool converged = false;
    std::string why;          // when not converged
    double best_excess = 0.0;  // smallest max_i |G_i| / floor_i reached (1 or less: at the round-off floor)
    bool non_finite = false;  // the residual or the correction became NaN/Inf
  };
  struct ContinuationResult {
    bool reached = false;
    double h_reached = 0.0;         // largest h' (same sign as h) at which the branch was followed
    double h_smallest_tried = 0.0;  // when not even the first h' converged
    std::string why;
    double best_excess = 0.0;  // of the last failed solve
  };
  NewtonResult newton(Eigen::VectorXd& x);
  ContinuationResult continue_in_step(const Eigen::VectorXd& y, double h, Eigen::VectorXd& x);

  std::unique_ptr<DiscreteLieGroupStep> step_;
  StepCounters& counters_;
  double newton_tol_;     // relative size of the last correction, within each group of like unknowns
  int max_newton_iters_;  // iterations before the step is declared failed
  // The step's unknown groups (DiscreteLieGroupStep::unknown_groups), the indices of each.
  std::vector<std::vector<Eigen::Index>> group_members_;
  int group_count_ = 0;
  Eigen::VectorXd S_;  // magnitudes of the residual's terms (DiscreteLieGroupStep::residual_magnitudes)
  // Predictor history: the last three solutions at the same step, and the solution pending commit().
  Eigen::VectorXd x_, x_previous_, x_previous2_, trial_, G_, dx_;
  bool have_previous_ = false, have_two_previous_ = false, have_three_previous_ = false;
  double previous_h_ = 0.0;
  bool pending_same_step_ = false;
  double pending_h_ = 0.0;
  bool pending_ = false;
};

}  // namespace tb
