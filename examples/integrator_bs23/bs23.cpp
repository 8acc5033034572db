// Bogacki-Shampine 3(2) (Bogacki & Shampine 1989, Appl. Math. Lett. 2(4); MATLAB's ode23) on a
// model's ODE form: an adaptive method, which is what tetherbench asks of one:
//   - IntegratorInfo::adaptive = true and the error tolerances `rtol` and `atol`, declared with
//     error_tolerance_settings() and read with s.tolerances() (the catalogue refuses an adaptive
//     method without them: the suite sets them for the work-precision sweep, whose points are
//     tolerances, not steps);
//   - the case's h is only the first step tried;
//   - its own dense output (has_dense_output, dense_state): the suite samples an adaptive run on
//     its observation grid by interpolating within the last accepted step, so the steps do not
//     depend on the grid;
//   - optionally `max_step` (max_step_setting(), MATLAB's MaxStep), which the tolerance-sweep study
//     needs of the adaptive method it sweeps.
// The step (Butcher tableau, FSAL):
//   k1 = f(t, y), k2 = f(t + h/2, y + h/2 k1), k3 = f(t + 3h/4, y + 3h/4 k2),
//   y1 = y + h (2/9 k1 + 1/3 k2 + 4/9 k3)                     (order 3, the solution kept)
//   k4 = f(t + h, y1)                                         (the next step's k1)
//   err = y1 - z1 = h (-5/72 k1 + 1/12 k2 + 1/9 k3 - 1/8 k4)  (z1 the embedded order-2 solution)
// accepted when max_i |err_i| / (atol + rtol max(|y_i|, |y1_i|)) <= 1; the next step
// h 0.9 norm^(-1/3), within [h/5, 5h] (a standard controller, Hairer-Norsett-Wanner I II.4).
#include "bs23.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace my_methods {
namespace {

using namespace tb;

class Bs23Stepper final : public TimeStepper {
 public:
  Bs23Stepper(const OdeFormulation& ode, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, ode.initial_state()), ode_(ode), tol_(s.tolerances()), max_step_(s.max_step()) {
    h_ = max_step_ > 0.0 ? std::min(s.h, max_step_) : s.h;
    ode_.rhs(t_, y_, k1_);
    counters_.rhs_evals += 1;
    t_prev_ = t_;
    y_prev_ = y_;
    f_prev_ = k1_;
  }

  bool has_dense_output() const override { return true; }
  // The cubic Hermite interpolant of the last accepted step [t_prev, t] through both ends' states
  // and derivatives (the FSAL k1 and k4): third order, as the step.
  void dense_state(double t, Eigen::VectorXd& y) const override {
    const double h = t_ - t_prev_;
    if (h <= 0.0) {
      y = y_;
      return;
    }
    const double s = (t - t_prev_) / h, s2 = s * s, s3 = s2 * s;
    y = (2 * s3 - 3 * s2 + 1) * y_prev_ + (s3 - 2 * s2 + s) * h * f_prev_ + (-2 * s3 + 3 * s2) * y_ +
        (s3 - s2) * h * k1_;
  }

  // One accepted step, never past t_stop. Rejected tries shrink h and try again; a step that
  // cannot be taken (h below round-off of t, or a non-finite state at every h tried) returns false
  // with time and state unchanged.
  bool step(double t_stop, StepFailure& failure) override {
    for (int tries = 0; tries < kMaxTries; ++tries) {
      const double remaining = t_stop - t_;
      const bool lands = h_ >= remaining;
      const double h = lands ? remaining : h_;
      if (h <= 16.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t_))) {
        failure = {StepFailure::Kind::SolverFailed,
                   "step size " + std::to_string(h) + " s below the round-off of t = " + std::to_string(t_)};
        return false;
      }
      ode_.rhs(t_ + h / 2, y_ + h / 2 * k1_, k2_);
      ode_.rhs(t_ + 3 * h / 4, y_ + 3 * h / 4 * k2_, k3_);
      y1_ = y_ + h * (2.0 / 9 * k1_ + 1.0 / 3 * k2_ + 4.0 / 9 * k3_);
      ode_.rhs(t_ + h, y1_, k4_);
      counters_.rhs_evals += 3;
      err_ = h * (-5.0 / 72 * k1_ + 1.0 / 12 * k2_ + 1.0 / 9 * k3_ - 1.0 / 8 * k4_);
      double norm = 0.0;
      for (Eigen::Index i = 0; i < y_.size(); ++i)
        norm = std::max(norm, std::abs(err_[i]) / (tol_.atol + tol_.rtol * std::max(std::abs(y_[i]), std::abs(y1_[i]))));
      if (!std::isfinite(norm) || !all_finite(k4_)) {
        // A non-finite stage: the step is far too long (or the state unphysical); shrink hard.
        ++counters_.error_test_failures;
        h_ = h / 5;
        continue;
      }
      // Standard controller with safety factor 0.9, growth within [1/5, 5].
      const double factor = norm == 0.0 ? 5.0 : std::clamp(0.9 * std::pow(norm, -1.0 / 3.0), 0.2, 5.0);
      if (norm > 1.0) {
        ++counters_.error_test_failures;
        h_ = h * std::min(factor, 1.0);
        continue;
      }
      // Accepted: the last step's ends are kept for the dense output.
      t_prev_ = t_;
      y_prev_.swap(y_);
      f_prev_.swap(k1_);
      t_ = lands ? t_stop : t_ + h;  // exactly on t_stop, never past it
      y_.swap(y1_);
      k1_.swap(k4_);  // FSAL
      ++counters_.steps;
      // A landing step shortened to t_stop says nothing about the step the error allows.
      if (!lands || factor < 1.0) h_ = h * factor;
      if (max_step_ > 0.0) h_ = std::min(h_, max_step_);
      return true;
    }
    failure = {StepFailure::Kind::Diverged,
               "no acceptable step in " + std::to_string(kMaxTries) + " tries (non-finite or growing error estimate)"};
    return false;
  }

 private:
  static constexpr int kMaxTries = 60;  // 5^-60: far below any representable step
  const OdeFormulation& ode_;
  const ErrorTolerances tol_;
  const double max_step_;
  double h_ = 0.0;  // the next step to try
  Eigen::VectorXd k1_, k2_, k3_, k4_, y1_, err_;
  double t_prev_ = 0.0;
  Eigen::VectorXd y_prev_, f_prev_;
};

}  // namespace

IntegratorInfo bs23_info() {
  std::vector<SettingSpec> settings =
      error_tolerance_settings("relative tolerance of the error control |err_i| <= atol + rtol max(|y_i|, |y1_i|)", 1e-6,
                               "absolute tolerance of the error control |err_i| <= atol + rtol max(|y_i|, |y1_i|)", 1e-8);
  settings.push_back(max_step_setting());
  return {"bs23", /*order=*/3, /*adaptive=*/true,
          MethodTraits{},  // explicit, not symplectic: its energy error drifts
          "adaptive Bogacki-Shampine 3(2) (ode23) with cubic Hermite dense output, rtol/atol, max_step",
          std::move(settings),
          consuming([](const OdeFormulation& ode, const IntegratorSettings& s, double t0) {
            return std::make_unique<Bs23Stepper>(ode, s, t0);
          })};
}

}  // namespace my_methods
