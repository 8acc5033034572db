// The stability map's records as the report's front page reads them (StudyInfo::read_back): each
// run's step limit at the case's own parameters, from stability_map.csv as the study wrote it.

#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "app/judging/report_data.hpp"
#include "studies/stability_map/stability_map.hpp"

namespace tb {

void read_stability_map_back(const std::string& dir, ReportData& data) {
  const CsvTable t =
      report_table(dir, "stability_map.csv", {"case", "run", "swept", "h_case", "h_max", "bound", "limit", "t_horizon"});
  // (horizon_dependent: optional, absent from a report of an older version)
  std::map<std::pair<std::string, std::string>, double> horizon;
  // The two horizon searches of a horizon-dependent method: (T, h_max) at T and at T/8.
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::pair<double, double>>> horizons;
  for (const auto& row : t.rows) {
    if (!row.at("swept").empty()) continue;  // a sweep of a model parameter, not the case itself
    const auto h_max = cell_number(row.at("h_max"));
    if (!h_max) continue;
    // A method whose h_max depends on the horizon is mapped at several: the longest is the
    // one closest to the case's run.
    const std::pair<std::string, std::string> key{row.at("case"), row.at("run")};
    const double t = cell_number_or_zero(row.at("t_horizon"));
    if (const auto it = row.find("search"); it != row.end() && (it->second == "horizon T" || it->second == "horizon T/8"))
      horizons[key][it->second] = {t, *h_max};
    if (horizon.count(key) && horizon[key] >= t) continue;
    horizon[key] = t;
    StepLimit& limit = data.step_limits[key] = {cell_number_or_zero(row.at("h_case")), *h_max, t, row.at("bound"), row.at("limit")};
    if (const auto it = row.find("horizon_dependent"); it != row.end()) limit.horizon_dependent = it->second == "yes";
    if (const auto it = row.find("solver_at_stability_limit"); it != row.end()) limit.solver_at_stability_limit = it->second == "yes";
  }
  for (const auto& [key, rows] : horizons) {
    const auto limit = data.step_limits.find(key);
    if (limit == data.step_limits.end() || rows.size() != 2) continue;
    const auto [t_long, h_long] = rows.at("horizon T");
    const auto [t_short, h_short] = rows.at("horizon T/8");
    if (t_long > t_short && h_long > 0.0 && h_short > 0.0)
      limit->second.horizon_exponent = std::log(h_long / h_short) / std::log(t_long / t_short);
  }
}

}  // namespace tb
