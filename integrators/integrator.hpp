#pragma once
// The integrator interface (after Drake's IntegratorBase): a TimeStepper advances one
// formulation's state step by step; a failed step leaves time() and state() as they were.
// Adding an integrator: one folder under integrators/ with a function returning its
// IntegratorInfo, and one line in integrators/registry.cpp.

#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/formulation.hpp"

namespace tb {

// Settings of one run. Every field has a documented default (cases/README.md) that a case
// file's [integrators.NAME] table or the command line overrides.
struct IntegratorSettings {
  double h = 0.0;                 // fixed step, or initial step of an adaptive method (s)
  double rtol = 1e-8;             // adaptive methods: relative tolerance
  double atol = 1e-10;            // adaptive methods: absolute tolerance
  double newton_tol = 1e-13;      // implicit methods: relative size of the last Newton correction
  int max_newton_iters = 25;      // implicit methods: iterations before the step is declared failed
  // Index-1 DAE stabilisation rates (1/s); 0 gives the plain index-1 system, whose drift grows.
  // 10/s damps drift within ~0.1-0.5 s, against pendulum periods of seconds, and keeps the
  // added eigenvalues -p (double) and -gamma slow enough not to shorten IDA's steps.
  double baumgarte_p = 10.0;      // constraint stabilisation C'' + 2pC' + p^2 C = 0
  double baumgarte_gamma = 10.0;  // orthonormality correction Xi = gamma/2((R^T R)^-1 - I)
};

struct StepCounters {
  long steps = 0;         // accepted steps
  long rhs_evals = 0;     // evaluations of f (ODE) or of the residual G (implicit steps)
  long newton_iters = 0;  // Newton iterations over all steps
  long error_test_failures = 0;  // adaptive methods: steps rejected by the local error test
};

class TimeStepper {
 public:
  virtual ~TimeStepper() = default;
  double time() const { return t_; }
  const Eigen::VectorXd& state() const { return y_; }
  const StepCounters& counters() const { return counters_; }

  // Takes one step, never past t_stop. On failure returns false with the reason in `failure`
  // and leaves time() and state() unchanged.
  virtual bool step(double t_stop, std::string& failure) = 0;

  // Adaptive methods interpolate with their own dense output within the last accepted step;
  // fixed-step methods are only observed at their step points.
  virtual bool has_dense_output() const { return false; }
  virtual void dense_state(double /*t*/, Eigen::VectorXd& y) const { y = y_; }

 protected:
  TimeStepper(double t0, Eigen::VectorXd y0) : t_(t0), y_(std::move(y0)) {}
  double t_;
  Eigen::VectorXd y_;
  StepCounters counters_;
};

struct IntegratorInfo {
  std::string name;          // command-line name, lower case
  FormulationKind consumes;  // the one formulation it integrates
  int order = 0;             // order of accuracy, checked by the generic convergence tests
  bool adaptive = false;     // step chosen by error control (rtol/atol) rather than fixed h
  std::string summary;       // one line for `tetherbench list`
  std::vector<std::string> settings;  // IntegratorSettings fields it reads ("rtol", "atol", "newton_tol", "max_newton_iters", "baumgarte_p", "baumgarte_gamma")
  // Builds a stepper on a formulation of kind `consumes` (the runner guarantees the kind).
  std::function<std::unique_ptr<TimeStepper>(const Formulation&, const IntegratorSettings&, double t0)> make;
};

// Every integrator, sorted by name.
const std::vector<IntegratorInfo>& integrator_registry();
const IntegratorInfo* find_integrator(const std::string& name);

bool all_finite(const Eigen::VectorXd& y);

}  // namespace tb
