// The paper comparison's records as the report's front page reads them (StudyInfo::read_back): each
// claim's row with its verdict, from paper_comparison.csv as the study wrote it.

#include <string>

#include "app/judging/report_data.hpp"
#include "studies/paper_comparison/paper_comparison.hpp"

namespace tb {

void read_paper_comparison_back(const std::string& dir, ReportData& data) {
  const CsvTable t =
      report_table(dir, "paper_comparison.csv", {"id", "source", "case", "integrator", "claim", "metric", "paper", "ours", "verdict"});
  for (const auto& row : t.rows)
    data.paper.push_back({row.at("id"), row.at("source"), row.at("case"), row.at("integrator"), row.at("claim"),
                          row.at("metric"), row.at("paper"), row.at("ours"), row.at("verdict"),
                          row.count("judges") ? row.at("judges") : std::string()});
}

}  // namespace tb
