#include "app/writing/summary.hpp"

#include "app/common/csv_table.hpp"

#include <algorithm>
#include <cmath>

#include "app/judging/metric_cells.hpp"
#include "core/format.hpp"
#include "core/stability_criterion.hpp"
#include "core/table_reader.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tb {

namespace {

std::string number(double x) { return format_g(x, 6); }

std::ofstream open_for_writing(const std::string& path, std::ios::openmode mode) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::ofstream out(path, mode);
  if (!out) throw std::runtime_error("cannot write " + path);
  return out;
}

void write_csv_line(std::ostream& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
  out << '\n';
}

}  // namespace

namespace {

// The growth law (core/growth.hpp), its exponent and 95% interval (of the span after a regime
// change), the law theory predicts, and the words the report prints (describe_growth): the
// law, why there is none, or "investigate: ..." where the law contradicts the prediction. No
// exponent where the law needs none (round_off, zero) or has none (too_short). A run that did not
// complete has `no_result` in each (empty, or "n/a" for a run that does not apply).
template <class Emit>
void growth_cells(const SummaryRow& r, const MetricSpec& owner, const GrowthFit& g, bool integrated,
                  const std::string& no_result, Emit& emit) {
  std::string quantity(owner.name);
  quantity.resize(quantity.size() - std::string_view("_err_max").size());  // energy_err_max -> energy
  if (!integrated) {
    for (const char* part : {"law", "exponent", "ci95_low", "ci95_high", "theory", "verdict"})
      emit(quantity + "_growth_" + part, not_applicable_cell(r.violable, owner), true, false);
    return;
  }
  const bool ok = r.outcome.completed();
  const bool fitted = std::isfinite(g.exponent) && g.law != GrowthLaw::RoundOff && g.law != GrowthLaw::Zero &&
                      g.law != GrowthLaw::TooShort;
  auto fit = [&](double x) { return !ok ? no_result : fitted ? format_g(x, 3) : std::string(); };
  emit(quantity + "_growth_law", ok ? to_string(g.law) : no_result, false, false);
  emit(quantity + "_growth_exponent", fit(g.exponent), false, false);
  emit(quantity + "_growth_ci95_low", fit(g.ci95_low), false, false);
  emit(quantity + "_growth_ci95_high", fit(g.ci95_high), false, false);
  emit(quantity + "_growth_theory", ok ? to_string(g.prediction.law) : no_result, false, false);
  emit(quantity + "_growth_verdict", ok ? describe_growth(g) : no_result, false, false);
}

// The summary's columns, described once: each column's name beside the cell it holds, so the
// header and the rows cannot drift apart. `emit(name, value, structural, whole)` is called once
// per column, in order; `structural` marks the "n/a (<why>)" of a metric the run's formulation
// cannot violate (summary.csv leaves it empty and names the metric in not_integrated); `whole`
// marks a column of whole counts (steps, evaluations, passes), which a reader keeps integer. The
// metric columns are the registry's (core/metric_registry.hpp), in its order.
template <class Emit>
void summary_cells(const SummaryRow& r, Emit&& emit) {
  // Metrics and runtime are results of a run that reached t_end (RunOutcome::completed): an ok
  // one, or one past the instability criterion (core/stability_criterion.hpp), whose status says
  // so beside them. A failed or interrupted run shows its status, the steps and evaluations it
  // took, and empty metric cells.
  const bool measured = !r.outcome.not_applicable();
  auto result = [&](double x) { return r.outcome.completed() ? number(x) : std::string(measured ? "" : "n/a"); };
  auto count = [&](long n) { return measured ? std::to_string(n) : std::string("n/a"); };
  // A metric the run's formulation cannot violate (a constraint where it integrates none, an
  // orthogonality where no rotation is integrated, a momentum without a momentum map) is no
  // result of any run, ok or not: "n/a (<why>)", never a 0 that would read as a perfect score.
  auto integrated = [&](const MetricSpec& metric) { return !measured || r.violable.covers(metric); };
  auto metric = [&](const std::string& column, const MetricSpec& spec, const ConservationMetrics& m) {
    if (integrated(spec)) emit(column, result(spec.value(m)), false, false);
    else emit(column, not_applicable_cell(r.violable, spec), true, false);
  };
  auto growth = [&](const MetricSpec& owner, const GrowthFit& g) {
    growth_cells(r, owner, g, integrated(owner), measured ? "" : "n/a", emit);
  };
  auto plain = [&](const std::string& column, const std::string& value) { emit(column, value, false, false); };
  auto counted = [&](const std::string& column, const std::string& value) { emit(column, value, false, true); };
  plain("case", r.case_name);
  plain("integrator", r.integrator);
  plain("discretisation", r.discretisation);
  plain("h", number(r.h));
  plain("rtol", r.rtol > 0 ? number(r.rtol) : "");
  plain("atol", r.atol > 0 ? number(r.atol) : "");
  plain("t_end", number(r.t_end));
  counted("steps", count(r.counters.steps));
  // The step cap of an adaptive run whose integrator declares one: empty without (issue 44).
  plain("max_step", r.declares_max_step ? number(r.max_step) : "");
  const auto& registry = metric_registry();
  for (const auto& spec : registry)
    if (spec.role != TableRole::None) metric(std::string(spec.name), spec, r.metrics);
  // Where the energy went in a forced or dissipative case: E at the first and last samples and
  // the external work W(t_end) (> 0: energy put in; 0 for a conservative model), issue 44.
  const bool worked = measured && r.outcome.ok() && r.metrics.external_work_max > 0.0;
  plain("energy_first", worked ? number(r.metrics.energy_first) : "");
  plain("energy_last", worked ? number(r.metrics.energy_last) : "");
  plain("external_work_last", worked ? number(r.metrics.external_work_last) : "");
  plain("shared_t_end", number(r.shared_t_end));
  for (const auto& spec : registry)
    if (spec.shared_window) metric(std::string(spec.name) + "_shared", spec, r.shared_metrics);
  for (const auto& spec : registry)
    if (spec.growth_owner) growth(spec, growth_fit(r.metrics, spec.growth));
  plain("runtime_s", result(r.runtime_s));
  plain("runtime_code", measured ? r.runtime_code : std::string());  // what ran (or would have run) the steps
  // The passes runtime_s is the minimum of and their spread: the timing's noise (issue 44 point 23).
  counted("runtime_passes", r.outcome.ok() ? count(r.timing_passes) : std::string());
  plain("runtime_spread", r.outcome.ok() && r.timing_passes > 1 ? number(r.runtime_spread) : std::string());
  counted("rhs_evals", count(r.counters.rhs_evals));
  counted("newton_iters", count(r.counters.newton_iters));
  counted("error_test_failures", count(r.counters.error_test_failures));
  // The state in one word beside the status cell that says why (issue 46: `state == "ok"` filters).
  plain("state", std::string(r.outcome.word()));
  plain("status", r.status());
  // Beside a "drift": of what (the energy balance, the linear momentum); beside an ok run whose
  // error rose with a change of the motion (an episode, not the method's): when it began (s).
  plain("drifts", r.outcome.drifts());
  plain("episode_from", r.outcome.ok() && !r.outcome.episode.empty() ? number(r.outcome.episode_t) : std::string());
  plain("host", r.outcome.completed() ? r.host : std::string());  // where runtime_s was measured
  // Last: the metrics this run's formulation cannot violate, by name, what an empty metric cell
  // of summary.csv means.
  plain("not_integrated", measured ? r.violable.not_integrated() : std::string());
}

}  // namespace

const std::vector<std::string>& summary_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> names;
    summary_cells(SummaryRow{}, [&](const std::string& name, const std::string&, bool, bool) { names.push_back(name); });
    return names;
  }();
  return columns;
}

const std::vector<std::string>& summary_count_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> names;
    summary_cells(SummaryRow{}, [&](const std::string& name, const std::string&, bool, bool whole) {
      if (whole) names.push_back(name);
    });
    return names;
  }();
  return columns;
}

std::vector<std::string> summary_values(const SummaryRow& r) {
  std::vector<std::string> values;
  summary_cells(r, [&](const std::string&, std::string value, bool, bool) { values.push_back(std::move(value)); });
  return values;
}

namespace {
// The CSV's cells: a metric that was not integrated is empty (a reader's number() gives NaN, and
// the row's not_integrated column says why), never the words the Markdown table prints.
std::vector<std::string> csv_values(const SummaryRow& r) {
  std::vector<std::string> values;
  summary_cells(r, [&](const std::string&, std::string value, bool structural, bool) {
    values.push_back(structural ? std::string() : std::move(value));
  });
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

void write_summary_csv(const std::string& path, const std::vector<SummaryRow>& rows,
                       const std::vector<std::string>& extra_columns, const std::vector<std::vector<std::string>>& extra_values) {
  auto out = open_for_writing(path, std::ios::trunc);
  std::vector<std::string> columns = summary_columns();
  columns.insert(columns.end(), extra_columns.begin(), extra_columns.end());
  write_csv_line(out, columns);
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string> values = csv_values(rows[i]);
    values.insert(values.end(), extra_values.at(i).begin(), extra_values.at(i).end());
    write_csv_line(out, values);
  }
}

std::string summary_csv_text(const std::vector<SummaryRow>& rows) {
  std::ostringstream out;
  write_csv_line(out, summary_columns());
  for (const auto& r : rows) write_csv_line(out, csv_values(r));
  return out.str();
}

}  // namespace tb
