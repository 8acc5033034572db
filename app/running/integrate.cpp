#include "app/running/integrate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <optional>

#include "core/format.hpp"
#include "app/running/interrupt.hpp"
#include "app/running/isolation.hpp"

namespace tb {

namespace {
using Clock = std::chrono::steady_clock;

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

namespace {

// The run a failed worker watch or a stepper that cannot be built leaves: no step taken.
IntegrationOutcome not_started(const Formulation& form, RunOutcome outcome, double t) {
  IntegrationOutcome out;
  out.outcome = std::move(outcome);
  out.t_final = t;
  out.final_state = form.initial_state();
  return out;
}

// The stepper, or the failed run saying why it could not be built.
std::unique_ptr<TimeStepper> build_stepper(const Formulation& form, const IntegratorInfo& info,
                                           const IntegratorSettings& settings, double t0, std::optional<RunOutcome>& failed) {
  try {
    return info.make(form, settings, t0);
  } catch (const std::exception& e) {
    failed = RunOutcome::failed_at(std::string("building the stepper failed: ") + e.what(), t0, 1);
  } catch (...) {
    failed = RunOutcome::failed_at("building the stepper failed: " + std::string(kNonStandardException), t0, 1);
  }
  return nullptr;
}

// How one uninterrupted stretch of steps ended (StepLoop::run_to).
struct Stretch {
  bool ok = true;           // no step failed
  StepFailure failure;      // the failed step's reason (ok false)
  std::string breach;       // a broken step contract ("" kept)
  bool interrupted = false;
  double t_before = 0.0;    // the time before the last step tried
};

// The step loop of one run: steps from sample to sample (or straight to t_end when nothing
// observes), times the stepping only, and hands the observer the samples on its grid.
class StepLoop {
 public:
  StepLoop(TimeStepper& stepper, double t_end, double sample_interval, double h, const SampleObserver& observer)
      : stepper_(stepper), t_end_(t_end), interval_(sample_interval), observer_(observer),
        tiny_(1e-9 * std::min(h, sample_interval)), state_size_(stepper.state().size()) {}

  // Where the next stretch ends: the next sample time, or t_end.
  double next_target() const { return observer_ ? std::min(grid(next_sample_), t_end_) : t_end_; }

  // Steps without interruption up to `target`, timing the whole stretch: one clock read per
  // sample, not per step. Toward t_end the stepper must reach it: a time within `tiny` below
  // t_end is not the end (capped steps of 1 ms sum to 10 - 1.1e-13 over 10 s; stopping there
  // looped for ever).
  Stretch run_to(double target) {
    Stretch s;
    s.t_before = stepper_.time();
    const auto start = Clock::now();
    while (stepper_.time() < t_end_ && (target >= t_end_ || stepper_.time() < target - tiny_)) {
      s.t_before = stepper_.time();
      if (!(s.ok = stepper_.step(t_end_, s.failure))) break;
      if (!(s.breach = breach_of_step_contract(stepper_, state_size_, s.t_before, t_end_)).empty()) break;
      watch_step(stepper_.time(), stepper_.counters().steps);
      if ((s.interrupted = interrupted())) break;
    }
    runtime_ += std::chrono::duration<double>(Clock::now() - start).count();
    return s;
  }

  // The samples due by the stepper's time t: on the grid by dense output where the stepper has
  // it, else the first step end at or after each grid time; the final time always.
  void sample() {
    if (!observer_) return;
    const double t = stepper_.time();
    if (stepper_.has_dense_output()) {
      for (; grid(next_sample_) <= t + tiny_ && grid(next_sample_) < t_end_ - tiny_; ++next_sample_) {
        stepper_.dense_state(grid(next_sample_), y_sample_);
        observer_(grid(next_sample_), y_sample_);
      }
    } else if (grid(next_sample_) <= t + tiny_ && t < t_end_ - tiny_) {
      observer_(t, stepper_.state());
      while (grid(next_sample_) <= t + tiny_) ++next_sample_;
    }
    if (t >= t_end_) observer_(t, stepper_.state());
  }

  double runtime() const { return runtime_; }

 private:
  double grid(long i) const { return double(i) * interval_; }

  TimeStepper& stepper_;
  const double t_end_, interval_;
  const SampleObserver& observer_;
  const double tiny_;
  const Eigen::Index state_size_;
  long next_sample_ = 1;  // grid index of the next sample after t0
  Eigen::VectorXd y_sample_;
  double runtime_ = 0.0;
};

// The outcome of a stretch that ended the run early, or nullopt when the run goes on.
std::optional<RunOutcome> end_of_run(const Stretch& s, const TimeStepper& stepper) {
  // A step it called a success that is not one: the run ends before it, at the last good step.
  if (!s.breach.empty()) return RunOutcome::failed_at("integrator contract: " + s.breach, s.t_before, stepper.counters().steps);
  if (s.interrupted) return RunOutcome::interrupted_at(stepper.time(), stepper.counters().steps);
  if (!s.ok)
    return RunOutcome::failed_at(s.failure.reason, stepper.time(), stepper.counters().steps + 1,
                                 s.failure.kind == StepFailure::Kind::Diverged);
  return std::nullopt;
}

}  // namespace

IntegrationOutcome integrate(const Formulation& form, const IntegratorInfo& info, const IntegratorSettings& settings,
                             double t_end, double sample_interval, const SampleObserver& observer,
                             const ProgressReporter& progress, long* step_at_sample) {
  const double t0 = 0.0;
  // A run of its own when called outside measure() (a study's probe), in a worker process.
  const WatchedRun watched("integrator " + info.name);
  if (watched.failed()) {
    IntegrationOutcome out = not_started(form, *watched.failed(), watched.failed()->t);
    out.outcome.h = settings.h;
    out.outcome.adaptive = info.adaptive;
    out.counters.steps = std::max(0L, out.outcome.step - 1);
    return out;
  }
  std::optional<RunOutcome> not_built;
  const std::unique_ptr<TimeStepper> stepper = build_stepper(form, info, settings, t0, not_built);
  if (!stepper) return not_started(form, *not_built, t0);

  IntegrationOutcome out;
  StepLoop loop(*stepper, t_end, sample_interval, settings.h, observer);
  long no_steps = 0;
  long& steps_now = step_at_sample ? *step_at_sample : no_steps;
  steps_now = 0;
  // An interrupted run, between steps or within one, keeps where it stopped: its steps and a last sample.
  auto keep_where_it_stopped = [&] {
    steps_now = stepper->counters().steps;
    if (observer) observer(stepper->time(), stepper->state());
  };
  try {
    if (observer) observer(t0, stepper->state());
    while (stepper->time() < t_end) {
      const Stretch stretch = loop.run_to(loop.next_target());
      if (const auto ended = end_of_run(stretch, *stepper)) {
        out.outcome = *ended;
        if (stretch.breach.empty() && stretch.interrupted) keep_where_it_stopped();
        break;
      }
      steps_now = stepper->counters().steps;
      loop.sample();
      poll_interrupt();  // a host program's interrupt (InterruptPoll), outside the timed stretch
      if (progress) progress(stepper->time());
    }
  } catch (const RunInterrupted&) {  // within a step (a Python method's KeyboardInterrupt)
    set_interrupted(true);
    out.outcome = RunOutcome::interrupted_at(stepper->time(), stepper->counters().steps);
    keep_where_it_stopped();
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
  out.runtime_s = loop.runtime();
  out.final_state = stepper->state();
  out.impacts = stepper->applied_impacts();
  out.impacts_not_recorded = stepper->impacts_not_recorded();
  return out;
}

std::unique_ptr<Formulation> formulation_of_run(const RunKey& key, RunOutcome& outcome) {
  std::string why_not;
  try {
    auto form = key.c->model->make_formulation(key.integrator->consumes, key.discretisation, why_not);
    if (!form) outcome = RunOutcome::not_applicable_because(why_not);
    return form;
  } catch (const std::exception& e) {
    outcome = RunOutcome::failed_at(std::string("building the formulation failed: ") + e.what(), 0.0, 0);
  }
  return nullptr;
}

}  // namespace tb
