#include "app/running/integrate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>

#include "core/format.hpp"
#include "app/running/interrupt.hpp"
#include "app/running/isolation.hpp"

namespace tb {

namespace {
using Clock = std::chrono::steady_clock;
}

namespace {

// The contract every stepper keeps (core/integrator.hpp TimeStepper::step), checked after every
// step it calls a success: a state of the formulation's size, finite (a step that produced a
// non-finite state must fail, StepFailure::Kind::Diverged: the built-in methods all check),
// and a time that moved forward but not past t_stop. "" when kept; else what was broken. Its
// cost is one pass over the state per step, against a step's several passes at least.
std::string breach_of_step_contract(const TimeStepper& stepper, Eigen::Index size, double t_before, double t_stop) {
  const Eigen::VectorXd& y = stepper.state();
  const double t = stepper.time();
  if (y.size() != size)
    return "a step returned success with a state of size " + std::to_string(y.size()) + "; expected the formulation's " +
           std::to_string(size);
  if (!y.allFinite())
    return "a step returned success with a non-finite state (NaN/Inf); expected it to fail (StepFailure::Kind::Diverged)";
  if (!(t > t_before))
    return "a step returned success without advancing time (" +
           (t == t_before ? "t stayed at " + format_g(t, 6) : "t = " + format_g(t, 17) + " after " + format_g(t_before, 17)) + " s)";
  if (t > t_stop + 1e-12 * std::max(1.0, std::abs(t_stop)))
    return "a step returned success past t_stop (t = " + format_g(t, 17) + " > " + format_g(t_stop, 17) + ")";
  return "";
}

}  // namespace

IntegrationOutcome integrate(const Formulation& form, const IntegratorInfo& info, const IntegratorSettings& settings,
                             double t_end, double sample_interval, const SampleObserver& observer,
                             const ProgressReporter& progress, long* step_at_sample) {
  IntegrationOutcome out;
  const double t0 = 0.0;
  // A run of its own when called outside measure() (a study's probe), in a worker process.
  const WatchedRun watched("integrator " + info.name);
  if (watched.failed()) {
    out.outcome = *watched.failed();
    out.outcome.h = settings.h;
    out.outcome.adaptive = info.adaptive;
    out.t_final = out.outcome.t;
    out.counters.steps = std::max(0L, out.outcome.step - 1);
    out.final_state = form.initial_state();
    return out;
  }
  std::unique_ptr<TimeStepper> stepper;
  try {
    stepper = info.make(form, settings, t0);
  } catch (const std::exception& e) {
    out.outcome = RunOutcome::failed_at(std::string("building the stepper failed: ") + e.what(), t0, 1);
    out.t_final = t0;
    out.final_state = form.initial_state();
    return out;
  } catch (...) {
    out.outcome = RunOutcome::failed_at("building the stepper failed: " + std::string(kNonStandardException), t0, 1);
    out.t_final = t0;
    out.final_state = form.initial_state();
    return out;
  }
  const Eigen::Index state_size = stepper->state().size();
  double runtime = 0.0;
  const double tiny = 1e-9 * std::min(settings.h, sample_interval);
  auto grid = [&](long i) { return double(i) * sample_interval; };
  long next_sample = 1;  // grid index of the next sample after t0
  Eigen::VectorXd y_sample;
  long no_steps = 0;
  long& steps_now = step_at_sample ? *step_at_sample : no_steps;
  steps_now = 0;
  try {
    if (observer) observer(t0, stepper->state());
    while (stepper->time() < t_end) {
      // Step without interruption up to the next sample time (or t_end when nothing observes),
      // timing the whole loop: one clock read per sample, not per step.
      const double target = observer ? std::min(grid(next_sample), t_end) : t_end;
      StepFailure failure;
      bool ok = true;
      std::string breach;
      double t_before = stepper->time();
      const auto start = Clock::now();
      bool stop = false;
      // Toward t_end the stepper must reach it: a time within `tiny` below t_end is not the end
      // (capped steps of 1 ms sum to 10 - 1.1e-13 over 10 s; stopping there looped for ever).
      while (stepper->time() < t_end && (target >= t_end || stepper->time() < target - tiny)) {
        t_before = stepper->time();
        if (!(ok = stepper->step(t_end, failure))) break;
        if (!(breach = breach_of_step_contract(*stepper, state_size, t_before, t_end)).empty()) break;
        watch_step(stepper->time(), stepper->counters().steps);
        if ((stop = interrupted())) break;
      }
      runtime += std::chrono::duration<double>(Clock::now() - start).count();
      if (!breach.empty()) {
        // The step it called a success is not one: the run ends before it, at the last good step.
        out.outcome = RunOutcome::failed_at("integrator contract: " + breach, t_before, stepper->counters().steps);
        break;
      }
      if (stop) {
        out.outcome = RunOutcome::interrupted_at(stepper->time(), stepper->counters().steps);
        steps_now = stepper->counters().steps;
        if (observer) observer(stepper->time(), stepper->state());  // keep where it stopped
        break;
      }
      if (!ok) {
        out.outcome = RunOutcome::failed_at(failure.reason, stepper->time(), stepper->counters().steps + 1,
                                            failure.kind == StepFailure::Kind::Diverged);
        break;
      }
      const double t = stepper->time();
      steps_now = stepper->counters().steps;
      if (observer) {
        if (stepper->has_dense_output()) {
          for (; grid(next_sample) <= t + tiny && grid(next_sample) < t_end - tiny; ++next_sample) {
            stepper->dense_state(grid(next_sample), y_sample);
            observer(grid(next_sample), y_sample);
          }
        } else if (grid(next_sample) <= t + tiny && t < t_end - tiny) {
          observer(t, stepper->state());  // the first step end at or after the grid time
          while (grid(next_sample) <= t + tiny) ++next_sample;
        }
        if (t >= t_end) observer(t, stepper->state());  // the final time is always sampled
      }
      if (progress) progress(t);
    }
  } catch (const std::exception& e) {
    out.outcome = RunOutcome::failed_at(std::string("exception: ") + e.what(), stepper->time(),
                                        stepper->counters().steps + 1);
  } catch (...) {
    out.outcome = RunOutcome::failed_at("exception: " + std::string(kNonStandardException), stepper->time(),
                                        stepper->counters().steps + 1);
  }
  out.outcome.h = settings.h;
  out.outcome.adaptive = info.adaptive;
  out.outcome.rtol = info.adaptive && settings.declares_tolerances() ? settings.tolerances().rtol : 0.0;
  // A step that broke the contract is not taken: the run ends where the last good step left it.
  const bool breached = out.outcome.failed() && out.outcome.reason.rfind("integrator contract: ", 0) == 0;
  out.t_final = breached ? out.outcome.t : stepper->time();
  out.counters = stepper->counters();
  out.runtime_s = runtime;
  out.final_state = stepper->state();
  return out;
}

}  // namespace tb
