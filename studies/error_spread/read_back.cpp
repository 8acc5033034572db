// The error spread's records as the report's front page reads them (StudyInfo::read_back): each
// full run made again with one [model] key moved by round-off, from error_spread.csv (summary.csv's
// columns plus the key, its value and the case's).

#include <string>

#include "app/judging/report_data.hpp"
#include "studies/error_spread/error_spread.hpp"

namespace tb {

void read_error_spread_back(const std::string& dir, ReportData& data) {
  for (auto& [run, row] : read_run_rows(dir, "error_spread.csv")) {
    const auto value = cell_number(row["value"]), case_value = cell_number(row["case_value"]);
    if (!value || !case_value) continue;
    data.spread_runs.push_back({std::move(run), row["parameter"], *value, *case_value});
  }
}

}  // namespace tb
