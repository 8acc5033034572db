#pragma once
// One run, said once (issue 45 item 3): which run (case, integrator, discretisation), with which
// settings -- the step h among them, whose one home for the run is `settings.h` -- over which
// horizon and how it is observed. A request is built once, by whoever knows the run's overrides
// (full_run_request() for the tables' runs, from `--h`, `--t-end` and `--repeats`; a study for
// each of its points), and measure() (app/running/runner.hpp) takes it as it is: nothing below
// applies an override again, and a row records the h, tolerances and horizon of the request it
// ran, so what is printed is what ran.
//
// What a request says is a described record (RunRequestRecord, app/common/record.hpp), bound to
// Python by its description (tetherbench.run's results' `request`): a field added to it reaches
// Python without a second list.

#include <optional>
#include <string>
#include <vector>

#include "app/input/run_records.hpp"
#include "app/running/job_result.hpp"  // IntegratorInputs: the integrator's h and settings, as fingerprinted

namespace tb {

struct RunRequest {
  RunKey key;
  IntegratorSettings settings;  // the integrator's settings with every override applied; settings.h: the run's step
  MeasureOptions measure;       // the horizon (measure.t_end), the observation grid, timing passes, time-series file

  double h() const { return settings.h; }
  double t_end() const { return measure.t_end; }
};

// The request of a case's full run, as the tables show it: the case's settings for the
// integrator, `options.h` over the case's step and `options.t_end` over the integrator's horizon
// (each applied here, once), the case's observation grid, and the shared window (the shortest
// horizon among the case's runs) when the run keeps its own horizon.
RunRequest full_run_request(const RunKey& key, const RunOptions& options);

// What a request says, field by field: the run's name, the integrator's step and effective
// settings (the fingerprint's IntegratorInputs), the horizon and how the run is observed.
struct RunRequestRecord {
  std::string case_name, run, discretisation;
  IntegratorInputs integrator;  // its h and every setting
  double t_end = 0.0;
  double sample_interval = 0.0;
  double window_end = 0.0;  // 0: no shared window
  int repeats = 1;
  double min_timed_s = 0.0;
  bool observe = true;
  std::string timeseries;  // "" when none is written
};
template <class V>
void describe(V& v, RunRequestRecord& x) {
  v("case", x.case_name);
  v("run", x.run);
  v("discretisation", x.discretisation);
  v("integrator", x.integrator);
  v("t_end", x.t_end);
  v("sample_interval", x.sample_interval);
  v("window_end", x.window_end);
  v("repeats", x.repeats);
  v("min_timed_s", x.min_timed_s);
  v("observe", x.observe);
  v("timeseries", x.timeseries);
}
RunRequestRecord record_of(const RunRequest& request);

// What a job that runs this request computes from (StudyJob::inputs, its stored result's
// fingerprint): the case's identity and the request's record -- the step, every effective
// setting, the horizon, the grid -- taken from the request the job runs, so that a job is
// fingerprinted by what it runs, listed once. `own`: what else the job's result depends on that
// the request does not say (a [model] value of a case variant, whose identity is the file's).
// Where the time series is written is no input of what is computed and is left out.
std::string request_inputs(const RunRequest& request, std::vector<JobParameter> own = {});

// "h = 0.002 s, t_end = 2 s": the step and horizon a request runs, as `tetherbench run` prints
// them before each run's row; an adaptive run adds its tolerances (its h is the first step) and
// its step cap when it has one.
std::string request_words(const RunRequest& request);

// Where a full run writes its time series: OUT/<case>/<label>/timeseries.csv.
std::string timeseries_path(const std::string& out_dir, const std::string& case_name, const std::string& label);

}  // namespace tb
