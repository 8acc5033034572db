#include "app/running/runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>

#include "core/format.hpp"
#include "app/common/progress_sink.hpp"
#include "app/running/energy_scale.hpp"
#include "app/running/interrupt.hpp"
#include "app/running/isolation.hpp"
#include "app/running/job_result.hpp"
#include "app/running/round_off.hpp"

namespace tb {

namespace {
using Clock = std::chrono::steady_clock;

// Flushed at least once a second of wall time, so a killed run loses at most that much, and
// the header at once, so no file is ever left empty.
class TimeSeriesWriter {
 public:
  // A column of a metric the form cannot violate is left empty (its 0 would read as a result).
  TimeSeriesWriter(const std::filesystem::path& file, const std::vector<std::string>& extra, const ViolableInvariants& v)
      : out_(file), momentum_(v.momentum), constraints_(v.constraints), rates_(v.constraint_rates), rotations_(v.rotations) {
    if (!out_) throw std::runtime_error("cannot write " + file.string());
    out_ << "t,energy,kinetic,momentum,constraint_err,constraint_rate_err,orthogonality_err,external_work";
    for (const auto& name : extra) out_ << ',' << name;
    out_ << '\n';
    out_.flush();
    last_flush_ = Clock::now();
  }
  void write(double t, const Observation& o) {
    char buf[40];
    auto put = [&](double x) {
      std::snprintf(buf, sizeof buf, "%.17g", x);
      out_ << buf;
    };
    put(t);
    const std::pair<double, bool> columns[] = {{o.energy, true},           {o.kinetic, true},
                                               {o.momentum, momentum_},    {o.constraint_err, constraints_},
                                               {o.constraint_rate_err, rates_}, {o.orthogonality_err, rotations_},
                                               {o.external_work, true}};
    for (const auto& [x, integrated] : columns) {
      out_ << ',';
      if (integrated) put(x);
    }
    for (double x : o.extra) out_ << ',', put(x);
    out_ << '\n';
    if (const auto now = Clock::now(); now - last_flush_ >= std::chrono::seconds(1)) {
      out_.flush();
      last_flush_ = now;
    }
  }

 private:
  std::ofstream out_;  // closed (and so kept) whatever happens to the run
  bool momentum_, constraints_, rates_, rotations_;
  Clock::time_point last_flush_;
};

// A run's progress line: redrawn in place on a terminal's stderr, or handed whole to a host
// program's sink (app/common/progress_sink.hpp: a notebook) every few seconds. Never from an
// isolated worker process, whose copy of a host's sink would call into a forked interpreter.
class TerminalProgress {
 public:
  TerminalProgress(std::string label, double t_end, bool enabled)
      : label_(std::move(label)), t_end_(t_end),
        sink_(enabled && !in_isolated_worker() ? progress_sink() : nullptr),
        enabled_(enabled && (sink_ || isatty(STDERR_FILENO))) {}
  void operator()(double t) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (now - last_ < (sink_ ? std::chrono::milliseconds(2000) : std::chrono::milliseconds(250)) && t < t_end_) return;
    last_ = now;
    char line[160];
    std::snprintf(line, sizeof line, "  %-48s %5.1f%%  t = %.4g s ", label_.c_str(), 100.0 * t / t_end_, t);
    if (sink_) {
      (*sink_)(line);
      return;
    }
    std::fprintf(stderr, "\r%s", line);
    std::fflush(stderr);
    shown_ = true;
  }
  ~TerminalProgress() {
    if (shown_) std::fprintf(stderr, "\n");
  }

 private:
  std::string label_;
  double t_end_;
  const ProgressSink* sink_;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point last_{};
};

}  // namespace

namespace {
// Read once when the library loads, before any thread starts: not a function-local static, whose
// first call from a worker thread holds its initialisation guard across a system call. A fork
// (app/running/isolation.hpp) taken by another thread inside that window copied the guard held, and the
// worker process then waited on it for ever (seen: a plugin study's worker hung in measure()).
const std::string kHostName = [] {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == 0) return std::string("unknown");
  return std::string(buf);
}();
}  // namespace

const std::string& host_name() { return kHostName; }

namespace {

// A run as a crash row names it.
std::string run_description(const RunKey& key) { return "integrator " + key.label() + ", case " + key.c->name; }

// Whether a run executes a plugin's code: its integrator's or its model's (app/running/plugins.cpp).
bool runs_plugin_code(const RunKey& key) {
  if (!key.integrator->interpreter.empty()) return false;  // see IntegratorInfo::interpreter
  return key.c->origins.count("integrator " + key.integrator->name) > 0 || key.c->origins.count("model " + key.c->model_name) > 0;
}

// The run's formulation, or null with m.outcome saying why it could not be built; also the
// columns and invariants the run will report.
std::unique_ptr<Formulation> build_formulation(const RunKey& key, Measurement& m) {
  try {
    std::string why_not;
    auto form = key.c->model->make_formulation(key.integrator->consumes, key.discretisation, why_not);
    if (!form) throw std::logic_error("offered but not built: " + why_not);
    m.extra_columns = form->extra_column_names();
    m.violable = violable_invariants(*key.c->model, *form);
    return form;
  } catch (const std::exception& e) {
    m.outcome = RunOutcome::failed_at(std::string("building the formulation failed: ") + e.what(), 0.0, 1);
  } catch (...) {
    m.outcome = RunOutcome::failed_at("building the formulation failed: " + std::string(kNonStandardException), 0.0, 1);
  }
  return nullptr;
}

// A completed run judged by the instability criterion (its metrics stay, for diagnosis):
// unstable from its onset, or ok with a note where it drifts within the physical scale.
void judge_completed_run(RunOutcome& outcome, const StabilityVerdict& verdict) {
  if (verdict.unstable) {
    outcome.kind = RunOutcome::Kind::Unstable;
    outcome.reason = verdict.unstable->describe();
    outcome.t = verdict.unstable->t;
    outcome.step = verdict.unstable->step;
    outcome.energy_jump = verdict.unstable->bound == Instability::Bound::EnergyJump;
    return;
  }
  if (verdict.off_manifold) {
    outcome.manifold_drift = verdict.off_manifold->describe();
    outcome.manifold_t = verdict.off_manifold->t;
    outcome.manifold_rotations = verdict.off_manifold->what == ManifoldDrift::What::Orthogonality;
  }
  if (verdict.drift && verdict.drift->growing()) {
    outcome.note = verdict.drift->describe();
    outcome.t = verdict.drift->t;
    outcome.step = verdict.drift->step;
  } else if (verdict.drift) {
    outcome.accrued = verdict.drift->describe();  // ok: an error made once, not a drift
  }
  if (verdict.momentum_drift) outcome.momentum_drift = verdict.momentum_drift->describe();
  if (verdict.episode) outcome.episode = verdict.episode->describe(), outcome.episode_t = verdict.episode->t_start;
}

// The final state in physical coordinates; a run without one is no result.
void record_final_state(Measurement& m, const Formulation& form, const Eigen::VectorXd& final_state) {
  try {
    m.final_physical = form.physical_state(final_state);
  } catch (const std::exception& e) {
    if (m.outcome.ok()) m.outcome = RunOutcome::failed_at(std::string("physical state: ") + e.what(), m.t_final, m.counters.steps);
  } catch (...) {
    if (m.outcome.ok())
      m.outcome = RunOutcome::failed_at("physical state: " + std::string(kNonStandardException), m.t_final, m.counters.steps);
  }
}

// Timing passes with observation off (SPEC: runtime is the minimum over repeats), and more of
// them while the passes so far total under min_timed_s; the spread as the median pass over the
// fastest: robust to the odd preempted pass, which the slowest of hundreds of sub-millisecond
// passes always is.
void time_again(Measurement& m, const Formulation& form, const RunKey& key, const IntegratorSettings& settings,
                const MeasureOptions& options) {
  double timed = m.runtime_s;
  std::vector<double> passes = {m.runtime_s};
  const double floor = key.integrator->interpreter.empty() ? options.min_timed_s : 0.0;  // see MeasureOptions
  for (int r = 1; m.outcome.ok() && (r < options.repeats || (timed < floor && r < 1000)); ++r) {
    const IntegrationOutcome again = integrate(form, *key.integrator, settings, options.t_end, options.t_end, {});
    if (!again.ok()) break;  // interrupted: only complete passes count
    m.runtime_s = std::min(m.runtime_s, again.runtime_s);
    passes.push_back(again.runtime_s);
    timed += again.runtime_s;
  }
  std::sort(passes.begin(), passes.end());
  const size_t n = passes.size();
  const double median = n % 2 ? passes[n / 2] : 0.5 * (passes[n / 2 - 1] + passes[n / 2]);
  m.runtime_spread = m.runtime_s > 0.0 ? median / m.runtime_s - 1.0 : 0.0;
  m.timing_passes = int(n);
}

}  // namespace

Measurement measure(const RunRequest& request) {
  const RunKey& key = request.key;
  const IntegratorSettings& settings = request.settings;
  const MeasureOptions& options = request.measure;
  Measurement m;
  m.host = host_name();
  // In a worker process (app/running/isolation.hpp), the run reports itself; replayed after it crashed,
  // it is not run again but returns its crash as its failure.
  const WatchedRun watched(run_description(key));
  if (watched.failed()) {
    m.outcome = *watched.failed();
    m.outcome.h = settings.h;
    m.outcome.adaptive = key.integrator->adaptive;
    m.counters.steps = std::max(0L, m.outcome.step - 1);  // accepted before the crash (the rest died with it)
    m.t_final = m.outcome.t;
    return m;
  }
  if (const auto why = why_not_applicable(*key.c, *key.integrator, key.discretisation)) {
    m.outcome = RunOutcome::not_applicable_because(*why);
    return m;
  }
  if (interrupted()) {  // not started
    m.outcome = RunOutcome::interrupted_at(0.0, 0);
    return m;
  }
  const std::unique_ptr<Formulation> form = build_formulation(key, m);
  if (!form) {
    m.outcome.h = settings.h;
    return m;
  }

  std::unique_ptr<TimeSeriesWriter> writer;
  if (!options.timeseries_path.empty()) {
    const std::filesystem::path path(options.timeseries_path);
    std::filesystem::create_directories(path.parent_path());
    writer = std::make_unique<TimeSeriesWriter>(path, m.extra_columns, m.violable);
  }
  MetricsAccumulator metrics, window;
  // The one criterion (core/stability_criterion.hpp), its start-up window the model's slowest
  // period, its energy scale the case's (app/running/energy_scale.hpp).
  StabilityMonitor stability(options.stability, key.c->model->slowest_period_s(),
                             case_energy_scale(*key.c, key.discretisation), !key.integrator->traits.imaginary_axis_stable);
  long step_now = 0;
  // A sample belongs to the window up to a rounding of its time (fixed steps land on t0 + n h).
  const double window_end = options.window_end > 0.0 ? options.window_end * (1.0 + 1e-12) : 0.0;
  SampleObserver observer;
  if (options.observe || options.physical_samples)
    observer = [&](double t, const Eigen::VectorXd& y) {
      if (options.physical_samples) options.physical_samples(t, form->physical_state(y));
      if (!options.observe) return;
      const Observation o = form->observe(t, y);
      metrics.add(t, o);
      stability.add(t, step_now, o);
      if (t <= window_end) window.add(t, o);
      if (writer) writer->write(t, o);
    };
  TerminalProgress progress(key.c->name + " | " + key.label(), options.t_end, options.progress);
  const IntegrationOutcome first =
      integrate(*form, *key.integrator, settings, options.t_end, options.sample_interval, observer, std::ref(progress),
                &step_now);
  m.outcome = first.outcome;
  m.counters = first.counters;
  m.metrics = metrics.result();
  if (window_end > 0.0) m.window_metrics = window.result();
  m.runtime_s = first.runtime_s;
  m.t_final = first.t_final;
  if (m.outcome.ok() && options.observe) judge_completed_run(m.outcome, stability.result());
  record_final_state(m, *form, first.final_state);
  time_again(m, *form, key, settings, options);
  return m;
}

void judge_growth_laws(SummaryRow& row, const RunKey& key) {
  const bool conservative = row.metrics.external_work_max == 0.0;
  for (const bool energy : {true, false}) {
    GrowthFit& g = energy ? row.metrics.energy_growth : row.metrics.momentum_growth;
    GrowthContext context;
    context.round_off_floor = round_off_floor(energy ? RoundOffScale::Energy : RoundOffScale::Momentum, row);
    context.slowest_period = key.c->model->slowest_period_s();
    context.prediction = predicted_growth(key.integrator->traits, energy, conservative, key.c->model->damped());
    context.kinks = key.c->model->switching_count() > 0;
    g = fit_growth(g.envelope, g.err_max, context);
  }
}

namespace {

SummaryRow run_case_here(const RunRequest& request) {
  const RunKey& key = request.key;
  const IntegratorInfo& info = *key.integrator;
  const IntegratorSettings& settings = request.settings;
  const MeasureOptions& m = request.measure;
  SummaryRow row;
  row.case_name = key.c->name;
  row.integrator = key.label();
  row.discretisation = key.discretisation;
  row.h = settings.h;
  row.rtol = info.adaptive ? settings.tolerances().rtol : 0.0;
  row.atol = info.adaptive ? settings.tolerances().atol : 0.0;
  row.declares_max_step = info.adaptive && settings.declares(kMaxStepKey);
  row.max_step = row.declares_max_step ? settings.max_step() : 0.0;
  row.t_end = m.t_end;
  row.shared_t_end = m.window_end > 0.0 ? m.window_end : m.t_end;
  const Measurement measured = measure(request);
  row.outcome = measured.outcome;
  row.counters = measured.counters;
  row.metrics = measured.metrics;
  row.shared_metrics = m.window_end > 0.0 ? measured.window_metrics : measured.metrics;
  row.violable = measured.violable;
  row.runtime_s = measured.runtime_s;
  row.timing_passes = measured.timing_passes;
  row.runtime_spread = measured.runtime_spread;
  row.runtime_code = info.interpreter.empty() ? "compiled" : info.interpreter;
  row.host = measured.host;
  judge_growth_laws(row, key);
  return row;
}

}  // namespace

SummaryRow run_case(const RunRequest& request) {
  const RunKey& key = request.key;
  // A plugin's run in a worker process of its own (app/running/isolation.hpp): its fault is its row.
  if (!isolates(runs_plugin_code(key))) return run_case_here(request);
  const std::string bytes = run_maybe_isolated(runs_plugin_code(key), "run '" + key.c->name + " | " + key.label() + "'", [&] {
    ResultWriter w;
    write(w, run_case_here(request));
    return w.bytes();
  });
  SummaryRow row;
  ResultReader r(bytes);
  read(r, row);
  r.expect_end();
  return row;
}

SummaryRow run_case(const RunKey& key, const RunOptions& options) { return run_case(full_run_request(key, options)); }

SummaryRow run_case(const Case& c, const IntegratorInfo& info, const RunOptions& options) {
  return run_case(RunKey{&c, &info, c.model->default_discretisation()}, options);
}

}  // namespace tb
