// The snap study's records as the report's front page reads them (StudyInfo::read_back): each compared
// run on a case judged against a converged reference, with how far it followed the reference's cascade
// of snaps (snap_cables.csv, as against_reference.cpp wrote it).

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
    data.cascades[{row.at("case"), row.at("integrator"), setting}] =
        CascadeRecord{int(*expected), int(*made), int(*matched), position.value_or(0.0)};
  }
}

}  // namespace tb
