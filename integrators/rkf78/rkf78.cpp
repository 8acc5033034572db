// Adaptive Runge-Kutta-Fehlberg 7(8) (Fehlberg 1968, NASA TR R-287, Table X; Boost.Odeint
// runge_kutta_fehlberg78 under its controlled_runge_kutta error control) on a model's ODE
// form: 13 stages, the 7th-order solution propagated, the embedded 8th-order one for the
// local error estimate, err_i / (atol + rtol |y_i|) <= 1 per component.
//
// It computes the stored reference solutions and is not one of the compared integrators
// (integrators/registry.hpp: reference_solver_registry), so no method ranked in the tables is
// measured against itself; the compared rk45 recomputes every reference as a cross-check.
// No dense output: a reference needs only the state at its horizon, where the last step is
// shortened to land exactly.
//
// Event location (`locate_events = 1`, issue 47): a reference on a model with kinks (a
// tension-only cable) must not step across one, since its 8th-order error estimate assumes a
// smooth solution and a step across a kink passes the test with an error of O(h^3) (measured: the
// whirling string at rtol 1e-13 caught 2.3e3 J wrong in 454 steps). Without dense output the zero
// of a switching function s_i in an accepted step [t0, t0 + dt] is found by iterating on the step
// length: g(tau) = s_i(y0 + one Fehlberg step of length tau), Illinois regula falsi on tau over
// [0, dt] down to a few ulps of t (Hairer, Norsett & Wanner I, II.6; each trial step is shorter
// than the accepted one and lies on one side of the kink but for the last bracket). The step is
// then taken to the bracket's end on the new side of the earliest zero, and the next step starts
// there.

#include "integrators/rkf78/rkf78.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "core/switching.hpp"
#include "integrators/odeint_system.hpp"

namespace tb {
namespace {

namespace odeint = boost::numeric::odeint;
using Fehlberg78 = odeint::runge_kutta_fehlberg78<Eigen::VectorXd, double, Eigen::VectorXd, double,
                                                  odeint::vector_space_algebra>;
using Controlled = odeint::result_of::make_controlled<Fehlberg78>::type;

// When s reaches 0: at -s / r where it heads for 0 at rate r; else (moving away, or level) the earliest
// tau > 0 with s + r tau + a tau^2 / 2 = 0, a turning back (a chord's gap past its closest approach);
// infinity where there is none, or s = 0 (a function at its zero has just been located: its new side).
double predicted_crossing(double s, double r, double a) {
  const double none = std::numeric_limits<double>::infinity();
  if (s == 0.0 || !std::isfinite(s) || !std::isfinite(r) || !std::isfinite(a)) return none;
  // Heading for its zero: the linear time (the rate's change is only an estimate from the last step).
  if (r != 0.0 && -s / r > 0.0) return -s / r;
  if (a == 0.0) return none;
  const double disc = r * r - 2.0 * a * s;
  if (disc < 0.0) return none;
  // The roots q / (a / 2) and s / q, q = -(r + sign(r) sqrt(disc)) / 2 (cancellation-free).
  const double q = -0.5 * (r + std::copysign(std::sqrt(disc), r));
  double best = none;
  for (double root : {q != 0.0 ? q / (0.5 * a) : none, q != 0.0 ? s / q : none})
    if (root > 0.0 && root < best) best = root;
  return best;
}

class Rkf78Stepper final : public TimeStepper {
 public:
  Rkf78Stepper(const OdeFormulation& ode, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, ode.initial_state()),
        ode_(ode),
        stepper_(odeint::make_controlled(s.tolerances().atol, s.tolerances().rtol, Fehlberg78())),
        dt_(s.h),
        h0_(s.h),
        locating_(locates_events(s, ode)) {
    if (locating_) ode_.switching_values(t0, y_, s_start_, rate_start_);
  }

  bool step(double t_stop, StepFailure& failure) override {
    // Retry with the controller's smaller step until the local error test passes; a step that
    // has shrunk to round-off relative to t is a failure of the error control.
    for (;;) {
      double dt = std::min(dt_, t_stop - t_);
      // A switching function s_i predicted to reach its zero within the step, by the quadratic
      // s + r tau + a tau^2 / 2 (r its rate, a the rate's change over the last step; 0 after a restart):
      // the step stops at half the predicted time (not below 1e-3 of the initial step), so it approaches
      // a kink in steps that halve and crosses it in a short one. The 7(8) estimate combines only stages
      // 1, 11, 12 and 13 (c = 0, 0, 1, 1): a step whose ends are both in a free flight has an estimate of 0
      // whatever its middle stages met, so a short stiff contact (a penalty link's, ~16 ms) inside one
      // grown step (27 ms measured) passed with its end state wrong by 1.8e3 J and no sign change to locate
      // (a step ending a quarter past the linear crossing still ended outside the contact, as wrong; a
      // chord's gap, whose rate is 0 at its closest approach, needs the quadratic term).
      if (locating_)
        for (Eigen::Index i = 0; i < s_start_.size(); ++i) {
          const double tau = predicted_crossing(s_start_[i], i < rate_start_.size() ? rate_start_[i] : 0.0,
                                                i < accel_start_.size() ? accel_start_[i] : 0.0);
          if (tau < dt) dt = std::max(0.5 * tau, std::min(dt, 1e-3 * h0_));
        }
      if (!(dt > 1e-14 * std::max(1.0, std::abs(t_)))) {
        failure = {StepFailure::Kind::SolverFailed,
                   "step size control failed: the step shrank to " + std::to_string(dt) + " s at t = " +
                       std::to_string(t_) + " s"};
        return false;
      }
      double t = t_, h = dt;
      odeint::controlled_step_result result;
      try {
        result = stepper_.try_step(OdeintSystem{&ode_, &counters_.rhs_evals}, y_, t, next_, h);
      } catch (const std::exception& e) {
        failure = {StepFailure::Kind::SolverFailed, std::string("step size control failed: ") + e.what()};
        return false;
      }
      if (result == odeint::fail) {  // h is the controller's smaller step
        ++counters_.error_test_failures;
        if (!std::isfinite(h)) {
          failure = {StepFailure::Kind::Diverged, "error estimate became non-finite (NaN/Inf)"};
          return false;
        }
        dt_ = h;
        continue;
      }
      if (!all_finite(next_)) {
        failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
        return false;
      }
      // Only a full (not shortened) step proposes the next one; landing on t_stop or short of a crossing keeps dt_.
      if (dt == dt_) dt_ = h;
      if (locating_ && end_at_event(dt)) {
        ++counters_.steps;
        return true;
      }
      y_.swap(next_);
      t_ = dt == t_stop - t_ ? t_stop : t;
      ++counters_.steps;
      return true;
    }
  }

 private:
  // y_ (at t_) + one Fehlberg step of length tau.
  void step_of(double tau, Eigen::VectorXd& out) {
    plain_.do_step(OdeintSystem{&ode_, &counters_.rhs_evals}, y_, t_, out, tau);
  }
  // After an accepted step of length dt to next_: if a switching function changed side, takes
  // the step to just past the earliest zero instead (y_, t_ there) and returns true.
  bool end_at_event(double dt) {
    Eigen::VectorXd s_end, rate_end, y_trial, s_trial;
    ode_.switching_values(t_ + dt, next_, s_end, rate_end);
    double tau_event = dt;
    bool found = false;
    for (Eigen::Index i = 0; i < s_end.size(); ++i) {
      double a = 0.0, b = tau_event, sa = s_start_[i], sb;
      if (switching_side(s_start_[i]) == switching_side(s_end[i])) {
        // Both ends on one side, but a pair of switches may lie inside: Fehlberg 7(8)'s error
        // estimate combines only the stages at the step's two ends, so a step can pass over a
        // whole taut phase (a catch and its bounce) with an estimate of 0. The cubic Hermite
        // interpolant of s and ds/dt at the ends shows an excursion to the other side; its first
        // point there, confirmed by a step of that length, brackets the first switch.
        const double s0 = s_start_[i], r0 = rate_start_[i], s1 = s_end[i], r1 = rate_end[i];
        double probe = -1.0;
        for (int k = 1; k < 64 && probe < 0.0; ++k) {
          const double x = k / 64.0, x2 = x * x, x3 = x2 * x;
          const double v = (2 * x3 - 3 * x2 + 1) * s0 + (x3 - 2 * x2 + x) * dt * r0 + (-2 * x3 + 3 * x2) * s1 + (x3 - x2) * dt * r1;
          if (switching_side(v) != switching_side(s0)) probe = x * dt;
        }
        if (probe < 0.0 || !(probe < tau_event)) continue;
        step_of(probe, y_trial);
        ode_.switching_values(t_ + probe, y_trial, s_trial);
        if (switching_side(s_trial[i]) == switching_side(sa)) continue;  // no excursion after all
        b = probe;
        sb = s_trial[i];
      } else if (b < dt) {  // an earlier zero already shortened the bracket: does this one change side before it?
        step_of(b, y_trial);
        ode_.switching_values(t_ + b, y_trial, s_trial);
        sb = s_trial[i];
        if (switching_side(sa) == switching_side(sb)) continue;
      } else {
        sb = s_end[i];
      }
      tau_event = bracket_switch(a, b, sa, sb, t_ + b, [&](double m) {
        step_of(m, y_trial);
        ode_.switching_values(t_ + m, y_trial, s_trial);
        return s_trial[i];
      });
      found = true;
    }
    // None, or at the step's end: the accepted step already lands there (unless the form jumps there,
    // an impact, whose jump and restart are still due).
    if (!found || (!(tau_event < dt) && !ode_.has_impacts())) {
      accel_start_ = (rate_end - rate_start_) / dt;
      s_start_ = s_end;
      rate_start_ = rate_end;
      return false;
    }
    step_of(tau_event, y_trial);
    y_ = y_trial;
    t_ += tau_event;
    ode_.apply_jump(t_, y_);  // a hybrid form's impact or change of mode (issue 48)
    ode_.switching_values(t_, y_, s_start_, rate_start_);
    accel_start_ = Eigen::VectorXd::Zero(s_start_.size());  // unknown across the kink
    // The restart's first step is the run's initial one, not the flight's grown step: from the
    // kink the motion changes its time scale (a slack flight to a stiff bounce), and an estimate
    // that sees only the step's ends would pass a step over the whole bounce.
    dt_ = std::min(dt_, h0_);
    return true;
  }

  const OdeFormulation& ode_;
  Controlled stepper_;
  Fehlberg78 plain_;  // the same tableau, one step of a given length (the event's iteration)
  double dt_;
  const double h0_;  // the initial step, the restart's after an event
  Eigen::VectorXd next_;
  const bool locating_;
  Eigen::VectorXd s_start_, rate_start_;  // the switching functions and their rates at t_
  Eigen::VectorXd accel_start_;           // their rates' change over the last step (0 where unknown)
};

}  // namespace

IntegratorInfo rkf78_info() {
  std::vector<SettingSpec> settings =
      error_tolerance_settings("relative tolerance of the error control err_i ≤ atol + rtol·|y_i|", 1e-12,
                               "absolute tolerance of the error control err_i ≤ atol + rtol·|y_i|", 1e-14);
  settings.push_back(locate_events_setting());
  IntegratorInfo info{"rkf78", 7, true, MethodTraits{},
                      "adaptive Runge-Kutta-Fehlberg 7(8) (Boost.Odeint), rtol/atol; makes the reference solutions, not compared",
                      std::move(settings),
                      consuming([](const OdeFormulation& form, const IntegratorSettings& s, double t0) {
                        return std::make_unique<Rkf78Stepper>(form, s, t0);
                      })};
  info.idle_setting = idle_locate_events;
  info.impacts_by = "event-driven: each switch located on its interpolant, the form's impact law or change of mode applied "
                    "there, and the method restarted";
  return info;
}

}  // namespace tb
