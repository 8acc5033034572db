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

const std::vector<std::string>& summary_columns() {
  static const std::vector<std::string> columns = {
      "case", "integrator", "discretisation", "h", "rtol", "atol", "t_end", "steps", "energy_err_max", "energy_err_mean",
      "energy_err_rel_ke", "energy_gain_rel_ke", "energy_drift_rate", "momentum_err_max", "momentum_err_mean", "constraint_err_max",
      "constraint_rate_err_max", "linear_momentum_err_max", "orthogonality_err_max", "orthogonality_err_mean",
      "shared_t_end", "energy_err_max_shared", "momentum_err_max_shared", "linear_momentum_err_max_shared",
      "constraint_err_max_shared",
      "energy_growth_law", "energy_growth_exponent", "energy_growth_ci95_low", "energy_growth_ci95_high",
      "energy_growth_theory", "energy_growth_verdict", "momentum_growth_law", "momentum_growth_exponent",
      "momentum_growth_ci95_low", "momentum_growth_ci95_high", "momentum_growth_theory", "momentum_growth_verdict",
      "runtime_s", "rhs_evals", "newton_iters", "error_test_failures", "status", "host"};
  return columns;
}

std::vector<std::string> summary_values(const SummaryRow& r) {
  // Metrics and runtime are results of an ok run only: a failed, interrupted or unstable run
  // (past the instability criterion, core/stability_criterion.hpp) shows its status, the steps
  // and evaluations it took, and empty metric cells.
  const bool measured = !r.outcome.not_applicable();
  auto metric = [&](double x) { return r.outcome.ok() ? number(x) : std::string(measured ? "" : "n/a"); };
  // Orthogonality where the model integrates no rotation: not applicable, not "0".
  auto orthogonality = [&](double x) { return r.rotations || !r.outcome.ok() ? metric(x) : std::string("n/a"); };
  const auto& m = r.metrics;
  const auto& shared = r.shared_metrics;
  // The growth law (core/growth.hpp), its exponent and 95% interval (of the span after a regime
  // change), the law theory predicts, and the words the report prints (describe_growth): the
  // law, why there is none, or "investigate: ..." where the law contradicts the prediction. No
  // exponent where the law needs none (round_off, zero) or has none (too_short).
  struct GrowthCells {
    std::string law, exponent, low, high, theory, verdict;
  };
  auto growth = [&](const GrowthFit& g) -> GrowthCells {
    if (!r.outcome.ok()) return {metric(0.0), metric(0.0), metric(0.0), metric(0.0), metric(0.0), metric(0.0)};
    const bool fitted = std::isfinite(g.exponent) && g.law != GrowthLaw::RoundOff && g.law != GrowthLaw::Zero && g.law != GrowthLaw::TooShort;
    auto cell = [&](double x) { return fitted ? format_g(x, 3) : std::string(); };
    return {to_string(g.law), cell(g.exponent), cell(g.ci95_low), cell(g.ci95_high), to_string(g.prediction.law), describe_growth(g)};
  };
  const GrowthCells energy_growth = growth(m.energy_growth), momentum_growth = growth(m.momentum_growth);
  return {r.case_name,
          r.integrator,
          r.discretisation,
          number(r.h),
          r.rtol > 0 ? number(r.rtol) : "",
          r.atol > 0 ? number(r.atol) : "",
          number(r.t_end),
          measured ? std::to_string(r.counters.steps) : "n/a",
          metric(m.energy_err_max),
          metric(m.energy_err_mean),
          metric(m.energy_err_rel_ke),
          metric(energy_gain_rel(m)),  // the signed gain the instability criterion judges
          metric(m.energy_drift_rate),
          metric(m.momentum_err_max),
          metric(m.momentum_err_mean),
          metric(m.constraint_err_max),
          metric(m.constraint_rate_err_max),
          metric(m.linear_momentum_err_max),
          orthogonality(m.orthogonality_err_max),
          orthogonality(m.orthogonality_err_mean),
          number(r.shared_t_end),
          metric(shared.energy_err_max),
          metric(shared.momentum_err_max),
          metric(shared.linear_momentum_err_max),
          metric(shared.constraint_err_max),
          energy_growth.law,
          energy_growth.exponent,
          energy_growth.low,
          energy_growth.high,
          energy_growth.theory,
          energy_growth.verdict,
          momentum_growth.law,
          momentum_growth.exponent,
          momentum_growth.low,
          momentum_growth.high,
          momentum_growth.theory,
          momentum_growth.verdict,
          metric(r.runtime_s),
          measured ? std::to_string(r.counters.rhs_evals) : "n/a",
          measured ? std::to_string(r.counters.newton_iters) : "n/a",
          measured ? std::to_string(r.counters.error_test_failures) : "n/a",
          r.status(),
          r.outcome.ok() ? r.host : std::string()};  // where runtime_s was measured
}

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
  write_csv_line(out, summary_values(row));
}

void write_summary_csv(const std::string& path, const std::vector<SummaryRow>& rows) {
  auto out = open_for_writing(path, std::ios::trunc);
  write_csv_line(out, summary_columns());
  for (const auto& r : rows) write_csv_line(out, summary_values(r));
}

void write_summary_markdown(const std::string& path, const std::vector<SummaryRow>& rows) {
  auto out = open_for_writing(path, std::ios::trunc);
  out << "# tetherbench summary\n\nColumns as defined in SPEC \"Metrics\"; runtime is integration only.\n";
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
      for (size_t i = 1; i < columns.size(); ++i) out << ' ' << columns[i] << " |";
      out << "\n|";
      for (size_t i = 1; i < columns.size(); ++i) out << (i < columns.size() - 1 ? "---:|" : "---|");
      out << '\n';
    }
    const auto values = summary_values(r);
    out << '|';
    for (size_t i = 1; i < values.size(); ++i) out << ' ' << values[i] << " |";
    out << '\n';
  }
  if (!current_case.empty()) note_short_horizons(current_case);
}

}  // namespace tb
