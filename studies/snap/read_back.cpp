// The snap study's records as the report's front page reads them (StudyInfo::read_back): each compared
// run on a case judged against a converged reference, with how far it followed the reference's cascade
// of snaps (snap_cables.csv, as against_reference.cpp wrote it), and its advice per target
// (snap_advice.csv, as cheapest_runs.cpp wrote it).

#include <string>
#include <tuple>

#include "app/judging/report_data.hpp"
#include "studies/snap/snap.hpp"

namespace tb {

void read_snap_back(const std::string& dir, ReportData& data) {
  const CsvTable t = report_table(dir, "snap_cables.csv",
                                  {"case", "integrator", "role", "h", "rtol", "reference_switches", "switches", "matched", "position_err_end"});
  for (const auto& row : t.rows) {
    if (row.at("role") != "compared") continue;
    const auto expected = cell_number(row.at("reference_switches")), made = cell_number(row.at("switches"));
    const auto matched = cell_number(row.at("matched")), position = cell_number(row.at("position_err_end"));
    if (!expected || !made || !matched) continue;  // a run that failed: no cascade to say
    const auto rtol = cell_number(row.at("rtol"));
    const double setting = rtol ? *rtol : cell_number_or_zero(row.at("h"));
    const auto verdict = row.find("follows_cascade");  // absent from an older report's table
    data.cascades[{row.at("case"), row.at("integrator"), setting}] =
        CascadeRecord{int(*expected), int(*made), int(*matched), position.value_or(0.0),
                      verdict == row.end() || verdict->second.empty() ? -1 : verdict->second == "yes" ? 1 : 0};
  }
  // The advice per target (absent from a report of an older version: no rows).
  const CsvTable advice = report_table(dir, "snap_advice.csv",
                                       {"case", "horizon_s", "target_m", "cheapest", "setting", "runtime_s", "next",
                                        "next_runtime_s", "resolved", "advice"});
  for (const auto& row : advice.rows)
    data.snap_advice[row.at("case")].push_back(SnapAdviceRecord{cell_number_or_zero(row.at("horizon_s")),
                                                                cell_number_or_zero(row.at("target_m")),
                                                                row.at("cheapest"),
                                                                row.at("setting"),
                                                                row.at("next"),
                                                                cell_number_or_zero(row.at("runtime_s")),
                                                                cell_number_or_zero(row.at("next_runtime_s")),
                                                                row.at("resolved") == "yes",
                                                                row.at("advice")});
}

}  // namespace tb
