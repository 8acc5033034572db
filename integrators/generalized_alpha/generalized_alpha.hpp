#pragma once
// Generalized-alpha (Chung-Hulbert 1993) on the index-3 constrained mechanical system in natural
// coordinates (Arnold-Bruels 2007): generalized_alpha.cpp.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/integrator.hpp"
#include "integrators/alpha_parameters.hpp"
#include "integrators/implicit_step_result.hpp"
#include "integrators/alpha_iteration_matrix.hpp"
#include "integrators/work_terms.hpp"

namespace tb {

IntegratorInfo generalized_alpha_info();

// One generalized-alpha step with its memory (the acceleration-like variable a_n, the
// acceleration qdd_n and the multipliers lambda_n), its workspace and sparse factorisation.
// Exposed for the tests; the stepper of generalized_alpha_info() uses it.
class GeneralizedAlphaStep {
 public:
  using Result = ImplicitStepResult;
  GeneralizedAlphaStep(const ConstrainedMechanicalFormulation& form, const GeneralizedAlphaParameters& p,
                       double newton_tol, int max_newton_iters);
  // Consistent accelerations and multipliers at (t0, y0) and the starting value of a
  // (perturbed start, see the .cpp); h is the step the run will take.
  Result start(double t0, const Eigen::VectorXd& y0, double h);
  // y_{n+1} from y_n = y over h; the memory moves on only when it succeeds.
  Result step(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next);
  const Eigen::VectorXd& multipliers() const { return lambda_; }
  const Eigen::VectorXd& acceleration() const { return qdd_; }

 private:
  bool consistent_acceleration(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& qdd,
                               Eigen::VectorXd& lambda, Result& out);
  // The stages of step() (generalized_alpha.cpp), members so that they work in the workspace
  // below without copying it; those returning bool return false when the step failed (out says why).
  void kinematics(double h, const Eigen::VectorXd& q, Eigen::VectorXd& a, Eigen::VectorXd& v,
                  Eigen::VectorXd& qdd) const;
  bool newton(double t, double h, double beta_p, double gamma_p, Eigen::VectorXd& a1, Eigen::VectorXd& qdd1,
              Eigen::VectorXd& lt, Result& out);
  bool newton_residual(double t1, double beta_p, const Eigen::VectorXd& qdd1, const Eigen::VectorXd& lt,
                       Result& out);
  // What a failed Newton iteration's corrections showed (newton_failed's words).
  struct NewtonHistory {
    double correction = 0.0, smallest = 0.0;             // the last correction, and the smallest of the step
    std::pair<double, double> contractions{-1.0, -1.0};  // the last two ratios with one matrix (< 0: none)
    int factorizations = 0;
    double refactor_ratio = -1.0;  // the ratio that called the last factorization (-2: the rate rule; -1: the step's start)
  };
  bool newton_failed(const NewtonHistory& history, Result& out) const;
  bool write_next_state(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next, Result& out);
  const ConstrainedMechanicalFormulation& form_;
  GeneralizedAlphaParameters p_;
  double newton_tol_;
  int max_newton_iters_;
  int n_, m_;
  std::unique_ptr<ConstrainedMechanicalSolver> solver_;  // consistent accelerations at t0
  AlphaIterationMatrix matrix_;                          // the Newton matrix, sparse LU
  TrapezoidalWork work_terms_;                           // y = [q, v, W]: W by the trapezoidal rule
  bool variable_mass_ = false;  // M(q): the residual takes M at the iterate
  bool factored_ = false, refactor_ = true;  // modified Newton: the factorisation kept across steps
  double factored_h_ = 0.0;
  Eigen::VectorXd a_, qdd_, lambda_;  // memory
  Eigen::VectorXd q_, v_, qn_, vn_, base_, f_, Mq_, GTl_, g_, rhs_, sol_;
};

}  // namespace tb
