#include "core/runner.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace tb {

namespace {
using Clock = std::chrono::steady_clock;

std::string format_time_and_step(double t, long step) {
  char buf[96];
  std::snprintf(buf, sizeof buf, " at t = %.6g s, step %ld", t, step);
  return buf;
}
}  // namespace

IntegrationOutcome integrate(const Formulation& form, const IntegratorInfo& info, const IntegratorSettings& settings,
                             double t_end, double sample_interval, const SampleObserver& observer,
                             const ProgressReporter& progress) {
  IntegrationOutcome out;
  const double t0 = 0.0;
  auto stepper = info.make(form, settings, t0);
  long next_sample = 1;  // grid index of the next sample after t0
  if (observer) observer(t0, stepper->state());
  Eigen::VectorXd y_sample;
  double runtime = 0.0;
  const double tiny = 1e-9 * std::min(settings.h, sample_interval);
  while (stepper->time() < t_end) {
    std::string failure;
    const auto start = Clock::now();
    const bool ok = stepper->step(t_end, failure);
    runtime += std::chrono::duration<double>(Clock::now() - start).count();
    if (!ok) {
      out.ok = false;
      out.failure = failure + format_time_and_step(stepper->time(), stepper->counters().steps + 1);
      break;
    }
    const double t = stepper->time();
    if (observer) {
      auto grid = [&](long i) { return double(i) * sample_interval; };
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
  out.t_final = stepper->time();
  out.counters = stepper->counters();
  out.runtime_s = runtime;
  out.final_state = stepper->state();
  return out;
}

namespace {

class TimeSeriesWriter {
 public:
  TimeSeriesWriter(const std::filesystem::path& file, const std::vector<std::string>& extra) : out_(file) {
    if (!out_) throw std::runtime_error("cannot write " + file.string());
    out_ << "t,energy,kinetic,momentum,constraint_err,constraint_rate_err,orthogonality_err";
    for (const auto& name : extra) out_ << ',' << name;
    out_ << '\n';
  }
  void write(double t, const Observation& o) {
    char buf[40];
    auto put = [&](double x) {
      std::snprintf(buf, sizeof buf, "%.17g", x);
      out_ << buf;
    };
    put(t);
    for (double x : {o.energy, o.kinetic, o.momentum, o.constraint_err, o.constraint_rate_err, o.orthogonality_err}) out_ << ',', put(x);
    for (double x : o.extra) out_ << ',', put(x);
    out_ << '\n';
  }

 private:
  std::ofstream out_;  // closed (and so kept) whatever happens to the run
};

class TerminalProgress {
 public:
  TerminalProgress(std::string label, double t_end, bool enabled)
      : label_(std::move(label)), t_end_(t_end), enabled_(enabled && isatty(STDERR_FILENO)) {}
  void operator()(double t) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(250) && t < t_end_) return;
    last_ = now;
    std::fprintf(stderr, "\r  %-48s %5.1f%%  t = %.4g s ", label_.c_str(), 100.0 * t / t_end_, t);
    std::fflush(stderr);
    shown_ = true;
  }
  ~TerminalProgress() {
    if (shown_) std::fprintf(stderr, "\n");
  }

 private:
  std::string label_;
  double t_end_;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point last_{};
};

}  // namespace

SummaryRow run_case(const Case& c, const IntegratorInfo& info, const RunOptions& options) {
  SummaryRow row;
  row.case_name = c.name;
  row.integrator = info.name;
  IntegratorSettings settings = c.settings_for(info.name);
  if (options.h) settings.h = *options.h;
  row.h = settings.h;
  row.rtol = info.adaptive ? settings.rtol : 0.0;
  row.atol = info.adaptive ? settings.atol : 0.0;
  row.t_end = options.t_end.value_or(c.t_end);

  std::string why_not;
  if (!c.runs(info.name)) {
    row.status = "n/a: not among this case's [case] integrators";
    return row;
  }
  auto form = c.model->make_formulation(info.consumes, why_not);
  if (!form) {
    row.status = "n/a: " + why_not;
    return row;
  }

  std::unique_ptr<TimeSeriesWriter> writer;
  if (!options.out_dir.empty()) {
    const auto dir = std::filesystem::path(options.out_dir) / c.name / info.name;
    std::filesystem::create_directories(dir);
    writer = std::make_unique<TimeSeriesWriter>(dir / "timeseries.csv", form->extra_column_names());
  }
  MetricsAccumulator metrics;
  SampleObserver observer = [&](double t, const Eigen::VectorXd& y) {
    const Observation o = form->observe(t, y);
    metrics.add(t, o);
    if (writer) writer->write(t, o);
  };
  TerminalProgress progress(c.name + " | " + info.name, row.t_end, options.progress);
  const IntegrationOutcome outcome =
      integrate(*form, info, settings, row.t_end, c.sample_interval, observer, std::ref(progress));
  row.counters = outcome.counters;
  row.metrics = metrics.result();
  row.runtime_s = outcome.runtime_s;
  row.status = outcome.ok ? "ok" : "failed: " + outcome.failure;
  // Timing passes with observation off (SPEC: runtime is the minimum over repeats).
  for (int r = 1; outcome.ok && r < options.repeats; ++r) {
    const IntegrationOutcome timing = integrate(*form, info, settings, row.t_end, c.sample_interval, {});
    row.runtime_s = std::min(row.runtime_s, timing.runtime_s);
  }
  return row;
}

}  // namespace tb
