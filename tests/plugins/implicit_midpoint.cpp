// The implicit midpoint rule on a model's embedded ODE form, fixed step, order 2 (symmetric and
// symplectic): y_{n+1} = y_n + h k with k = f(t_n + h/2, y_n + h/2 k), solved for the increment k
// by fixed-point iteration. Built twice from this file (tests/plugins/CMakeLists.txt):
//   implicit_midpoint         the method as written above;
//   implicit_midpoint_broken  (MIDPOINT_BROKEN) a coefficient bug: the stage is evaluated at
//                             y_n + h k instead of y_n + h/2 k, which is the backward Euler
//                             method, order 1, while it still declares order 2 and the midpoint's
//                             traits. The gate's order check (app/judging/order_gate.hpp) must catch it;
//   implicit_midpoint_tolerance (MIDPOINT_TOLERANCE) the correct method, its fixed-point
//                             iteration stopped at a tolerance, as plugin authors write it: a
//                             sweep that moves the increment h k by at most kTolerance x the
//                             state's size ends it. Symmetric to that tolerance, not to round-off:
//                             check-plugin must pass it (issue 44 class 6; tests/check_plugin.sh).
// Built in-tree too (CMakeLists.txt, tetherbench_test_plugin), for tests/check_plugin.sh.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/fixed_step.hpp"
#include "core/plugin.hpp"

namespace {

using namespace tb;

#ifdef MIDPOINT_BROKEN
constexpr double kStage = 1.0;  // the bug: should be 1/2
constexpr const char* kName = "implicit_midpoint_broken";
constexpr const char* kPlugin = "implicit_midpoint_broken_test";
#elif defined(MIDPOINT_TOLERANCE)
constexpr double kStage = 0.5;
constexpr const char* kName = "implicit_midpoint_tolerance";
constexpr const char* kPlugin = "implicit_midpoint_tolerance_test";
#else
constexpr double kStage = 0.5;
constexpr const char* kName = "implicit_midpoint";
constexpr const char* kPlugin = "implicit_midpoint_test";
#endif

#ifdef MIDPOINT_TOLERANCE
// The solver's tolerance, relative to the state's size: 1e-10, a common choice (the step back
// then returns to ~1e-12, not to round-off).
constexpr double kTolerance = 1e-10;
#else
constexpr double kTolerance = 0.0;  // iterate to round-off
#endif

// At most this many fixed-point iterations per step: a contraction h L / 2 that needs more is
// too weak to be worth waiting for, and the step fails (a solver failure, not a divergence).
constexpr int kMaxIterations = 60;

class ImplicitMidpoint final : public FixedStepStepper {
 public:
  ImplicitMidpoint(const OdeFormulation& ode, double h, double t0)
      : FixedStepStepper(t0, h, ode.initial_state()), ode_(ode) {}

 private:
  bool advance(double dt, Eigen::VectorXd& next, StepFailure& failure) override {
    // Increment form: iterate on k, the stage's derivative, from the explicit guess f(t_n, y_n).
    // The iteration stops at the round-off floor: when a sweep moves the step's increment dt k
    // by no more than a few units in the last place of the state, or when it stops shrinking
    // once below sqrt(eps) of it (the iteration then only stirs rounding errors).
    const double eps = std::numeric_limits<double>::epsilon();
    const double size = 1.0 + y_.lpNorm<Eigen::Infinity>();
    ode_.rhs(t_, y_, k_);
    ++counters_.rhs_evals;
    double previous = std::numeric_limits<double>::infinity();
    for (int it = 0; it < kMaxIterations; ++it) {
      stage_ = y_ + kStage * dt * k_;
      ode_.rhs(t_ + kStage * dt, stage_, k_next_);
      ++counters_.rhs_evals;
      ++counters_.newton_iters;
      if (!all_finite(k_next_)) {
        failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
        return false;
      }
      const double change = std::abs(dt) * (k_next_ - k_).lpNorm<Eigen::Infinity>();
      k_.swap(k_next_);
      if (change <= std::max(4 * eps, kTolerance) * size || (change >= previous && previous <= std::sqrt(eps) * size)) {
        next = y_ + dt * k_;
        if (all_finite(next)) return true;
        failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
        return false;
      }
      previous = change;
    }
    failure = {StepFailure::Kind::SolverFailed,
               "fixed-point iteration did not reach round-off in " + std::to_string(kMaxIterations) +
                   " iterations (h L / 2 too close to 1)"};
    return false;
  }

  const OdeFormulation& ode_;
  Eigen::VectorXd k_, k_next_, stage_;
};

void register_entries(PluginRegistrar& add) {
  MethodTraits traits;
  traits.implicit = true;
  traits.symmetric = true;
  traits.symplectic = true;
  add.integrator({kName, /*order=*/2, /*adaptive=*/false, traits,
                  kTolerance > 0.0 ? "implicit midpoint rule, fixed step, fixed-point iteration to a tolerance of 1e-10 (a test plugin)"
                                   : "implicit midpoint rule, fixed step, fixed-point iteration to round-off (a test plugin)",
                  {},
                  consuming([](const OdeFormulation& ode, const IntegratorSettings& s, double t0) {
                    return std::make_unique<ImplicitMidpoint>(ode, s.h, t0);
                  })});
}

}  // namespace

TETHERBENCH_PLUGIN(kPlugin, "1.0", register_entries)
