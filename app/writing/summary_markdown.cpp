#include "app/writing/summary_markdown.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "app/judging/metric_cells.hpp"
#include "core/format.hpp"

namespace tb {

namespace {

// A table built column by column, so that a column can be dropped after its cells are known.
struct Column {
  std::string header;
  std::vector<std::string> cells;
  bool numeric = true;
  const MetricSpec* metric = nullptr;  // a metric column: dropped with a sentence when n/a for every row
};

std::string seconds(double x) { return format_g(x, 3); }

void write_table(std::ostringstream& out, const std::vector<Column>& columns, size_t rows) {
  out << '|';
  for (const auto& c : columns) out << ' ' << c.header << " |";
  out << "\n|";
  for (const auto& c : columns) out << (c.numeric ? "---:|" : "---|");
  out << '\n';
  for (size_t i = 0; i < rows; ++i) {
    out << '|';
    for (const auto& c : columns) out << ' ' << c.cells[i] << " |";
    out << '\n';
  }
}

// What drop_columns took out, for the sentence under the table.
struct Dropped {
  std::vector<std::string> not_applicable;  // "label (why)": n/a for every row
  std::vector<std::string> zero;            // labels: exactly 0 in every row
  void add(std::vector<std::string>& to, const std::string& what) {
    if (std::find(to.begin(), to.end(), what) == to.end()) to.push_back(what);
  }
};

// Drops the metric columns that are n/a for every row ("label (why)"), those whose value is
// exactly 0 in every run with a result (a measured fact, said in words instead of a column of
// zeros), and the
// columns with no cell at all (a fixed-step case's rtol, exponents where no law was fitted):
// none of them tells a row from another.
void drop_columns(std::vector<Column>& columns, const std::vector<const SummaryRow*>& rows, Dropped& dropped) {
  std::vector<Column> kept;
  for (auto& c : columns) {
    if (c.metric && all_not_applicable(rows, *c.metric)) {
      std::set<std::string> why;
      for (const SummaryRow* r : rows) why.insert(r->violable.why_not(*c.metric));
      std::string reasons;
      for (const auto& w : why) reasons += (reasons.empty() ? "" : "; ") + w;
      dropped.add(dropped.not_applicable, std::string(c.metric->label) + " (" + reasons + ")");
      continue;
    }
    if (std::all_of(c.cells.begin(), c.cells.end(), [](const std::string& s) { return s.empty(); })) continue;
    // Every run with a result (the others print "—") measured exactly 0.
    if (c.metric && c.header == metric_header(*c.metric) &&
        std::all_of(c.cells.begin(), c.cells.end(), [](const std::string& s) { return s == "0" || s == "—"; }) &&
        std::find(c.cells.begin(), c.cells.end(), "0") != c.cells.end()) {
      dropped.add(dropped.zero, std::string(c.metric->label));
      continue;
    }
    kept.push_back(std::move(c));
  }
  columns = std::move(kept);
}

std::string growth_header(GrowthOf of) {
  std::string label(growth_owner(of).label);
  if (label.rfind("max ", 0) == 0) label = label.substr(4);
  return label + " law";
}

// "0.53 [0.46, 0.60]": a law's exponent and 95% interval, where one was fitted.
std::string exponent_cell(const SummaryRow& r, GrowthOf of) {
  const MetricSpec& owner = growth_owner(of);
  if (!r.violable.covers(owner)) return not_applicable_cell(r.violable, owner);
  const GrowthFit& g = growth_fit(r.metrics, of);
  if (!r.outcome.completed() || !std::isfinite(g.exponent)) return "";
  return format_g(g.exponent, 2) + " [" + format_g(g.ci95_low, 2) + ", " + format_g(g.ci95_high, 2) + "]";
}

// Rows over a shorter horizon than the case's others ([case] integrator_t_end) are named under
// the table, so nobody compares their metrics with the others' as like with like.
std::string shorter_horizons(const std::vector<const SummaryRow*>& rows) {
  double longest = 0.0;
  for (const SummaryRow* r : rows) longest = std::max(longest, r->t_end);
  std::string shorter;
  for (const SummaryRow* r : rows)
    if (r->t_end < longest) shorter += (shorter.empty() ? "" : ", ") + r->integrator + " over " + format_g(r->t_end, 6) + " s";
  if (shorter.empty()) return "";
  return "Shorter horizon than the other rows (" + format_g(longest, 6) + " s): " + shorter +
         " ([case] integrator_t_end of the case file: their cost over the whole horizon is out of proportion to the "
         "main job; `tetherbench run CASE --integrator NAME --t-end T` runs it in full). Their metrics are over their "
         "own horizon.";
}

// "rtol 1e-06, atol 1e-08" for an adaptive row, with its step cap where its integrator has one
// ("max_step 0.001 s", or "no max_step" where the cap is declared and 0).
std::string tolerance_cell(const SummaryRow& r) {
  if (!(r.rtol > 0.0)) return "";
  std::string cell = "rtol " + format_g(r.rtol, 3) + ", atol " + format_g(r.atol, 3);
  if (r.declares_max_step) cell += r.max_step > 0.0 ? ", max_step " + format_g(r.max_step, 3) + " s" : ", no max_step";
  return cell;
}

// Where the energy went, for the rows whose model does external work (a control moment, a
// Carnot term): E at the start and at the end and the work W put in over the run, so that a
// reader sees the energy change the balance's error column is the residual of (issue 44).
std::string energy_balance_sentence(const std::vector<const SummaryRow*>& rows) {
  std::string out;
  for (const SummaryRow* r : rows) {
    if (!r->outcome.ok() || !(r->metrics.external_work_max > 0.0)) continue;
    const ConservationMetrics& m = r->metrics;
    out += std::string(out.empty() ? "" : "; ") + r->integrator + ": E " + format_g(m.energy_first, 5) + " -> " +
           format_g(m.energy_last, 5) + " J (change " + format_g(m.energy_last - m.energy_first, 4) + " J), W = " +
           format_g(m.external_work_last, 4) + " J";
  }
  if (out.empty()) return "";
  return "Energy and the work W of the model's non-conservative forces (e.g. Model B's control moment and Carnot term, a "
         "tether's damping) from t = 0 to "
         "t_end, W > 0 energy put in; the energy column is the balance E(t) - E(0) - W(t): " + out + ".";
}

// The step caps of the adaptive rows that declare one, said once under the table: the cap
// changes which steps an adaptive method may take, so the same tolerance can give another
// verdict with and without it (tolerance_sweep.md runs each rtol both ways where the case asks).
std::string step_cap_sentence(const std::vector<const SummaryRow*>& rows) {
  std::string capped, free;
  for (const SummaryRow* r : rows) {
    if (!r->declares_max_step) continue;
    std::string& to = r->max_step > 0.0 ? capped : free;
    to += (to.empty() ? "" : ", ") + r->integrator;
  }
  if (capped.empty() && free.empty()) return "";
  std::string out = "Step cap (max_step) of the adaptive rows: ";
  if (!capped.empty()) out += capped + " capped (the tolerances column gives the cap)";
  if (!free.empty()) out += std::string(capped.empty() ? "" : "; ") + free + " free (no cap)";
  return out + ". The cap bounds every step whatever the error estimate, so at the same rtol a capped and a free run "
               "can end with different verdicts; where the case has a [report.tolerance_sweep], tolerance_sweep.md "
               "runs each rtol both ways and says whether the cap decides the verdict at this case's rtol.";
}

std::vector<Column> headline_columns(const std::vector<const SummaryRow*>& rows, std::set<std::string>& codes) {
  std::vector<Column> cols;
  auto column = [&](std::string header, bool numeric, auto cell, const MetricSpec* metric = nullptr) {
    Column c{std::move(header), {}, numeric, metric};
    for (const SummaryRow* r : rows) c.cells.push_back(cell(*r));
    cols.push_back(std::move(c));
  };
  column("integrator", false, [](const SummaryRow& r) { return r.integrator; });
  column("status", false, [](const SummaryRow& r) { return status_cell(r); });
  column("t_end (s)", true, [](const SummaryRow& r) { return seconds(r.t_end); });
  // An adaptive run's tolerances and step cap beside its errors (issue 44): the cases differ
  // (rtol 1e-10 on Model B, 1e-6 on Model C, MATLAB's 1e-3 on the _ode45 cases) and a step cap
  // can decide an adaptive run's verdict. Empty for fixed-step rows (their h is the case's).
  column("tolerances", false, [](const SummaryRow& r) { return tolerance_cell(r); });
  // An interpreted method's runtime says so: it is not comparable with the compiled ones beside it.
  column("runtime (s)", true, [](const SummaryRow& r) {
    if (!r.outcome.completed()) return std::string("—");
    return seconds(r.runtime_s) + (r.runtime_code == "compiled" ? "" : " (" + r.runtime_code + ")");
  });
  for (const MetricSpec* m : headline_metrics()) {
    column(metric_header(*m), true, [&](const SummaryRow& r) { return metric_cell(r, *m); }, m);
    if (m->growth_owner && m->growth == GrowthOf::Energy)
      column(growth_header(m->growth), false, [&](const SummaryRow& r) {
        const std::string code = growth_cell(r, m->growth);
        if (r.outcome.completed() && r.violable.covers(*m)) codes.insert(code);
        return code;
      }, m);
  }
  return cols;
}

std::vector<Column> detail_columns(const std::vector<const SummaryRow*>& rows, std::set<std::string>& codes) {
  std::vector<Column> cols;
  auto column = [&](std::string header, auto cell, const MetricSpec* metric = nullptr) {
    Column c{std::move(header), {}, true, metric};
    for (const SummaryRow* r : rows) c.cells.push_back(cell(*r));
    cols.push_back(std::move(c));
  };
  column("integrator", [](const SummaryRow& r) { return r.integrator; });
  cols.back().numeric = false;
  column("h (s)", [](const SummaryRow& r) { return format_g(r.h, 3); });
  column("rtol", [](const SummaryRow& r) { return r.rtol > 0 ? format_g(r.rtol, 3) : std::string(); });
  column("atol", [](const SummaryRow& r) { return r.atol > 0 ? format_g(r.atol, 3) : std::string(); });
  column("steps", [](const SummaryRow& r) { return std::to_string(r.counters.steps); });
  for (const MetricSpec* m : metrics_with_role(TableRole::Detail))
    column(metric_header(*m), [&](const SummaryRow& r) { return metric_cell(r, *m); }, m);
  for (const auto& m : metric_registry()) {
    if (!m.growth_owner) continue;
    if (m.growth != GrowthOf::Energy) {  // the energy's law is the headline's
      column(growth_header(m.growth), [&](const SummaryRow& r) {
        const std::string code = growth_cell(r, m.growth);
        if (r.outcome.completed() && r.violable.covers(m)) codes.insert(code);
        return code;
      }, &m);
      cols.back().numeric = false;
    }
    column(growth_header(m.growth) + " exponent [95% CI]", [&](const SummaryRow& r) { return exponent_cell(r, m.growth); }, &m);
  }
  // The shared window only where it differs from a row's own horizon.
  const bool shared = std::any_of(rows.begin(), rows.end(), [](const SummaryRow* r) { return r->shared_t_end < r->t_end; });
  if (shared)
    for (const auto& m : metric_registry())
      if (m.shared_window)
        column(metric_header(m) + " to shared t_end", [&](const SummaryRow& r) { return shared_metric_cell(r, m); }, &m);
  column("rhs evals", [](const SummaryRow& r) { return std::to_string(r.counters.rhs_evals); });
  column("Newton iters", [](const SummaryRow& r) { return std::to_string(r.counters.newton_iters); });
  column("error-test failures", [](const SummaryRow& r) { return std::to_string(r.counters.error_test_failures); });
  return cols;
}

void write_case(std::ostringstream& out, const std::string& name, const std::vector<const SummaryRow*>& rows,
                std::set<std::string>& codes) {
  out << "\n## " << name << "\n\n";
  auto headline = headline_columns(rows, codes);
  auto detail = detail_columns(rows, codes);
  Dropped dropped;
  drop_columns(headline, rows, dropped);
  drop_columns(detail, rows, dropped);
  write_table(out, headline, rows.size());
  auto sentence = [&](const char* opening, const std::vector<std::string>& what) {
    if (what.empty()) return;
    out << '\n' << opening;
    for (size_t i = 0; i < what.size(); ++i) out << (i ? ", " : "") << what[i];
    out << ".\n";
  };
  sentence("Not shown, n/a for every run of this case: ", dropped.not_applicable);
  sentence("Not shown, exactly 0 in every run of this case: ", dropped.zero);
  if (const std::string s = shorter_horizons(rows); !s.empty()) out << '\n' << s << '\n';
  if (const std::string s = energy_balance_sentence(rows); !s.empty()) out << '\n' << s << '\n';
  if (const std::string s = step_cap_sentence(rows); !s.empty()) out << '\n' << s << '\n';
  if (std::any_of(rows.begin(), rows.end(), [](const SummaryRow* r) { return r->shared_t_end < r->t_end; }))
    out << "\nThe detail table's \"to shared t_end\" columns are over the first " << format_g(rows.front()->shared_t_end, 6)
        << " s, which every run of the case covers.\n";
  out << "\n### " << name << ": detail\n\n";
  write_table(out, detail, rows.size());
}

}  // namespace

std::string summary_markdown(const std::vector<SummaryRow>& rows) {
  std::ostringstream out;
  out << "# tetherbench summary\n\nColumns as defined in SPEC \"Metrics\" (core/metric_registry.cpp: one line each); "
         "runtime is integration only. \"n/a (why)\": the run's formulation cannot violate that metric, so it has no "
         "value; \"—\": the run has no result (its status says why; the full status and each run's growth verdict are "
         "in summary.csv). Runs that do not apply to a case are left out (summary.csv gives the reason).\n";
  std::vector<std::string> order;
  for (const auto& r : rows)
    if (std::find(order.begin(), order.end(), r.case_name) == order.end()) order.push_back(r.case_name);
  std::set<std::string> codes;
  for (const auto& name : order) {
    std::vector<const SummaryRow*> mine;
    for (const auto& r : rows)
      if (r.case_name == name && !r.outcome.not_applicable()) mine.push_back(&r);
    if (mine.empty()) {
      out << "\n## " << name << "\n\nNo integrator applies to this case (summary.csv gives the reasons).\n";
      continue;
    }
    write_case(out, name, mine, codes);
  }
  // Each growth code the tables print, explained once.
  std::set<std::string> words;
  for (std::string code : codes) {
    for (const char mark : {'!', '^'})  // the investigate mark, then the accelerating observation's
      if (!code.empty() && code.back() == mark) {
        words.insert(std::string(1, mark));
        code.pop_back();
      }
    words.insert(code);
  }
  if (!words.empty()) {
    out << "\nGrowth laws (\"law\" columns):\n\n";
    for (const auto& w : words) out << "- " << (w.empty() ? "(empty)" : "`" + w + "`") << ": " << growth_code_meaning(w) << '\n';
  }
  return out.str();
}

void write_summary_markdown(const std::string& path, const std::vector<SummaryRow>& rows) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << summary_markdown(rows);
}

}  // namespace tb
