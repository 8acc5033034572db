// The work-precision study's records as the report's front page reads them (StudyInfo::read_back):
// its rankings at matched error, from work_precision_rankings.csv as the study wrote it.

#include <algorithm>
#include <string>
#include <vector>

#include "app/judging/report_data.hpp"
#include "studies/work_precision/work_precision.hpp"

namespace tb {

namespace work_precision_read_back {
// The numbers of a space-separated cell, in order (cells that are not numbers are skipped).
void numbers(const std::string& cell, std::vector<double>& out) {
  for (size_t at = 0; at < cell.size();) {
    const size_t end = std::min(cell.find(' ', at), cell.size());
    if (const auto x = cell_number(cell.substr(at, end - at))) out.push_back(*x);
    at = end + 1;
  }
}
}  // namespace work_precision_read_back

void read_work_precision_back(const std::string& dir, ReportData& data) {
  using work_precision_read_back::numbers;
  const CsvTable t = report_table(dir, "work_precision_rankings.csv",
                                  {"case", "discretisation", "work", "measure", "horizon_s", "matched_error", "ranking", "note",
                                   "work_of_each"});
  for (const auto& row : t.rows) {
    RankingRecord r{row.at("case"), row.at("discretisation"), row.at("work"), row.at("measure"), row.at("ranking"),
                    row.at("note"), cell_number_or_zero(row.at("horizon_s")), cell_number_or_zero(row.at("matched_error")),
                    {}, {}, 0.0, {}, {}};
    numbers(row.at("work_of_each"), r.work_of_each);
    // The timing spread over the passes (a report of an older version has none: no spread known).
    if (const auto it = row.find("spread_of_each"); it != row.end()) numbers(it->second, r.spread_of_each);
    if (const auto it = row.find("slowest_period_s"); it != row.end()) r.slowest_period_s = cell_number_or_zero(it->second);
    if (const auto it = row.find("passes_of_each"); it != row.end()) {
      std::vector<double> passes;
      numbers(it->second, passes);
      for (double p : passes) r.passes_of_each.push_back(int(p));
    }
    if (const auto it = row.find("bound_of_each"); it != row.end()) {
      std::vector<double> bounds;
      numbers(it->second, bounds);
      for (double b : bounds) r.bound_of_each.push_back(int(b));
    }
    data.rankings.push_back(std::move(r));
  }
}

}  // namespace tb
