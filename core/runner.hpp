#pragma once
// Runs one integrator on one formulation: steps to t_end, hands samples on the observation
// grid to an observer, and times the integration alone (observation and I/O excluded).
// run_case() adds what the command line needs: the time series on disk and the summary row.

#include <functional>
#include <optional>
#include <string>

#include "core/case.hpp"
#include "core/metrics.hpp"

namespace tb {

using SampleObserver = std::function<void(double t, const Eigen::VectorXd& y)>;
using ProgressReporter = std::function<void(double t)>;

struct IntegrationOutcome {
  bool ok = true;
  std::string failure;  // "<reason> at t = ... s, step ..." when !ok
  double t_final = 0.0;  // last time reached (t_end when ok)
  StepCounters counters;
  double runtime_s = 0.0;  // wall time inside step() calls only
  Eigen::VectorXd final_state;
};

// Samples: t0, every sample_interval (dense output for adaptive methods; the first step end at
// or after each grid time for fixed-step methods), and t_end. observer and progress may be empty.
IntegrationOutcome integrate(const Formulation& form, const IntegratorInfo& info, const IntegratorSettings& settings,
                             double t_end, double sample_interval, const SampleObserver& observer,
                             const ProgressReporter& progress = {});

struct RunOptions {
  std::string out_dir;           // where <case>/<integrator>/timeseries.csv go; empty: no files
  std::optional<double> h;       // overrides the case's step
  std::optional<double> t_end;   // overrides the case's end time
  int repeats = 1;               // extra timing passes without observation; runtime is the minimum
  bool progress = false;         // show progress on stderr
};

struct SummaryRow {
  std::string case_name, integrator;
  double h = 0.0, rtol = 0.0, atol = 0.0, t_end = 0.0;
  StepCounters counters;
  ConservationMetrics metrics;
  double runtime_s = 0.0;
  std::string status;  // "ok", "failed: ...", or "n/a: ..."
};

SummaryRow run_case(const Case& c, const IntegratorInfo& info, const RunOptions& options);

}  // namespace tb
