#pragma once
// summary.md: per case, a headline table (integrator, status with its onset, t_end, runtime, the
// registry's headline metrics and the energy error's growth law) and a detail table (step and
// tolerances, the registry's detail metrics, the other growth laws with their exponents, the
// shared window, the work counters). Said once, never per row: what "n/a (...)" and "—" mean
// (file top), which columns are n/a for every run of a case and why (below its table), what each
// growth code means (file end). Only the runs a case runs are rows; prose per run (the status's
// reason, the growth verdicts) stays in summary.csv.

#include <string>
#include <vector>

#include "app/running/runner.hpp"

namespace tb {

// One section per case, cases and rows in the order given (integrator order).
void write_summary_markdown(const std::string& path, const std::vector<SummaryRow>& rows);
// The same text (what write_summary_markdown writes).
std::string summary_markdown(const std::vector<SummaryRow>& rows);

}  // namespace tb
