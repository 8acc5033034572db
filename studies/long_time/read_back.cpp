// The long-time study's records as the report's front page reads them (StudyInfo::read_back): the
// growth law of each run's energy and momentum errors over the longest horizon measured, from
// long_time.csv as the study wrote it.

#include <string>

#include "app/judging/report_data.hpp"
#include "studies/long_time/long_time.hpp"

namespace tb {

void read_long_time_back(const std::string& dir, ReportData& data) {
  const CsvTable t = report_table(dir, "long_time.csv", {"case", "integrator", "quantity", "law", "t_end", "err_max", "source", "status",
                                                         "jump_from", "jump_to", "jump_ratio", "after_law", "theory"});
  for (const auto& row : t.rows) {
    // ok, with what it saw beside it ("ok; drifts in P: ..."): a completed run whose law stands.
    if (row.at("status").rfind("ok", 0) != 0) continue;
    LawRecord law{row.at("law"),
                  row.at("source"),
                  cell_number_or_zero(row.at("t_end")),
                  cell_number_or_zero(row.at("err_max")),
                  cell_number_or_zero(row.at("jump_from")),
                  cell_number_or_zero(row.at("jump_to")),
                  cell_number_or_zero(row.at("jump_ratio")),
                  row.at("after_law"),
                  row.at("theory")};
    if (const auto it = row.find("accelerating"); it != row.end()) law.accelerating = it->second == "yes";
    if (const auto it = row.find("at_2h_ratio"); it != row.end()) law.at_2h_ratio = cell_number_or_zero(it->second);
    if (const auto it = row.find("words"); it != row.end()) law.offset_drift = it->second.find("after an offset") != std::string::npos;
    auto& slot = data.laws[{row.at("case"), row.at("integrator"), row.at("quantity")}];
    if (law.t_end >= slot.t_end) slot = law;  // the longest horizon measured decides the law
  }
}

}  // namespace tb
