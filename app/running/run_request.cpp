#include "app/running/run_request.hpp"

#include <algorithm>
#include <filesystem>

#include "core/format.hpp"

namespace tb {

std::string timeseries_path(const std::string& out_dir, const std::string& case_name, const std::string& label) {
  return (std::filesystem::path(out_dir) / case_name / label / "timeseries.csv").string();
}

RunRequest full_run_request(const RunKey& key, const RunOptions& options) {
  const Case& c = *key.c;
  const IntegratorInfo& info = *key.integrator;
  RunRequest request{key, c.settings_for(info.name), {}};
  if (options.h) request.settings.h = *options.h;
  MeasureOptions& m = request.measure;
  m.t_end = options.t_end.value_or(c.t_end_for(info.name));
  // The shared window: the shortest horizon among the case's full runs, when this run keeps the
  // case's horizons (a --t-end gives every run the same one).
  double shared_t_end = m.t_end;
  if (!options.t_end)
    for (const auto& [name, t] : c.integrator_t_end) shared_t_end = std::min(shared_t_end, t);
  m.window_end = shared_t_end < m.t_end ? shared_t_end : 0.0;
  m.sample_interval = c.sample_interval;
  m.repeats = options.repeats;
  m.min_timed_s = options.min_timed_s;
  m.progress = options.progress;
  if (!options.out_dir.empty()) m.timeseries_path = timeseries_path(options.out_dir, c.name, key.label());
  return request;
}

RunRequestRecord record_of(const RunRequest& request) {
  const RunKey& key = request.key;
  const MeasureOptions& m = request.measure;
  return {key.c->name,   key.label(), key.discretisation, integrator_inputs(*key.c, key.integrator->name, request.settings),
          m.t_end,       m.sample_interval, m.window_end, m.repeats, m.min_timed_s, m.observe, m.timeseries_path};
}

namespace run_request_detail {
// The fingerprinted text of a request: the case's identity beside the request's record.
struct RequestInputs {
  CaseIdentity identity;
  RunRequestRecord run;
};
template <class V>
void describe(V& v, RequestInputs& x) {
  v("case", x.identity);
  v("request", x.run);
}
}  // namespace run_request_detail

std::string request_inputs(const RunRequest& request, std::vector<JobParameter> own) {
  run_request_detail::RequestInputs inputs{identity_of(*request.key.c), record_of(request)};
  inputs.run.timeseries.clear();
  return job_inputs(record_text(inputs), std::move(own));
}

std::string request_words(const RunRequest& request) {
  const IntegratorSettings& s = request.settings;
  std::string words = "h = " + format_g(s.h, 6) + " s";
  if (request.key.integrator->adaptive && s.declares_tolerances()) {
    const ErrorTolerances tolerances = s.tolerances();
    words += " (first step), rtol = " + format_g(tolerances.rtol, 6) + ", atol = " + format_g(tolerances.atol, 6);
    if (s.declares(kMaxStepKey) && s.max_step() > 0.0) words += ", max_step = " + format_g(s.max_step(), 6) + " s";
  }
  return words + ", t_end = " + format_g(request.measure.t_end, 6) + " s";
}

}  // namespace tb
