#pragma once
// What `tetherbench run` does, once, for the command line and for tetherbench.run in the Python
// package (python/): one case, the chosen integrators (every applicable one when none is named),
// the step and end time as given, every input checked before anything runs (InputError with the
// command line's messages, which name its options), then each run through run_case -- the one
// measurement path -- with its row appended to OUT/summary.csv and its time series in
// OUT/<case>/<label>/timeseries.csv.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/input/limits.hpp"
#include "app/input/run_records.hpp"
#include "app/running/run_request.hpp"

namespace tb {

struct CaseRunRequest {
  std::vector<std::string> integrators;  // --integrator (each at most once); empty: all
  // The --set assignments already applied to the case: one for an integrator the run leaves out is
  // refused (it could never act).
  std::vector<std::string> sets;
  // --h and --t-end over the case's step and horizon, --repeats, --out (empty: nothing written) and a
  // progress line on a terminal: applied once, into each run's request (full_run_request).
  RunOptions run;
  RunLimits limits;                      // --max-steps, --max-samples (as the options change the run)
};

class CaseRun {
 public:
  // Checks the request against the case (a case whose --set overrides are already applied).
  CaseRun(Case c, const Catalogue& catalogue, const CaseRunRequest& request);
  CaseRun(const CaseRun&) = delete;  // the run keys point into it
  CaseRun& operator=(const CaseRun&) = delete;

  const Case& the_case() const { return case_; }  // as its file (and --set) says: the overrides live in the requests
  const std::vector<RunKey>& keys() const { return keys_; }
  // Each run as it will run, built once from the key and the request's --h, --t-end, --repeats
  // and --out (app/running/run_request.hpp), in the order of keys(); a run's time series goes to
  // its measure.timeseries_path ("" when nothing is written).
  const std::vector<RunRequest>& requests() const { return requests_; }
  const std::string& summary_file() const { return summary_; }  // "" when nothing is written

  // Every run in order (n/a ones too, as rows); `before_each` is handed its request before it
  // runs, and each row, once measured, is appended to the summary file and handed to `after_each`.
  std::vector<SummaryRow> run(const std::function<void(const SummaryRow&)>& after_each = {},
                              const std::function<void(const RunRequest&)>& before_each = {}) const;

 private:
  Case case_;
  std::vector<IntegratorInfo> integrators_;
  std::vector<RunKey> keys_;
  std::vector<RunRequest> requests_;
  std::string summary_;
};

}  // namespace tb
