// Adaptive Dormand-Prince 5(4) (Boost.Odeint runge_kutta_dopri5 with error control and its
// own 4th-order dense output) on a model's ODE form. Error control per component:
// err_i / (atol + rtol |y_i|) <= 1. Samples between steps come from the dense output, so the
// step sequence does not depend on the observation grid. `max_step` > 0 is MATLAB's MaxStep:
// Boost.Odeint's controller takes it as max_dt (default_step_adjuster, controlled_runge_kutta.hpp:
// a proposed step above it is cut to it before it is tried, and a step increase never passes it),
// so no accepted step is longer; the first step h is cut to it too.
//
// Event location (`locate_events = 1`, issue 47; Hairer, Norsett & Wanner, Solving ODEs I,
// II.6 "Dense output, discontinuities"): after each accepted step the model's switching
// functions (core/switching.hpp) are evaluated at its end; where one changed side, its zero in
// the step is bracketed on the dense output (a Dormand-Prince interpolant of order 4) by the
// Illinois variant of regula falsi down to a few ulps of t, the earliest zero among those that
// changed ends the step there (on the new side of the kink), and the method restarts from that
// state. A step after the restart starts on one side of the kink and, until the next zero, stays
// there, so the error estimate never straddles a point where the right-hand side loses its
// smoothness (there the local error of a 5th-order pair is O(h^3), the estimate's assumption
// broken). Without it (0) the step control meets the kink as it can, with rejected steps.
// Where the model's motion jumps at its switches (issue 48: a unilateral link's impact), the
// events are always located and the form's jump (Formulation::apply_jump) is applied at each
// before the restart: the event-driven method of nonsmooth mechanics.

#include "integrators/rk45/rk45.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>

#include "core/format.hpp"
#include "core/switching.hpp"
#include "integrators/odeint_system.hpp"

namespace tb {
namespace {

namespace odeint = boost::numeric::odeint;
using Dopri5 = odeint::runge_kutta_dopri5<Eigen::VectorXd, double, Eigen::VectorXd, double,
                                          odeint::vector_space_algebra>;
using DenseStepper = odeint::result_of::make_dense_output<Dopri5>::type;

class Rk45Stepper final : public TimeStepper {
 public:
  Rk45Stepper(const OdeFormulation& ode, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, ode.initial_state()),
        ode_(ode),
        stepper_(odeint::make_dense_output(s.tolerances().atol, s.tolerances().rtol, s.max_step(), Dopri5())),
        locating_(locates_events(s, ode)) {
    stepper_.initialize(y_, t0, s.max_step() > 0.0 ? std::min(s.h, s.max_step()) : s.h);
    if (locating_) ode_.switching_values(t0, y_, s_start_);
  }

  bool has_dense_output() const override { return true; }
  void dense_state(double t, Eigen::VectorXd& y) const override {
    // calc_state is logically const; odeint declares it non-const for its buffers. After a
    // located event the dense output still covers the step that contained it, up to t_.
    const_cast<DenseStepper&>(stepper_).calc_state(t, y);
  }

  bool step(double t_stop, StepFailure& failure) override {
    if (broken_) {
      failure = {StepFailure::Kind::SolverFailed, "stepper already failed"};
      return false;
    }
    // The step after a located event starts from the event's state: the restart (its first
    // step is the last one's size, which the error control then adjusts).
    if (restart_pending_) {
      restart_pending_ = false;
      stepper_.initialize(y_, t_, stepper_.current_time_step());
    }
    if (stepper_.current_time() < t_stop) {
      const double before = stepper_.current_time();
      try {
        stepper_.do_step(OdeintSystem{&ode_, &counters_.rhs_evals});
      } catch (const std::exception& e) {
        broken_ = true;
        failure = {StepFailure::Kind::SolverFailed, std::string("step size control failed: ") + e.what()};
        return false;
      }
      if (!all_finite(stepper_.current_state())) {
        broken_ = true;
        failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
        return false;
      }
      // The error control can shrink the step until t + dt rounds to t: odeint then "accepts" a step
      // that does not move (the report's referee read: 'a step returned success without advancing
      // time', filed against the integrator contract). That is the step size collapsing, a failure
      // of this method at its tolerance, and said so.
      if (!(stepper_.current_time() > before)) {
        broken_ = true;
        failure = {StepFailure::Kind::SolverFailed,
                   "step size collapsed: the error control shrank the step to " + format_g(stepper_.current_time_step(), 3) +
                       " s, below the round-off of t = " + format_g(before, 10) + " s, so the step no longer advances time"};
        return false;
      }
      ++counters_.steps;
      // Odeint's dense-output loop retries a rejected step internally and tells no one. Each
      // attempt of the FSAL Dormand-Prince pair evaluates f exactly 6 times (stages 2-7; stage 1
      // is the last accepted step's stage 7), plus 1 evaluation at initialisation, and dense output
      // evaluates none: so the attempts are (rhs_evals - 1) / 6 exactly, and the rejections those
      // less the accepted steps (the referee read: 0 had been printed while the evaluations
      // showed 1.2 attempts per step on Model C).
      counters_.error_test_failures = (counters_.rhs_evals - 1) / 6 - counters_.steps;
    }
    if (locating_ && locate_event(std::min(t_stop, stepper_.current_time()))) return true;
    // The dense stepper may overshoot t_stop; report the interpolated state at t_stop then.
    if (stepper_.current_time() >= t_stop) {
      t_ = t_stop;
      stepper_.calc_state(t_stop, y_);
    } else {
      t_ = stepper_.current_time();
      y_ = stepper_.current_state();
    }
    return true;
  }

 private:
  // Whether a switching function changed side between t_ (values s_start_) and t_end on the
  // dense output; if so, ends the step at the earliest zero (t_, y_ just past it, on the new
  // side) with a restart pending, and returns true. Else moves s_start_ to t_end, returns false.
  bool locate_event(double t_end) {
    Eigen::VectorXd y_end, s_end;
    dense_state(t_end, y_end);
    ode_.switching_values(t_end, y_end, s_end);
    double t_event = t_end;
    Eigen::VectorXd y_event;
    bool found = false;
    // Every function's values at a time, computed once: the functions share their probe times (while
    // no earlier event has shortened the bracket) and a probe costs a dense evaluation and all of them.
    std::map<double, Eigen::VectorXd> values_at;
    const auto s_at = [&](double t, Eigen::Index i) {
      auto it = values_at.find(t);
      if (it == values_at.end()) {
        Eigen::VectorXd y;
        it = values_at.emplace(t, Eigen::VectorXd()).first;
        dense_state(t, y);
        ode_.switching_values(t, y, it->second);
      }
      return it->second[i];
    };
    for (Eigen::Index i = 0; i < s_end.size(); ++i) {
      // The zero of s_i(t) on the dense output over [a, b]: a on the old side, b on the new one.
      double a = t_, b = std::min(t_end, t_event), sa = s_start_[i], sb;
      if (switching_side(s_start_[i]) == switching_side(s_end[i])) {
        // Both ends on one side, but a pair of switches may lie inside (a whole taut phase passed in
        // one step: the error estimate, of the step's stages, can miss it): the first of
        // kInteriorProbes points of the dense output on the other side brackets the first switch.
        constexpr int kInteriorProbes = 32;
        bool inside = false;
        for (int k = 1; k < kInteriorProbes && !inside; ++k) {
          const double t = t_ + (b - t_) * k / kInteriorProbes, v = s_at(t, i);
          if (switching_side(v) != switching_side(sa)) {
            inside = true;
            b = t, sb = v;
          } else {
            a = t, sa = v;
          }
        }
        if (!inside) continue;
      } else {
        sb = s_at(b, i);
        if (switching_side(sa) == switching_side(sb)) continue;  // this one's zero is after an earlier event
      }
      t_event = bracket_switch(a, b, sa, sb, b, [&](double m) { return s_at(m, i); });
      found = true;
    }
    // A zero at the step's end needs no shorter step, but where the form jumps there (an impact), the
    // jump and the restart are still due: a closing that the bracket placed on t_end is still a closing.
    if (!found || (!(t_event < t_end) && !ode_.has_impacts())) {
      s_start_ = s_end;
      return false;
    }
    dense_state(t_event, y_event);
    ode_.apply_jump(t_event, y_event);  // a hybrid form's impact or change of mode (issue 48)
    ode_.switching_values(t_event, y_event, s_start_);
    t_ = t_event;
    y_ = y_event;
    restart_pending_ = true;
    return true;
  }

  const OdeFormulation& ode_;
  DenseStepper stepper_;
  bool broken_ = false;
  const bool locating_;
  bool restart_pending_ = false;
  Eigen::VectorXd s_start_;  // the switching functions at t_
};

}  // namespace

IntegratorInfo rk45_info() {
  std::vector<SettingSpec> settings =
      error_tolerance_settings("relative tolerance of the error control err_i ≤ atol + rtol·|y_i|", 1e-8,
                               "absolute tolerance of the error control err_i ≤ atol + rtol·|y_i|", 1e-10);
  settings.push_back(max_step_setting());
  settings.push_back(locate_events_setting());
  IntegratorInfo info{"rk45", 5, true, MethodTraits{},
                      "adaptive Dormand-Prince 5(4) with dense output (Boost.Odeint), rtol/atol, R as 9 numbers",
                      std::move(settings),
                      consuming([](const OdeFormulation& form, const IntegratorSettings& s, double t0) {
                        return std::make_unique<Rk45Stepper>(form, s, t0);
                      })};
  info.idle_setting = idle_locate_events;
  info.impacts_by = "event-driven: each switch located on its interpolant, the form's impact law or change of mode applied "
                    "there, and the method restarted";
  return info;
}

}  // namespace tb
