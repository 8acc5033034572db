#pragma once
// The one measurement path: every run of the suite (run, table, report, studies, gates)
// goes through measure(), which builds the formulation and the stepper, steps to t_end,
// hands samples on the observation grid to the metrics (and a time series file), times the
// step loops, and returns a typed outcome: ok, failed (reason, time, step; "unstable at h"
// when the state diverged), unstable (completed, but beyond the instability criterion of
// core/stability_criterion.hpp) or not applicable (reason). Anything a model or an integrator
// throws inside a run makes that run a failed run; the caller's other runs go on.

#include <optional>
#include <string>
#include <vector>

#include "app/input/applicability.hpp"  // runs_of(): the keys measure() takes
#include "app/running/integrate.hpp"
#include "app/input/run_records.hpp"

namespace tb {

// The one measurement path (above): the formulation and stepper built, stepped and observed.
Measurement measure(const RunKey& key, const IntegratorSettings& settings, const MeasureOptions& options);

// Where a full run writes its time series: OUT/<case>/<label>/timeseries.csv.
std::string timeseries_path(const std::string& out_dir, const std::string& case_name, const std::string& label);

// This machine's name (gethostname), as the runtime rows record it.
const std::string& host_name();

// The growth laws of a measured row (core/growth.hpp), judged with what only the run knows: its
// Brouwer floors (the gates', which need its steps), its model's slowest period, and what theory
// predicts for its integrator on a model that does or does not do external work. run_case does
// it; a study that measures rows of its own calls it.
void judge_growth_laws(SummaryRow& row, const RunKey& key);
// A full run of a case as the tables show it: the case's settings for the integrator,
// measured on the case's observation grid.
SummaryRow run_case(const RunKey& key, const RunOptions& options);
// The default discretisation.
SummaryRow run_case(const Case& c, const IntegratorInfo& info, const RunOptions& options);

}  // namespace tb
