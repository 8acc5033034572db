// The metric registry (core/metric_registry.hpp) is the one list of metrics: every row is a
// summary column, survives a job result's bytes and summary.csv, has a round-off floor and an n/a
// reason where a run cannot violate it; summary.md's tables are written from it with every
// sentence once. The runs are every applicable run of every bundled case (the registries, not a
// list typed here), a few steps each.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/common/csv_table.hpp"
#include "app/running/job_result.hpp"
#include "app/judging/metric_cells.hpp"
#include "app/running/round_off.hpp"
#include "app/writing/summary.hpp"
#include "app/writing/summary_markdown.hpp"
#include "core/metric_registry.hpp"
#include "tests/temp_file.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {

// Every applicable run of every bundled case, 30 steps at the case's step: rows as the runner
// builds them, cheaply.
const std::vector<SummaryRow>& bundled_rows() {
  static const std::vector<SummaryRow> rows = [] {
    std::vector<SummaryRow> out;
    RunOptions options;
    options.min_timed_s = 0.0;
    for (const auto& c : testing::bundled_cases())
      for (const auto& key : runs_of(c, testing::catalogue().integrators)) {
        options.t_end = 30.0 * c.h;
        out.push_back(run_case(key, options));
      }
    return out;
  }();
  return rows;
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The cells of a Markdown table's rows (header first) starting at `from`.
std::vector<std::vector<std::string>> table_at(const std::string& md, size_t from) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(md.substr(md.find('|', from)));
  std::string line;
  while (std::getline(in, line) && line.rfind('|', 0) == 0) {
    if (line.rfind("|---", 0) == 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] != '|') { cell += line[i]; continue; }
      cells.push_back(cell.substr(1, cell.size() - 2));
      cell.clear();
    }
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace

TEST_CASE("registry: every metric is declared whole, once, and is a summary column", "[metrics][registry]") {
  std::set<std::string> names;
  const auto& columns = summary_columns();
  for (const auto& m : metric_registry()) {
    INFO(m.name);
    CHECK(names.insert(std::string(m.name)).second);
    CHECK_FALSE(m.unit.empty());
    CHECK_FALSE(m.label.empty());
    CHECK_FALSE(m.meaning.empty());
    CHECK(m.value != nullptr);
    CHECK(&metric_spec(m.name) == &m);
    const bool column = std::find(columns.begin(), columns.end(), std::string(m.name)) != columns.end();
    CHECK(column == (m.role != TableRole::None));
    const bool shared = std::find(columns.begin(), columns.end(), std::string(m.name) + "_shared") != columns.end();
    CHECK(shared == m.shared_window);
    if (m.violable == Violable::Invariant || m.scale == RoundOffScale::Invariant) CHECK(m.slot < invariant_specs().size());
    if (m.growth_owner) CHECK(m.growth != GrowthOf::None);
  }
  CHECK(metric_names().size() == metric_registry().size());
  // Each growth law has one owner, whose columns the summary carries.
  for (GrowthOf of : {GrowthOf::Energy, GrowthOf::Momentum}) {
    const std::string quantity = std::string(growth_owner(of).name).substr(0, growth_owner(of).name.size() - 8);
    CHECK(std::find(columns.begin(), columns.end(), quantity + "_growth_law") != columns.end());
  }
  CHECK_THROWS_AS(metric_spec("energy_err_max_sharedx"), std::out_of_range);
  CHECK_THROWS_AS(metric_spec("orthogonality_err_mean_shared"), std::out_of_range);  // no shared column
  CHECK_THROWS_AS(invariant_slot("no_such_invariant"), std::out_of_range);
  // The headline is what a reader asks first: energy, momentum, constraint, P, orthogonality.
  std::vector<std::string> headline;
  for (const MetricSpec* m : headline_metrics()) headline.emplace_back(m->name);
  CHECK(headline == std::vector<std::string>{"energy_err_max", "momentum_err_max", "constraint_err_max",
                                             "linear_momentum_err_max", "orthogonality_err_max"});
  CHECK(metric_header(metric_spec("energy_err_max")) == "max ΔE (J)");
  CHECK(metric_header(metric_spec("orthogonality_err_max")) == "max ‖I − RᵀR‖");
}

TEST_CASE("registry: every metric round-trips through a job result's bytes and summary.csv", "[metrics][registry]") {
  const auto& rows = bundled_rows();
  REQUIRE(rows.size() > 50);
  // The round trip tests something only where a value is not 0: every metric is somewhere.
  std::map<std::string, int> nonzero;
  const auto dir = testing::scratch_dir("registry_round_trip");
  const std::string csv = (dir / "summary.csv").string();
  write_summary_csv(csv, rows);
  const CsvTable table = read_csv_table(csv);
  REQUIRE(table.rows.size() == rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const SummaryRow& row = rows[i];
    INFO(row.case_name << " | " << row.integrator << ": " << row.status());
    ResultWriter w;
    write(w, row);
    ResultReader r(w.bytes());
    SummaryRow back;
    read(r, back);
    r.expect_end();
    for (const auto& m : metric_registry()) {
      INFO(m.name);
      const double x = m.value(row.metrics);
      CHECK(same(m.value(back.metrics), x));
      if (m.shared_window) CHECK(same(m.value(back.shared_metrics), m.value(row.shared_metrics)));
      CHECK(back.violable.covers(m) == row.violable.covers(m));
      if (row.outcome.ok() && row.violable.covers(m) && std::isfinite(x) && x != 0.0) ++nonzero[std::string(m.name)];
      if (m.role == TableRole::None || !row.outcome.ok()) continue;
      const std::string& cell = table.rows[i].at(std::string(m.name));
      if (!row.violable.covers(m)) {
        CHECK(cell.empty());
        continue;
      }
      REQUIRE_FALSE(cell.empty());
      CHECK(std::stod(cell) == Approx(x).epsilon(1e-5).margin(1e-300));  // 6 significant digits
    }
  }
  std::filesystem::remove_all(dir);
  for (const auto& m : metric_registry()) {
    INFO(m.name << " is 0 or n/a in every bundled run: its round trip tests nothing");
    CHECK(nonzero[std::string(m.name)] > 0);
  }
}

TEST_CASE("registry: n/a reasons come from the declarations, and every violable metric has a round-off floor",
          "[metrics][registry][n/a]") {
  ViolableInvariants none{false, false, false, false, false};
  none.invariants.fill(false);
  std::map<std::string, std::string> expected = {{"momentum_err_max", "no momentum map"},
                                                 {"constraint_err_max", "no constraint"},
                                                 {"constraint_rate_err_max", "no constraint"},
                                                 {"linear_momentum_err_max", "no linear momentum conserved"},
                                                 {"orthogonality_err_max", "no rotation integrated"}};
  for (const auto& m : metric_registry()) {
    INFO(m.name);
    if (m.violable == Violable::Always) {
      CHECK(none.covers(m));
      CHECK(not_applicable_cell(none, m).empty());
      continue;
    }
    CHECK_FALSE(none.why_not(m).empty());
    CHECK(not_applicable_cell(none, m) == "n/a (" + none.why_not(m) + ")");
    if (expected.count(std::string(m.name))) CHECK(none.why_not(m) == expected[std::string(m.name)]);
  }
  ViolableInvariants rate_only;
  rate_only.constraint_rates = false;  // positions constrained, the rate 0 by the form's equations
  CHECK(rate_only.why_not(metric_spec("constraint_rate_err_max")) == "constraint rate 0 by construction");
  // On the bundled runs: a cell is a number, "n/a (<the declaration's reason>)" or "—" (no result).
  for (const auto& row : bundled_rows()) {
    if (row.outcome.not_applicable()) continue;
    for (const auto& m : metric_registry()) {
      INFO(row.case_name << " | " << row.integrator << " | " << m.name);
      const std::string cell = metric_cell(row, m);
      if (!row.violable.covers(m)) CHECK(cell == "n/a (" + row.violable.why_not(m) + ")");
      else if (!row.outcome.ok()) CHECK(cell == "—");
      else {
        CHECK(cell.find("n/a") == std::string::npos);
        const double floor = round_off_floor(m, row);
        CHECK(std::isfinite(floor));
        CHECK(floor > 0.0);
      }
    }
  }
}

TEST_CASE("summary.md: a headline and a detail table per case, no all-n/a column, every sentence once",
          "[summary][registry]") {
  const auto& rows = bundled_rows();
  const std::string md = summary_markdown(rows);
  std::set<std::string> cases;
  for (const auto& r : rows) cases.insert(r.case_name);
  for (const auto& name : cases) {
    INFO(name);
    const size_t at = md.find("\n## " + name + "\n");
    REQUIRE(at != std::string::npos);
    std::vector<const SummaryRow*> mine;
    for (const auto& r : rows)
      if (r.case_name == name && !r.outcome.not_applicable()) mine.push_back(&r);
    if (mine.empty()) continue;
    const auto headline = table_at(md, at);
    REQUIRE(headline.size() == mine.size() + 1);  // header, then exactly the runs the case runs
    const auto& header = headline.front();
    CHECK(header[0] == "integrator");
    CHECK(header[1] == "status");
    for (size_t k = 0; k < header.size(); ++k) {
      INFO(header[k]);
      bool all_na = true;
      for (size_t i = 1; i < headline.size(); ++i) all_na = all_na && headline[i][k].rfind("n/a (", 0) == 0;
      CHECK_FALSE(all_na);
    }
    for (size_t i = 0; i < mine.size(); ++i) CHECK(headline[i + 1][0] == mine[i]->integrator);
    // A headline metric is a column exactly when some run of the case can violate it and it is
    // not exactly 0 in every run; else one sentence under the table says why it is not shown.
    const size_t detail_at = md.find("\n### " + name + ": detail\n", at);
    REQUIRE(detail_at != std::string::npos);
    const std::string notes = md.substr(at, detail_at - at);
    auto all_zero = [&](const MetricSpec& m) {  // every run with a result measured exactly 0
      return std::all_of(mine.begin(), mine.end(), [&](const SummaryRow* r) { return metric_cell(*r, m) == "0" || metric_cell(*r, m) == "—"; }) &&
             std::any_of(mine.begin(), mine.end(), [&](const SummaryRow* r) { return metric_cell(*r, m) == "0"; });
    };
    for (const MetricSpec* m : headline_metrics()) {
      INFO(m->name);
      const bool shown = std::find(header.begin(), header.end(), metric_header(*m)) != header.end();
      CHECK(shown == !(all_not_applicable(mine, *m) || all_zero(*m)));
      if (all_not_applicable(mine, *m))
        CHECK(notes.find(std::string(m->label) + " (" + mine.front()->violable.why_not(*m)) != std::string::npos);
      else if (all_zero(*m))
        CHECK(notes.find("exactly 0 in every run of this case: ") != std::string::npos);
    }
    const auto detail = table_at(md, detail_at);
    REQUIRE(detail.size() == mine.size() + 1);
    for (const MetricSpec* m : metrics_with_role(TableRole::Detail))
      CHECK((std::find(detail[0].begin(), detail[0].end(), metric_header(*m)) != detail[0].end()) ==
            !(all_not_applicable(mine, *m) || all_zero(*m)));
  }
  // Said once: the legend of n/a and —, each growth code's words; no per-run prose.
  CHECK(count_of(md, "\"n/a (why)\"") == 1);
  CHECK(count_of(md, "a law needs") <= 1);
  CHECK(count_of(md, "too short for a law") <= 1);
  CHECK(count_of(md, "Brouwer floor") <= 1);
  for (const auto& r : rows)
    if (!r.outcome.ok() && !r.outcome.reason.empty()) CHECK(md.find(r.outcome.reason) == std::string::npos);
}

TEST_CASE("a metric drawn against time names its quantity by the registry's symbol, the max of it by its label",
          "[metric_registry]") {
  // The time-series figures take their axis symbols from here (app/writing/figure_plan.cpp): a
  // symbol is the quantity at one time, the label "max " and the quantity (the tables' header).
  int with_symbol = 0;
  for (const auto& m : metric_registry()) {
    if (m.symbol.empty()) continue;
    ++with_symbol;
    INFO(m.name);
    CHECK(m.label.substr(0, 4) == "max ");
    CHECK(m.name.substr(m.name.size() - 8) == "_err_max");
  }
  CHECK(with_symbol == 5);
  CHECK(metric_spec("energy_err_max").symbol == "|ΔE|");
}
