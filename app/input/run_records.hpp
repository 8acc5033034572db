#pragma once
// The records every layer above the runner shares: how a run ended (RunOutcome), which run
// (RunKey), what to measure and how (MeasureOptions, RunOptions), and what was measured
// (IntegrationOutcome, Measurement, SummaryRow). They live apart from the code that measures
// (app/running/runner.hpp) so that the headers that carry them (job results, isolation, round-off
// floors) need not include the runner, whose source includes them (issue 45: the include
// cycles through runner.hpp).

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/input/case.hpp"
#include "core/metrics.hpp"
#include "core/stability_criterion.hpp"
#include "core/violable_invariants.hpp"

namespace tb {

using SampleObserver = std::function<void(double t, const Eigen::VectorXd& y)>;

// The reason of a run ended by a thrown value that is not a std::exception (`throw 42`).
inline constexpr const char* kNonStandardException = "a non-standard exception (not derived from std::exception)";
using ProgressReporter = std::function<void(double t)>;

// How a run ended.
struct RunOutcome {
  // Unstable: the run reached t_end beyond the instability criterion (core/stability_criterion.hpp);
  // its metrics are kept for diagnosis (time series, job results) but are not results: the tables
  // show only ok runs'. An ok run that drifts within the criterion's physical scale keeps every
  // metric and carries the drift's onset in `note`.
  enum class Kind { Ok, Failed, NotApplicable, Interrupted, Unstable };
  Kind kind = Kind::Ok;
  // Failed: the integrator's or the exception's reason; NotApplicable: why not; Unstable: what
  // the criterion found (Instability::describe(): "energy gain 0.102 × E_s > 0.1 (...)").
  std::string reason;
  bool diverged = false;  // Failed because the state became non-finite: the method is unstable here
  // Failed: the time of the last accepted step and the number of the step that failed;
  // Unstable: the ONSET, the first sample past the criterion's bound and the steps taken up to it;
  // Ok with a note: the drift's onset.
  double t = 0.0;
  long step = 0;
  double h = 0.0;         // the step the run used (for "diverged at h = ...")
  bool adaptive = false;
  double rtol = 0.0;      // adaptive runs: the tolerance (their h is only the first step's)
  // Ok: "" or the drift (Drift::describe(): "drift from t = 70.8 s (step 94200): |E − E0 − W| passed ...").
  std::string note;
  // Ok: "" or an energy-balance error past the drift bound that stopped growing (EnergyDrift::growing():
  // "an energy-balance error that stopped growing: ..."): an accuracy error, not a drift.
  std::string accrued;
  // Ok: "" or the conservation drift of the linear momentum (MomentumDrift::describe(): "drifts in
  // P: max |ΔP| 0.148 N s (...), centre of mass moved 34.5 m; ..."), a different mechanism from
  // a growth of the energy error: the method lets the centre of mass drift.
  std::string momentum_drift;
  // Ok: "" or an episode of exponential growth of the energy error that stopped (GrowthEpisode::
  // describe()): the motion changed, every method's error rose with it; not an instability.
  std::string episode;
  double episode_t = 0.0;  // its start (s), when `episode` is not empty
  // Ok: "" or the constraints' or rotations' drift off their manifold without an amplification
  // (ManifoldDrift::describe(): "drifts off the constraint manifold from t = ..."), and its onset.
  std::string manifold_drift;
  double manifold_t = 0.0;
  bool manifold_rotations = false;  // the drift is off SO(3), not off the constraints
  // Unstable by an energy jump (Instability::Bound::EnergyJump): one step added energy past the
  // criterion's bound and none was added after it; not a result either, but no amplification.
  bool energy_jump = false;

  bool ok() const { return kind == Kind::Ok; }
  // Reached t_end: ok, or past the instability criterion (its metrics measure the whole run and
  // are shown beside its status, issue 44: a run that completed is never drawn as if it stopped).
  bool completed() const { return kind == Kind::Ok || kind == Kind::Unstable; }
  bool failed() const { return kind == Kind::Failed; }
  bool not_applicable() const { return kind == Kind::NotApplicable; }
  bool interrupted() const { return kind == Kind::Interrupted; }
  bool unstable() const { return kind == Kind::Unstable; }
  // Failed or interrupted: the run did not reach t_end, and its metrics are not results.
  bool incomplete() const { return kind == Kind::Failed || kind == Kind::Interrupted; }
  // Failed, unstable or interrupted: a run that should have given results and did not (the exit
  // status of `run`, `table` and `report`).
  bool no_result() const { return incomplete() || unstable(); }
  // Failed at its step or unstable: what a gate's "outcome,fails" envelope expects.
  bool fails() const { return failed() || unstable(); }
  // The status cell of the tables: "ok", "ok; drifts in P: ..." (a conservation drift of the linear
  // momentum), "ok; drift from t = ... s (step ...): ..." (a drift within the physical scale),
  // "ok; a ×119 rise of ... that stopped ..." (an episode of the motion), these joined by "; ", "n/a: <why>", "diverged at h = <h>: <reason> at t = ... s, step ..."
  // (non-finite state inside a step), "unstable from t = ... s (step ...): <what the criterion
  // found>, at h = <h>" (at rtol = <rtol> for an adaptive run) or "failed: <reason> at t = ... s, step ...".
  std::string describe() const;
  // The state in one word, for a reader that filters runs (the status cell says why): "ok",
  // "drift" (ok, with a drift of the energy balance, of the linear momentum or off the manifold
  // noted), "unstable", "energy jump" (completed past the energy bound by one step's gain),
  // "diverged" (failed with a non-finite state), "failed", "interrupted" or "n/a" (issue 46).
  std::string_view word() const;
  // What a "drift" is a drift of, the two mechanisms apart (issue 44 class 1): "energy" (the energy
  // balance, judged on the motion's own energy where the centre of mass is free), "linear_momentum"
  // (the centre of mass drifts: a conservation drift, not an instability), "constraint" or
  // "orthogonality" (off the manifold, ManifoldDrift), space-separated, or "".
  std::string drifts() const;

  static RunOutcome not_applicable_because(std::string why);
  static RunOutcome failed_at(std::string reason, double t, long step, bool diverged = false);
  static RunOutcome interrupted_at(double t, long step);
};

// What integrate() (app/running/runner.hpp) returns: one integrator's steps on one formulation.
struct IntegrationOutcome {
  RunOutcome outcome;
  double t_final = 0.0;  // last time reached (t_end when ok)
  StepCounters counters;
  double runtime_s = 0.0;
  Eigen::VectorXd final_state;
  // The impacts the scheme applied inside its steps (TimeStepper::applied_impacts), and how many more
  // there were past the recorded ones.
  std::vector<AppliedImpact> impacts;
  long impacts_not_recorded = 0;
  bool ok() const { return outcome.ok(); }
};

// Which run: a case, an integrator and one of the case model's discretisations.
struct RunKey {
  const Case* c = nullptr;
  const IntegratorInfo* integrator = nullptr;
  std::string discretisation;  // one of c->model->discretisations()
  // The run's name in tables, folders and envelopes: the integrator, with "@discretisation"
  // when it runs a discretisation other than the model's default (e.g. "<integrator>@lumped").
  std::string label() const;
};
std::string run_label(const std::string& integrator, const Model& model, const std::string& discretisation);

// How measure() (app/running/runner.hpp) runs and observes one run.
struct MeasureOptions {
  double t_end = 0.0;
  double sample_interval = 0.0;  // observation grid; the metrics are measured on it
  int repeats = 1;               // timing passes (the first observes); runtime is their minimum
  // A run whose passes so far took less than this in total gets further unobserved passes
  // until they reach it (at most 1000 in all): a sub-millisecond run timed once measures the
  // clock and the cache, not the method (Google Benchmark's min_time, for whole runs). Compiled
  // code only: an interpreted method's passes would repeat its step's side effects (a print, an
  // append) unasked, so it takes `repeats` passes and no more (issue 46).
  double min_timed_s = 0.0;
  std::string timeseries_path;   // "" writes none
  bool progress = false;         // progress line on a terminal
  bool observe = true;           // false: no metrics (sweep points that need only the final state)
  // Besides the metrics over the whole run, the metrics over [t0, window_end] (0: none): the
  // window every run of the case reaches, so that runs of different horizons compare like for like.
  double window_end = 0.0;
  // A completed, observed run beyond it is Unstable (core/stability_criterion.hpp).
  StabilityCriterion stability;
  // When set, called in the first pass with the model's physical state at every sample of the
  // grid (t0, every sample_interval, t_end), whether or not the metrics observe: the
  // work-precision study's trajectory errors.
  SampleObserver physical_samples;
};

// What measure() returns.
struct Measurement {
  RunOutcome outcome;
  StepCounters counters;
  ConservationMetrics metrics;
  ConservationMetrics window_metrics;  // over [t0, MeasureOptions::window_end] (empty when none)
  double runtime_s = 0.0;
  // The timing passes' spread, median / min - 1 (0 with one pass): how far apart two runtimes
  // must be before a ranking may call one faster (the machine's noise, measured in the same run).
  double runtime_spread = 0.0;
  int timing_passes = 1;  // how many passes runtime_s and runtime_spread come from
  double t_final = 0.0;
  Eigen::VectorXd final_physical;  // the model's physical state at t_final
  std::vector<std::string> extra_columns;
  std::string host;  // the machine the runtime was measured on (host_name()): runs may be spread over a cluster
  // Which metrics the run's formulation can violate (declared by the form and the model): the
  // others are not results, whatever their accumulators hold.
  ViolableInvariants violable;
};

// A summary-table row (app/writing/summary.hpp).
struct SummaryRow {
  std::string case_name, integrator, discretisation;  // integrator: the run label
  double h = 0.0, rtol = 0.0, atol = 0.0, t_end = 0.0;
  // An adaptive run's step cap (max_step, where its integrator declares one; 0: none): printed
  // beside its tolerances, since a cap can decide an adaptive run's verdict (issue 44).
  double max_step = 0.0;
  bool declares_max_step = false;
  StepCounters counters;
  ConservationMetrics metrics;
  // The shared window: [t0, shared_t_end], the shortest horizon among the case's runs, and the
  // metrics over it (equal to `metrics` when the run's own horizon is the shared one).
  double shared_t_end = 0.0;
  ConservationMetrics shared_metrics;
  // Which metrics the run's formulation can violate (core/violable_invariants.hpp): a constraint
  // error where the form integrates no constraint, an orthogonality error where no rotation is
  // integrated, a momentum error where the model has no momentum map are "n/a (not
  // integrated)", never 0 (app/writing/summary.cpp).
  ViolableInvariants violable;
  double runtime_s = 0.0;
  // How many timed passes runtime_s is the minimum of, and their spread (median over minimum - 1;
  // 0 from one pass): the timing's own noise, printed where runtimes are compared (issue 44 point 23).
  int timing_passes = 1;
  double runtime_spread = 0.0;
  // What ran the steps runtime_s times: "compiled", or the interpreter of an integrator written in
  // one ("python": IntegratorInfo::interpreter), whose runtimes are not comparable with compiled ones.
  std::string runtime_code = "compiled";
  std::string host;  // where runtime_s was measured
  RunOutcome outcome;
  std::string status() const { return outcome.describe(); }
};

// The least total time a full run is timed over (MeasureOptions::min_timed_s): runs shorter
// than this are repeated unobserved, the runtime being the minimum pass. 0.05 s keeps the
// cost of the shortest bundled runs (well under a millisecond) to a few hundred passes.
inline constexpr double kMinTimedSeconds = 0.05;

struct RunOptions {
  std::string out_dir;           // where <case>/<label>/timeseries.csv go; empty: no files
  std::optional<double> h;       // overrides the case's step
  std::optional<double> t_end;   // overrides the case's end time
  int repeats = 1;               // extra timing passes without observation; runtime is the minimum
  double min_timed_s = kMinTimedSeconds;  // MeasureOptions::min_timed_s for the full runs
  bool progress = false;         // show progress on stderr
  // A run whose runtime nothing reads (the long-time study's, the error spread's, a gate's): one
  // pass. The default would repeat a run of a millisecond for 0.05 s, which made every such job
  // of the short cases cost 0.05-0.1 s whatever its length (issue 43).
  static RunOptions untimed() {
    RunOptions o;
    o.min_timed_s = 0.0;
    return o;
  }
};

}  // namespace tb
