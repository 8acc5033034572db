#pragma once
// The one measurement path: every run of the suite (run, table, report, studies, gates)
// goes through measure(), which builds the formulation and the stepper, steps to t_end,
// hands samples on the observation grid to the metrics (and a time series file), times the
// step loops, and returns a typed outcome: ok, failed (reason, time, step; "diverged at h"
// when the state diverged), unstable (completed, but beyond the instability criterion of
// core/stability_criterion.hpp) or not applicable (reason). Anything a model or an integrator
// throws inside a run makes that run a failed run; the caller's other runs go on.

#include <optional>
#include <string>
#include <vector>

#include "app/input/applicability.hpp"  // runs_of(): the keys measure() takes
#include "app/running/integrate.hpp"
#include "app/input/run_records.hpp"
#include "app/running/run_request.hpp"

namespace tb {

// The one measurement path (above): the request's formulation and stepper built, stepped with
// its settings to its horizon and observed as it says (app/running/run_request.hpp).
Measurement measure(const RunRequest& request);

// This machine's name (gethostname), as the runtime rows record it.
const std::string& host_name();

// The growth laws of a measured row (core/growth.hpp), judged with what only the run knows: its
// Brouwer floors (the gates', which need its steps), its model's slowest period, and what theory
// predicts for its integrator on a model that does or does not do external work. run_case does
// it; a study that measures rows of its own calls it.
void judge_growth_laws(SummaryRow& row, const RunKey& key);
// A full run of a case as the tables show it: its row, with the step, tolerances and horizon of
// the request it ran.
SummaryRow run_case(const RunRequest& request);
// The same from its key and options: run_case(full_run_request(key, options)).
SummaryRow run_case(const RunKey& key, const RunOptions& options);
// The default discretisation.
SummaryRow run_case(const Case& c, const IntegratorInfo& info, const RunOptions& options);

}  // namespace tb
