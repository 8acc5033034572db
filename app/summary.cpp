#include "app/summary.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"
#include "core/stability_criterion.hpp"
#include "core/table_reader.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tb {

namespace {

std::string number(double x) { return format_g(x, 6); }

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::ofstream open_for_writing(const std::string& path, std::ios::openmode mode) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::ofstream out(path, mode);
  if (!out) throw std::runtime_error("cannot write " + path);
  return out;
}

void write_csv_line(std::ofstream& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
  out << '\n';
}

}  // namespace

namespace {

// The summary's columns, described once: each column's name beside the cell it holds, so the
// header and the rows cannot drift apart. `cell(name, value)` is called once per column, in order.
template <class Cell>
void summary_cells(const SummaryRow& r, Cell&& cell) {
  // Metrics and runtime are results of an ok run only: a failed, interrupted or unstable run
  // (past the instability criterion, core/stability_criterion.hpp) shows its status, the steps
  // and evaluations it took, and empty metric cells.
  const bool measured = !r.outcome.not_applicable();
  auto result = [&](double x) { return r.outcome.ok() ? number(x) : std::string(measured ? "" : "n/a"); };
  auto count = [&](long n) { return measured ? std::to_string(n) : std::string("n/a"); };
  // A metric the run's formulation cannot violate (a constraint where it integrates none, an
  // orthogonality where no rotation is integrated, a momentum without a momentum map) is no
  // result of any run, ok or not: kNotIntegrated, never a 0 that would read as a perfect score.
  auto integrated = [&](const std::string& metric) { return !measured || r.violable.covers(metric); };
  auto metric_cell = [&](const std::string& column, const std::string& metric, double x) {
    cell(column, integrated(metric) ? result(x) : std::string(kNotIntegrated));
  };
  auto metric = [&](const std::string& name, double x) { metric_cell(name, name, x); };
  const auto& m = r.metrics;
  const auto& shared = r.shared_metrics;
  // The growth law (core/growth.hpp), its exponent and 95% interval (of the span after a regime
  // change), the law theory predicts, and the words the report prints (describe_growth): the
  // law, why there is none, or "investigate: ..." where the law contradicts the prediction. No
  // exponent where the law needs none (round_off, zero) or has none (too_short).
  auto growth = [&](const std::string& quantity, const GrowthFit& g) {
    if (!integrated(quantity + "_err_max")) {
      for (const char* part : {"law", "exponent", "ci95_low", "ci95_high", "theory", "verdict"})
        cell(quantity + "_growth_" + part, kNotIntegrated);
      return;
    }
    const bool ok = r.outcome.ok();
    const bool fitted = std::isfinite(g.exponent) && g.law != GrowthLaw::RoundOff && g.law != GrowthLaw::Zero &&
                        g.law != GrowthLaw::TooShort;
    auto fit = [&](double x) { return !ok ? result(0.0) : fitted ? format_g(x, 3) : std::string(); };
    cell(quantity + "_growth_law", ok ? to_string(g.law) : result(0.0));
    cell(quantity + "_growth_exponent", fit(g.exponent));
    cell(quantity + "_growth_ci95_low", fit(g.ci95_low));
    cell(quantity + "_growth_ci95_high", fit(g.ci95_high));
    cell(quantity + "_growth_theory", ok ? to_string(g.prediction.law) : result(0.0));
    cell(quantity + "_growth_verdict", ok ? describe_growth(g) : result(0.0));
  };
  cell("case", r.case_name);
  cell("integrator", r.integrator);
  cell("discretisation", r.discretisation);
  cell("h", number(r.h));
  cell("rtol", r.rtol > 0 ? number(r.rtol) : "");
  cell("atol", r.atol > 0 ? number(r.atol) : "");
  cell("t_end", number(r.t_end));
  cell("steps", count(r.counters.steps));
  metric("energy_err_max", m.energy_err_max);
  metric("energy_err_mean", m.energy_err_mean);
  metric("energy_err_rel_ke", m.energy_err_rel_ke);
  metric_cell("energy_gain_rel_ke", "energy_err_max", energy_gain_rel(m));  // the signed gain the instability criterion judges
  metric("energy_drift_rate", m.energy_drift_rate);
  metric("momentum_err_max", m.momentum_err_max);
  metric("momentum_err_mean", m.momentum_err_mean);
  metric("constraint_err_max", m.constraint_err_max);
  metric("constraint_rate_err_max", m.constraint_rate_err_max);
  metric("linear_momentum_err_max", m.linear_momentum_err_max);
  metric("orthogonality_err_max", m.orthogonality_err_max);
  metric("orthogonality_err_mean", m.orthogonality_err_mean);
  cell("shared_t_end", number(r.shared_t_end));
  metric("energy_err_max_shared", shared.energy_err_max);
  metric("momentum_err_max_shared", shared.momentum_err_max);
  metric("linear_momentum_err_max_shared", shared.linear_momentum_err_max);
  metric("constraint_err_max_shared", shared.constraint_err_max);
  growth("energy", m.energy_growth);
  growth("momentum", m.momentum_growth);
  cell("runtime_s", result(r.runtime_s));
  cell("rhs_evals", count(r.counters.rhs_evals));
  cell("newton_iters", count(r.counters.newton_iters));
  cell("error_test_failures", count(r.counters.error_test_failures));
  cell("status", r.status());
  cell("host", r.outcome.ok() ? r.host : std::string());  // where runtime_s was measured
  // Last (summary.md leaves it out: its cells say kNotIntegrated): the metrics this run's
  // formulation cannot violate, by name, what an empty metric cell of summary.csv means.
  cell("not_integrated", measured ? r.violable.not_integrated() : std::string());
}

}  // namespace

const std::vector<std::string>& summary_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> names;
    summary_cells(SummaryRow{}, [&](const std::string& name, const std::string&) { names.push_back(name); });
    return names;
  }();
  return columns;
}

std::vector<std::string> summary_values(const SummaryRow& r) {
  std::vector<std::string> values;
  summary_cells(r, [&](const std::string&, std::string value) { values.push_back(std::move(value)); });
  return values;
}

namespace {
// The CSV's cells: a metric that was not integrated is empty (a reader's number() gives NaN, and
// the row's not_integrated column says why), never the words the Markdown table prints.
std::vector<std::string> csv_values(const SummaryRow& r) {
  std::vector<std::string> values = summary_values(r);
  for (auto& v : values)
    if (v == kNotIntegrated) v.clear();
  return values;
}
}  // namespace

void check_summary_appendable(const std::string& path) {
  if (!std::filesystem::exists(path) || std::filesystem::file_size(path) == 0) return;
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  std::string expected;
  for (const auto& c : summary_columns()) expected += (expected.empty() ? "" : ",") + c;
  if (header != expected)
    throw InputError(path + ": an existing file whose header is not this version's summary columns (expected '" +
                     expected.substr(0, 40) + "...', got '" + header.substr(0, 40) +
                     "...'); rows are never appended to a foreign file: choose another --out or move it away");
}

void append_summary_csv(const std::string& path, const SummaryRow& row) {
  check_summary_appendable(path);
  const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
  auto out = open_for_writing(path, std::ios::app);
  if (fresh) write_csv_line(out, summary_columns());
  write_csv_line(out, csv_values(row));
}

void write_summary_csv(const std::string& path, const std::vector<SummaryRow>& rows) {
  auto out = open_for_writing(path, std::ios::trunc);
  write_csv_line(out, summary_columns());
  for (const auto& r : rows) write_csv_line(out, csv_values(r));
}

void write_summary_markdown(const std::string& path, const std::vector<SummaryRow>& rows) {
  auto out = open_for_writing(path, std::ios::trunc);
  out << "# tetherbench summary\n\nColumns as defined in SPEC \"Metrics\"; runtime is integration only. \""
      << kNotIntegrated
      << "\": the run's formulation cannot violate that metric (no constraint among its coordinates, no rotation "
         "matrix, no momentum map), so it has no value to show.\n";
  // Every column but the last, not_integrated, which the cells themselves state here.
  const size_t shown = summary_columns().size() - 1;
  const auto& columns = summary_columns();
  // Rows over a shorter horizon than the case's others ([case] integrator_t_end) are named
  // under the table, so nobody compares their metrics with the others' as like with like.
  auto note_short_horizons = [&](const std::string& case_name) {
    double longest = 0.0;
    for (const auto& r : rows)
      if (r.case_name == case_name) longest = std::max(longest, r.t_end);
    std::string shorter;
    for (const auto& r : rows)
      if (r.case_name == case_name && r.t_end < longest)
        shorter += (shorter.empty() ? "" : ", ") + r.integrator + " over " + number(r.t_end) + " s";
    if (!shorter.empty())
      out << "\nShorter horizon than the other rows (" << number(longest) << " s): " << shorter
          << " ([case] integrator_t_end of the case file: their cost over the whole horizon is out of proportion to the "
             "main job; `tetherbench run CASE --integrator NAME --t-end T` runs it in full). Their metrics are over "
             "their own horizon.\n";
  };
  std::string current_case;
  for (const auto& r : rows) {
    if (r.case_name != current_case) {
      if (!current_case.empty()) note_short_horizons(current_case);
      current_case = r.case_name;
      out << "\n## " << current_case << "\n\n|";
      for (size_t i = 1; i < shown; ++i) out << ' ' << columns[i] << " |";
      out << "\n|";
      for (size_t i = 1; i < shown; ++i) out << (i < shown - 1 ? "---:|" : "---|");
      out << '\n';
    }
    const auto values = summary_values(r);
    out << '|';
    for (size_t i = 1; i < shown; ++i) out << ' ' << values[i] << " |";
    out << '\n';
  }
  if (!current_case.empty()) note_short_horizons(current_case);
}

}  // namespace tb
