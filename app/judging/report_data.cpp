#include "app/judging/report_data.hpp"
#include "app/common/run_label_parts.hpp"

#include "app/judging/gates.hpp"         // failure_kind_of_status
#include "app/judging/metric_cells.hpp"  // failure_words

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "app/common/csv_table.hpp"
#include "app/input/catalogue.hpp"
#include "core/metric_registry.hpp"
#include "core/table_reader.hpp"

namespace fs = std::filesystem;

namespace tb {

namespace {

std::set<std::string> words(const std::string& text) {
  std::set<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find(' ', at);
    const std::string w = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (!w.empty()) out.insert(w);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

// The metric columns of summary.csv the page reads: every metric of the registry that has a
// column (core/metric_registry.hpp), and the run's counts.
const std::vector<std::string>& metric_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> names;
    for (const auto& m : metric_registry())
      if (m.role != TableRole::None) names.emplace_back(m.name);
    names.insert(names.end(), {"steps", "rhs_evals"});
    return names;
  }();
  return columns;
}

void read_runs(ReportData& data) {
  for (auto& [run, row] : read_run_rows(data.dir, "summary.csv")) data.runs.push_back(std::move(run));
}

void read_figures(ReportData& data) {
  const CsvTable t = report_table(data.dir, "figures.csv", {"file", "case", "section", "caption"});
  for (const auto& row : t.rows)
    if (fs::exists(fs::path(data.dir) / row.at("file")))
      data.figures.push_back({row.at("file"), row.at("case"), row.at("section"), row.at("caption")});
  const CsvTable omitted = report_table(data.dir, "figures_omitted.csv", {"case", "section", "reason"});
  for (const auto& row : omitted.rows) data.omitted_figures.push_back({row.at("case"), row.at("section"), row.at("reason")});
}

void read_build(ReportData& data) {
  const CsvTable t = report_table(data.dir, "build_info.csv", {"key", "value"});
  for (const auto& row : t.rows) data.build.emplace_back(row.at("key"), row.at("value"));
}

}  // namespace

CsvTable report_table(const std::string& dir, const std::string& name, const std::vector<std::string>& columns) {
  CsvTable t = read_csv_table((fs::path(dir) / name).string());
  if (t.columns.empty()) return t;
  for (const auto& c : columns)
    if (!t.has(c)) throw InputError(t.path + ": no column '" + c + "' (expected a table written by this tetherbench)");
  return t;
}

std::optional<double> cell_number(const std::string& cell) {
  if (cell.empty()) return std::nullopt;
  char* end = nullptr;
  const double x = std::strtod(cell.c_str(), &end);
  if (*end != '\0' || !std::isfinite(x)) return std::nullopt;
  return x;
}

double cell_number_or_zero(const std::string& cell) { return cell_number(cell).value_or(0.0); }

std::vector<std::pair<RunRecord, std::map<std::string, std::string>>> read_run_rows(const std::string& dir,
                                                                                   const std::string& file) {
  std::vector<std::pair<RunRecord, std::map<std::string, std::string>>> out;
  // The columns the page cannot do without; a metric column a report of an older version lacks
  // reads as no result.
  const CsvTable t = report_table(dir, file,
                           {"case", "integrator", "discretisation", "h", "rtol", "t_end", "status", "runtime_s",
                            "not_integrated", "energy_growth_law", "momentum_growth_law", "energy_growth_theory",
                            "momentum_growth_theory", "energy_err_max"});
  for (const auto& row : t.rows) {
    RunRecord r;
    r.case_name = row.at("case");
    r.label = row.at("integrator");
    r.integrator = integrator_of_label(r.label);
    r.discretisation = row.at("discretisation");
    r.h = cell_number_or_zero(row.at("h"));
    r.rtol = cell_number_or_zero(row.at("rtol"));
    // Columns a report of an older version lacks read as absent.
    auto optional_column = [&](const char* column) -> std::optional<double> {
      const auto it = row.find(column);
      return it == row.end() ? std::nullopt : cell_number(it->second);
    };
    r.atol = optional_column("atol").value_or(0.0);
    r.max_step = optional_column("max_step");
    r.energy_first = optional_column("energy_first");
    r.energy_last = optional_column("energy_last");
    r.external_work_last = optional_column("external_work_last");
    r.t_end = cell_number_or_zero(row.at("t_end"));
    r.status = row.at("status");
    if (const auto it = row.find("state"); it != row.end()) r.state = it->second;
    r.ok = r.status == "ok" || r.status.rfind("ok;", 0) == 0;
    r.completed = r.ok || r.status.rfind("unstable from", 0) == 0 || r.status.rfind("energy jump at", 0) == 0;
    r.not_applicable = r.status.rfind("n/a", 0) == 0;
    r.runtime_s = cell_number_or_zero(row.at("runtime_s"));
    if (const auto it = row.find("runtime_passes"); it != row.end()) r.timing_passes = int(cell_number_or_zero(it->second));
    for (const auto& c : metric_columns())
      if (const auto it = row.find(c); it != row.end())
        if (const auto x = cell_number(it->second)) r.metric[c] = *x;
    r.not_integrated = words(row.at("not_integrated"));
    r.energy_law = row.at("energy_growth_law");
    r.momentum_law = row.at("momentum_growth_law");
    r.energy_theory = row.at("energy_growth_theory");
    for (const auto& [column, flag] : {std::pair{"energy_growth_verdict", &r.energy_investigate},
                                       std::pair{"momentum_growth_verdict", &r.momentum_investigate}})
      if (const auto it = row.find(column); it != row.end()) *flag = it->second.find("investigate") != std::string::npos;
    r.momentum_theory = row.at("momentum_growth_theory");
    out.emplace_back(std::move(r), std::map<std::string, std::string>(row.begin(), row.end()));
  }
  return out;
}

std::optional<double> RunRecord::value(const std::string& column) const {
  const auto it = metric.find(column);
  if (it == metric.end()) return std::nullopt;
  return it->second;
}

std::string RunRecord::short_status() const {
  if (status.rfind("unstable from", 0) == 0 || status.rfind("energy jump at", 0) == 0) {
    const size_t cut = status.find(" (step");
    return cut == std::string::npos ? status : status.substr(0, cut);
  }
  if (status.rfind("ok; ", 0) == 0) {
    // The parts of an ok status (RunOutcome::describe), each in a few words: the drift in P with the
    // distance the centre of mass moved, the energy drift's onset, the rise that slowed.
    // A drift in P leads with the whole energy error it carries (N2): "ok" judges only the motion's
    // own part, which follows.
    std::string out = "ok";
    if (const size_t at = status.find("drifts in P: "); at != std::string::npos) {
      const auto after = [&](const std::string& key, char end) {
        const size_t k = status.find(key, at);
        return k == std::string::npos ? std::string() : status.substr(k + key.size(), status.find(end, k + key.size()) - k - key.size());
      };
      const std::string whole = after("drifts in P: max |ΔE| ", ';'), com = after("|ΔP|²/2M ", ' ');
      const std::string moved = after("centre of mass moved ", ';');
      out = "drifts in P (";
      if (!whole.empty()) out += "max ΔE " + whole + (com.empty() ? std::string() : ", the centre of mass's " + com + " J") + "; ";
      out += "centre of mass moved " + moved + ")";
      // "ok" judged the motion's own energy: said where nothing else of it is noted.
      if (status.find("drift from t = ") == std::string::npos) out += ", the motion's own energy ok";
    }
    for (const char* off : {"drifts off the constraint manifold from t = ", "drifts off SO(3) from t = "})
      if (const size_t at = status.find(off); at != std::string::npos) {
        const std::string what = std::string(off).substr(0, std::string(off).find(" from t = "));
        const size_t t0 = at + std::string(off).size();
        out += ", " + (what == "drifts off SO(3)" ? what : std::string("drifts off the constraint")) + " from t = " +
               status.substr(t0, status.find(" s", t0) - t0) + " s";
      }
    if (const size_t at = status.find("drift from t = "); at != std::string::npos) {
      // The drift by its sign (EnergyDrift::describe: "..., a loss: the method dissipates)").
      const size_t from = at + std::string("drift from ").size();
      const char* words = status.find(", a loss: ", at) != std::string::npos                     ? ", dissipates from "
                          : status.find(", a gain: the amplification", at) != std::string::npos ? ", gains energy by its amplification from "
                          : status.find(", a gain: ", at) != std::string::npos                   ? ", gains energy from "
                                                                               : ", drift from ";  // an older report's
      out += words + status.substr(from, status.find(" (step", from) - from);
    }
    if (const size_t at = status.find("a rise that slowed: "); at != std::string::npos) {
      const std::string from = "within an octave of t from t = ";
      const size_t f = status.find(from, at);
      out += ", a rise that slowed" +
             (f == std::string::npos ? std::string() : " (from t = " + status.substr(f + from.size(), status.find(" s", f + from.size()) - f - from.size()) + " s)");
    }
    return out;
  }
  const bool diverged = status.rfind("diverged at h", 0) == 0 || status.rfind("unstable at h", 0) == 0;  // (older reports)
  if (diverged || status.rfind("failed", 0) == 0 || status.rfind("interrupted", 0) == 0) {
    // "... at t = T s, step N": the time, without the reason (the CSVs keep it)
    const size_t at = status.rfind(" at t = ");
    // A failed run in the tables' words: "failed", "crashed", "hung", "threw", "broke the integrator contract".
    const std::string what = diverged ? "diverged"
                             : status.rfind("failed", 0) == 0 ? failure_words(failure_kind_of_status(status))
                                                              : "interrupted";
    if (at == std::string::npos) return what;
    const size_t comma = status.find(',', at);
    return what + status.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
  }
  if (ok) return "ok";
  return status;
}

std::vector<const RunRecord*> ReportData::runs_of(const std::string& case_name) const {
  std::vector<const RunRecord*> out;
  for (const auto& r : runs)
    if (r.case_name == case_name) out.push_back(&r);
  return out;
}

std::string StepLimit::margin_words(double h, double t_end) const {
  if (!margin_is_lower_bound(t_end)) return "h/h_max = " + format_g(margin(h), 2);
  return "h/h_max >= " + format_g(margin(h), 2) + " (h_max over the map's " + format_g(t_horizon, 3) +
         " s; it falls with the horizon for this method, so over the run's " + format_g(t_end, 4) +
         " s h/h_max is larger and the run nearer its limit)";
}

const CascadeRecord* ReportData::cascade(const std::string& case_name, const std::string& label, double h, double rtol) const {
  // The snap study's settings are the case's table's, written to 8 digits: matched to 1e-6 relative.
  const double setting = rtol > 0.0 ? rtol : h;
  for (const auto& [key, record] : cascades)
    if (std::get<0>(key) == case_name && std::get<1>(key) == label && std::abs(std::get<2>(key) - setting) <= 1e-6 * setting)
      return &record;
  return nullptr;
}

const StepLimit* ReportData::step_limit(const std::string& case_name, const std::string& label) const {
  const auto it = step_limits.find({case_name, label});
  return it == step_limits.end() ? nullptr : &it->second;
}

const LawRecord* ReportData::law(const std::string& case_name, const std::string& label, const std::string& quantity) const {
  const auto it = laws.find({case_name, label, quantity});
  return it == laws.end() ? nullptr : &it->second;
}

void read_study_records(const std::string& dir, const Catalogue& catalogue, ReportData& data) {
  data.dir = dir;
  for (const StudyInfo& study : catalogue.studies)
    if (study.read_back) study.read_back(dir, data);
}

ReportData read_report_data(const std::string& dir, const Catalogue& catalogue) {
  ReportData data;
  data.dir = dir;
  read_runs(data);
  read_study_records(dir, catalogue, data);
  read_figures(data);
  read_build(data);
  return data;
}

}  // namespace tb
