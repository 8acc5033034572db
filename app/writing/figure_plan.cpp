#include "app/writing/figure_plan.hpp"

#include "app/judging/gates.hpp"
#include "app/judging/metric_cells.hpp"

#include "core/metric_registry.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "app/common/csv_table.hpp"
#include "app/common/figure_kit.hpp"
#include "core/format.hpp"

namespace fs = std::filesystem;

namespace tb {

// Named, not anonymous: app compiles in unity batches, where an anonymous namespace and its
// using-directive would reach the other files of the batch.
namespace figure_plan_parts {

using namespace figure_kit;

// A figure deliberately not drawn (figures_omitted.csv).
struct Omitted {
  std::string case_name, section, reason;
};

// A panel is drawn on a log axis when its positive values span at least this many decades.
constexpr double kLogDecades = 2.0;

// ---------------------------------------------------------------- runs and their time series

struct Run {
  std::string label, discretisation, status, not_integrated, data;  // data: <case>/<label>/timeseries.csv
  const Style* style = nullptr;
  bool result = true;  // completed within the instability criterion
  std::map<std::string, std::vector<double>> col;
  bool has(const std::string& c) const { return col.count(c) > 0; }
  bool integrates(const std::string& metric) const {
    std::istringstream words(not_integrated);
    for (std::string w; words >> w;)
      if (w == metric) return false;
    return true;
  }
  // The time the status gives, as it prints it ("349.9" of "unstable from t = 349.9 s (step ...)",
  // "24.394" of "... at t = 24.394 s, step ..."), so that a legend and the tables say one time.
  // A run judged past the criterion that went on to its end: "unstable from t = " or "energy jump at t = "
  // (RunOutcome::describe), the prefix's length; 0 otherwise.
  size_t judged_prefix() const {
    for (const char* p : {"unstable from t = ", "energy jump at t = "})
      if (starts_with(status, p)) return std::string_view(p).size();
    return 0;
  }
  std::string status_time() const {
    const size_t judged = judged_prefix();
    const size_t at = judged ? judged : status.rfind(" at t = ");
    if (at == std::string::npos) return "";
    const size_t from = judged ? judged : at + 8;
    return status.substr(from, status.find(' ', from) - from);
  }
  // An unstable run went on past its onset: it is drawn to its end, its × at the onset.
  double stop_t() const { return judged_prefix() ? to_double(status_time()) : kNaN; }
  // The legend: the label and, for a run that is no result, what happened when (the tables' words).
  std::string legend() const {
    if (result) return label;
    const std::string t = status_time();
    if (starts_with(status, "unstable from t = ")) return label + " (unstable from t = " + t + " s, × there; drawn to its end)";
    if (starts_with(status, "energy jump at t = ")) return label + " (energy jump at t = " + t + " s, × there; drawn to its end)";
    if (starts_with(status, "diverged at h") || starts_with(status, "unstable")) return label + " (diverged at t = " + t + " s)";
    if (starts_with(status, "interrupted")) return label + " (interrupted at t = " + t + " s)";
    // A failed run in the tables' words (app/judging/metric_cells.hpp failure_words): "crashed", "threw", ...
    return label + " (" + failure_words(failure_kind_of_status(status)) + " at t = " + t + " s)";
  }
};

// The columns the figures read (every other column of a time series is left unread).
const std::set<std::string> kColumnsRead = {"t", "energy", "energy_balance", "external_work", "momentum",
                                            "constraint_err", "orthogonality_err", "P_x", "P_y", "P_z",
                                            "payload_x", "payload_y", "payload_z"};

// A time series as written by the runner; a truncated last line (a run cut short) is dropped.
void read_timeseries(const fs::path& path, Run& run) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return;
  const auto header = split_csv_record(line);
  std::vector<std::pair<size_t, std::vector<double>*>> wanted;
  for (size_t i = 0; i < header.size(); ++i)
    if (kColumnsRead.count(header[i])) wanted.emplace_back(i, &run.col[header[i]]);
  while (std::getline(in, line)) {
    size_t start = 0;
    std::vector<std::string_view> fields;
    const std::string_view all(line);
    for (size_t i = 0; i <= all.size(); ++i)
      if (i == all.size() || all[i] == ',') fields.push_back(all.substr(start, i - start)), start = i + 1;
    if (fields.size() != header.size()) break;
    for (auto& [i, out] : wanted) out->push_back(fields[i].empty() ? kNaN : to_double(std::string(fields[i])));
  }
  if (run.col.count("t") && run.col["t"].empty()) run.col.clear();
}

// y(t) of a run as plot_report.py computes it from the same columns and transform.
std::vector<double> transformed(const Run& run, const std::vector<std::string>& columns, const std::string& transform) {
  const size_t n = run.col.at("t").size();
  std::vector<double> y(n, 0.0);
  auto c = [&](size_t k) -> const std::vector<double>& { return run.col.at(columns[k]); };
  for (size_t i = 0; i < n; ++i) {
    if (transform == "deviation" || transform == "abs_deviation") y[i] = c(0)[i] - c(0)[0];
    else if (transform == "difference_deviation" || transform == "abs_difference_deviation")
      y[i] = (c(0)[i] - c(1)[i]) - (c(0)[0] - c(1)[0]);
    else if (transform == "norm_deviation") {
      double s = 0;
      for (size_t k = 0; k < columns.size(); ++k) s += (c(k)[i] - c(k)[0]) * (c(k)[i] - c(k)[0]);
      y[i] = std::sqrt(s);
    } else if (transform == "abs") y[i] = c(0)[i];
    else throw std::logic_error("figure plan: unknown transform " + transform);
    if (starts_with(transform, "abs")) y[i] = std::fabs(y[i]);
  }
  return y;
}

// One quantity of the time series drawn against t, one panel per family (and discretisation).
struct Quantity {
  // "|Δz|", "m", "payload's vertical displacement"; the symbol and unit of a quantity with a
  // metric are the registry's (MetricSpec::symbol and ::unit; timeseries_figure), so they are given
  // only for quantities without one.
  std::string section, symbol, unit, meaning;
  std::string metric;                          // summary.csv's metric whose not_integrated entry excludes a run
  bool signed_when_linear = true;              // drawn signed on a linear axis (else as the transform gives)
};

struct RunValues {
  const Run* run;
  std::vector<std::string> columns;
  std::string transform;  // the signed or absolute one; the panel's scale decides
  std::vector<double> y;
  double max_abs = 0.0;
  bool all_zero = true;
  // Only the sample at t = 0 (a run that stopped before the grid's first step): nothing was
  // measured, which is not "exactly 0".
  bool no_samples = false;
};

// The runs' values of one quantity (those whose formulation integrates it); any_with_columns:
// whether any run reports the quantity at all.
std::vector<RunValues> values_of(const std::vector<Run>& runs, const Quantity& q,
                                 const std::function<bool(const Run&, std::vector<std::string>&, std::string&)>& pick,
                                 bool& any_with_columns) {
  std::vector<RunValues> values;
  any_with_columns = false;
  for (const auto& run : runs) {
    if (!run.style || !run.has("t")) continue;
    RunValues v{&run, {}, "", {}, 0.0, true, false};
    if (!pick(run, v.columns, v.transform)) continue;
    any_with_columns = true;
    if (!q.metric.empty() && !run.integrates(q.metric)) continue;
    v.y = transformed(run, v.columns, v.transform);
    int finite_after_start = 0;
    for (size_t k = 0; k < v.y.size(); ++k)
      if (const double y = v.y[k]; std::isfinite(y)) {
        v.max_abs = std::max(v.max_abs, std::fabs(y)), v.all_zero = v.all_zero && y == 0.0;
        if (k > 0) ++finite_after_start;
      }
    if (finite_after_start == 0) v.all_zero = false, v.no_samples = true;
    values.push_back(std::move(v));
  }
  return values;
}

// Why a quantity some run reports is not drawn, or "" when it is.
std::string why_not_drawn(const Quantity& q, const std::vector<RunValues>& values) {
  if (values.empty())
    return q.meaning + ": no run's formulation can violate it (summary.csv's not_integrated names " + q.metric +
           " for every run)";
  // (a run that measured nothing after t = 0 neither breaks nor makes "exactly 0 at every sample")
  if (std::all_of(values.begin(), values.end(), [](const RunValues& v) { return v.all_zero || v.no_samples; }) &&
      std::any_of(values.begin(), values.end(), [](const RunValues& v) { return v.all_zero; }))
    return q.meaning + " is exactly 0 at every sample of every run (" + std::to_string(values.size()) +
           " runs): the runs conserve it exactly or the model holds it fixed";
  return "";
}

// What the panels of one figure leave for its caption to say.
struct PanelNotes {
  std::vector<std::string> log_panels, lin_panels, exact_zero, unsampled, not_results;
};

// How a panel draws its quantity (scale_panel).
struct PanelAxis {
  bool log = false;        // log y axis
  bool as_signed = false;  // linear, with the quantity drawn signed
};

// A panel's axis: log where the completed runs' non-zero values span decades (their 1st
// percentile to max), else linear, signed where the quantity has a sign. A panel without a
// completed run is scaled by its runs up to where they went unstable.
PanelAxis scale_panel(Panel& p, const std::vector<size_t>& members, const std::vector<RunValues>& values, const Quantity& q) {
  std::vector<double> positive;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const bool any_result = std::any_of(members.begin(), members.end(), [&](size_t i) { return values[i].run->result; });
  for (size_t i : members)
    if (values[i].run->result || !any_result) {
      const double stop = values[i].run->stop_t();
      const auto& t = values[i].run->col.at("t");
      for (size_t k = 0; k < values[i].y.size(); ++k) {
        const double y = values[i].y[k];
        if (!std::isfinite(y) || (std::isfinite(stop) && k < t.size() && t[k] > stop)) continue;
        if (std::fabs(y) > 0) positive.push_back(std::fabs(y));
        lo = std::min(lo, y), hi = std::max(hi, y);
      }
    }
  double p01 = kNaN, pmax = kNaN;
  if (!positive.empty()) {
    std::sort(positive.begin(), positive.end());
    p01 = positive[positive.size() / 100], pmax = positive.back();
  }
  const bool log = std::isfinite(p01) && pmax / p01 >= std::pow(10.0, kLogDecades);
  const bool as_signed = !log && q.signed_when_linear;
  p.yscale = log ? "log" : "linear";
  p.ylabel = (as_signed ? q.symbol.substr(1, q.symbol.size() - 2) : q.symbol) + " [" + q.unit + "]";
  if (log && std::isfinite(p01)) p.ymin = p01 / 2, p.ymax = pmax * 2;
  if (!log && std::isfinite(lo)) {
    if (!as_signed) lo = 0.0, hi = std::max(hi, std::fabs(lo));
    const double pad = 0.05 * std::max(hi - lo, std::max(std::fabs(hi), std::fabs(lo)) * 1e-3);
    p.ymin = lo - pad, p.ymax = hi + pad;
    if (hi == lo && hi == 0.0) p.ymin = -1, p.ymax = 1;  // only zeros among the completed runs
  }
  return {log, as_signed};
}

// One run's series in a panel (log or signed linear as the panel decided), noting in `notes`
// what the caption must say of it.
Series timeseries_series(const RunValues& v, bool log, bool as_signed, PanelNotes& notes) {
  Series s;
  s.label = v.run->legend();
  s.colour = v.run->style->colour;
  s.line = v.run->style->line;
  s.data = v.run->data;
  s.x = "t";
  s.y = join(v.columns, ";");
  s.transform = as_signed ? (starts_with(v.transform, "abs_") ? v.transform.substr(4) : v.transform)
                          : (starts_with(v.transform, "abs") || v.transform == "norm_deviation" ? v.transform
                                                                                                 : "abs_" + v.transform);
  s.result = v.run->result;
  if (const double stop = v.run->stop_t(); std::isfinite(stop)) s.params = "stop=" + format_g(stop, 17);
  if (log && v.all_zero) {
    s.kind = "zero";  // nothing to draw on a log axis: the legend says so
    s.label += ": exactly 0";
    notes.exact_zero.push_back(v.run->label);
  } else if (v.no_samples) {
    s.kind = "zero";  // nothing to draw: the legend says why
    s.label += ": no sample after t = 0";
    notes.unsampled.push_back(v.run->label);
  }
  if (!v.run->result) notes.not_results.push_back(s.label);
  return s;
}

// The caption: what is drawn, how to read it, the extremes among completed runs. What every
// figure shares (panels per family, log axes where the data span decades, zeros not drawn, runs
// that are no result drawn to where they stopped) is said once on the page that shows them
// (app/writing/report_index.cpp, "How to read this page"); the caption says what is this figure's.
std::string timeseries_caption(const Quantity& q, const std::vector<RunValues>& values, size_t panels,
                               const PanelNotes& notes) {
  const RunValues* best = nullptr;
  const RunValues* worst = nullptr;
  for (const auto& v : values)
    if (v.run->result && !v.all_zero) {
      if (!best || v.max_abs < best->max_abs) best = &v;
      if (!worst || v.max_abs > worst->max_abs) worst = &v;
    }
  std::string cap = q.meaning + " against t";
  // A linear panel draws the quantity signed where it has a sign (E − E0 − W, not its modulus).
  const std::string signed_note = q.signed_when_linear ? ", drawn signed" : "";
  if (notes.lin_panels.size() == panels) cap += " (linear axes" + signed_note + ": the values span under 2 decades)";
  else if (!notes.lin_panels.empty()) cap += " (linear axes" + signed_note + " where a panel's values span under 2 decades)";
  cap += ".";
  // The extremes where the case's headline table does not print them already (a quantity that is
  // no metric of the registry, such as the payload's position).
  if (!q.metric.empty()) {
  } else if (worst && best && worst != best && number_or_na(best->max_abs) == number_or_na(worst->max_abs))
    cap += " Max " + q.symbol + " " + number_or_na(worst->max_abs) + " " + q.unit + " in every completed run (to 3 digits).";
  else if (worst && best && worst != best)
    cap += " Max " + q.symbol + " of the completed runs ranges from " + number_or_na(best->max_abs) + " " + q.unit + " (" +
           best->run->label + ") to " + number_or_na(worst->max_abs) + " " + q.unit + " (" + worst->run->label + ").";
  else if (worst)
    cap += " Max " + q.symbol + ": " + number_or_na(worst->max_abs) + " " + q.unit + " (" + worst->run->label + ").";
  // Runs whose curves lie on one another (the same maximum to 4 digits): the one drawn last hides
  // the others, which the reader is told rather than left to wonder where they went.
  std::map<std::string, std::vector<std::string>> same;
  for (const auto& v : values)
    if (v.run->result && !v.all_zero) same[number_or_na(v.max_abs, 4)].push_back(v.run->label);
  std::vector<std::string> coinciding;
  for (const auto& [_, labels] : same)
    if (labels.size() > 1) coinciding.push_back(join(labels, " = "));
  if (!coinciding.empty()) cap += " Curves on one another (the same maximum to 4 digits): " + join(coinciding, "; ") + ".";
  if (!notes.exact_zero.empty()) cap += " Exactly 0 throughout: " + join(notes.exact_zero, ", ") + ".";
  if (!notes.unsampled.empty()) cap += " No sample after t = 0 (stopped before the first): " + join(notes.unsampled, ", ") + ".";
  if (!notes.not_results.empty())
    cap += " Not results (× at the onset or where they stopped; a run that completed is drawn to its end): " +
           join(notes.not_results, ", ") + ".";
  return cap;
}

// The figure of one quantity, or the reason it is not drawn.
void timeseries_figure(const std::string& case_name, const std::vector<Run>& runs, Quantity q,
                       const std::function<bool(const Run&, std::vector<std::string>&, std::string&)>& pick,
                       std::vector<Figure>& figures, std::vector<Omitted>& omitted) {
  // A metric's symbol and unit are the registry's, so that a figure and the tables say it alike.
  if (!q.metric.empty()) {
    const MetricSpec& spec = metric_spec(q.metric);
    q.symbol = spec.symbol;
    q.unit = spec.unit == "1" ? "dimensionless" : std::string(spec.unit);
  }
  bool any_with_columns = false;
  const std::vector<RunValues> values = values_of(runs, q, pick, any_with_columns);
  if (!any_with_columns) return;  // the model reports no such quantity: nothing to omit
  if (const std::string why = why_not_drawn(q, values); !why.empty()) {
    omitted.push_back({case_name, q.section, why});
    return;
  }
  std::vector<const Style*> styles;
  std::vector<std::string> discs;
  for (const auto& v : values) styles.push_back(v.run->style), discs.push_back(v.run->discretisation);
  std::vector<std::string> titles;
  const auto groups = group(styles, discs, titles);

  Figure fig;
  fig.case_name = case_name;
  fig.section = q.section;
  fig.file = "figures/" + safe_name(case_name) + "_" + q.section + ".png";
  PanelNotes notes;
  for (size_t g = 0; g < groups.size(); ++g) {
    Panel p;
    p.title = titles[g];
    p.xlabel = "t [s]";
    const PanelAxis axis = scale_panel(p, groups[g], values, q);
    (axis.log ? notes.log_panels : notes.lin_panels).push_back(p.title);
    for (size_t i : groups[g]) p.series.push_back(timeseries_series(values[i], axis.log, axis.as_signed, notes));
    fig.panels.push_back(std::move(p));
  }
  fig.caption = timeseries_caption(q, values, fig.panels.size(), notes);
  figures.push_back(std::move(fig));
}

// Per-step cost against the size parameter of each benchmark model (benchmarks.csv), one panel per
// model and family: each panel's x axis is what its series vary.
void benchmark_figure(const CsvTable& bench, const Styles& styles, std::vector<Figure>& figures) {
  if (bench.rows.empty()) return;
  std::vector<std::string> models;
  for (const auto& r : bench.rows)
    if (std::find(models.begin(), models.end(), cell(r, "model")) == models.end()) models.push_back(cell(r, "model"));
  Figure fig;
  fig.section = "benchmarks";
  fig.file = "figures/benchmarks_scaling.png";
  fig.cols = 2;
  std::vector<std::string> fitted;
  for (const auto& model : models) {
    std::vector<std::string> integs;
    std::string size;
    for (const auto& r : rows_where(bench.rows, "model", model)) {
      if (std::find(integs.begin(), integs.end(), cell(r, "integrator")) == integs.end()) integs.push_back(cell(r, "integrator"));
      if (size.empty()) size = cell(r, "size");
    }
    if (size.empty()) size = "N, the benchmark's size parameter [dimensionless count]";
    const std::string model_title = model.empty() ? "mass-matrix factor + solve" : model;
    std::vector<const Style*> st;
    std::vector<std::string> names, discs;
    for (const auto& i : integs) {
      if (const Style* s = styles.of(i)) st.push_back(s), names.push_back(i), discs.push_back("");
    }
    std::vector<std::string> titles;
    auto groups = group(st, discs, titles);
    if (names.empty()) groups = {{}}, titles = {""};  // series of no integrator (the mass solve): one panel
    for (size_t g = 0; g < groups.size(); ++g) {
      Panel p;
      p.title = model_title + (titles[g].empty() ? "" : ": " + titles[g]);
      p.xlabel = size;
      p.ylabel = "CPU time per step [µs]";
      p.xscale = p.yscale = "log";
      auto add = [&](const std::string& integ, const std::string& colour, const std::string& line) {
        Series s;
        s.label = integ;
        s.colour = colour;
        s.line = line;
        s.marker = "o";
        s.kind = "line+markers";
        s.data = "benchmarks.csv";
        s.filter = "model=" + model + ";integrator=" + integ;
        s.x = "N";
        s.y = "ns_per_step";
        s.transform = "scale:1e-3";
        p.series.push_back(s);
      };
      if (names.empty())
        for (size_t k = 0; k < integs.size() && k < kMaxSeriesPerPanel; ++k) add(integs[k], kColours[k], kLines[k]);
      for (size_t i : groups[g]) add(names[i], st[i]->colour, st[i]->line);
      Series guide;
      guide.label = "∝ " + std::string("size (linear growth)");
      guide.kind = "slope";
      guide.colour = kGuideColour;
      guide.line = "dashed";
      guide.params = "p=1";
      p.series.push_back(guide);
      fig.panels.push_back(std::move(p));
    }
  }
  fig.caption = "CPU time per step against each benchmark model's size (string elements or cable links), log-log, "
                "one panel per model and integrator family, with a line of slope 1 (cost ∝ size) for reading the growth; "
                "fitted exponents in benchmarks.md.";
  figures.push_back(std::move(fig));
}

// ---------------------------------------------------------------- writing

std::string csv_text(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
std::string csv_number(double x) { return std::isfinite(x) ? format_g(x, 17) : ""; }

void write_files(const fs::path& dir, const std::vector<Figure>& figures, const std::vector<Omitted>& omitted) {
  std::ofstream f(dir / "figures.csv"), s(dir / "figure_series.csv"), o(dir / "figures_omitted.csv");
  if (!f || !s || !o) throw std::runtime_error("figure plan: cannot write into " + dir.string());
  f << "file,case,section,caption,panels,panel_cols\n";
  s << "file,panel,panel_title,xlabel,ylabel,xscale,yscale,ymin,ymax,series,colour,linestyle,marker,kind,data,filter,x,"
       "y,transform,hollow_where,params,result\n";
  o << "case,section,reason\n";
  for (const auto& fig : figures) {
    f << csv_text(fig.file) << ',' << csv_text(fig.case_name) << ',' << csv_text(fig.section) << ','
      << csv_text(fig.caption) << ',' << fig.panels.size() << ',' << fig.cols << '\n';
    for (size_t k = 0; k < fig.panels.size(); ++k) {
      const auto& p = fig.panels[k];
      for (const auto& x : p.series)
        s << csv_text(fig.file) << ',' << k << ',' << csv_text(p.title) << ',' << csv_text(p.xlabel) << ','
          << csv_text(p.ylabel) << ',' << p.xscale << ',' << p.yscale << ',' << csv_number(p.ymin) << ','
          << csv_number(p.ymax) << ',' << csv_text(x.label) << ',' << x.colour << ',' << csv_text(x.line) << ','
          << csv_text(x.marker) << ',' << x.kind << ',' << csv_text(x.data) << ',' << csv_text(x.filter) << ','
          << csv_text(x.x) << ',' << csv_text(x.y) << ',' << x.transform << ',' << csv_text(x.hollow_where) << ','
          << csv_text(x.params) << ',' << (x.result ? "yes" : "no") << '\n';
    }
  }
  for (const auto& m : omitted)
    o << csv_text(m.case_name) << ',' << csv_text(m.section) << ',' << csv_text(m.reason) << '\n';
}

// A case's runs as summary.csv lists them (n/a rows left out), each with its time series where
// one was written; disc_of: each run label's discretisation.
std::vector<Run> runs_of_case(const CsvTable& summary, const std::string& case_name, const fs::path& dir,
                              const Styles& styles, std::map<std::string, std::string>& disc_of) {
  std::vector<Run> runs;
  for (const auto& r : rows_where(summary.rows, "case", case_name)) {
    Run run;
    run.label = cell(r, "integrator");
    run.discretisation = cell(r, "discretisation");
    disc_of[run.label] = run.discretisation;
    run.status = cell(r, "status");
    run.not_integrated = cell(r, "not_integrated");
    run.style = styles.of(run.label);
    run.result = starts_with(run.status, "ok");
    if (starts_with(run.status, "n/a")) continue;
    run.data = case_name + "/" + run.label + "/timeseries.csv";
    if (fs::exists(dir / run.data)) read_timeseries(dir / run.data, run);
    runs.push_back(std::move(run));
  }
  return runs;
}

// The time-series figures of one case, one per quantity its runs report.
void timeseries_figures(const std::string& case_name, const std::vector<Run>& runs, std::vector<Figure>& figures,
                        std::vector<Omitted>& omitted) {
  // One column of the time series: its deviation from t = 0 (a conserved quantity), or its
  // absolute value (an error the run records itself).
  auto column_as = [](std::string column, std::string how) {
    return [column, how](const Run& r, std::vector<std::string>& cols, std::string& transform) {
      if (!r.has(column)) return false;
      cols = {column};
      transform = how;
      return true;
    };
  };
  auto single = [&](std::string column) { return column_as(column, "deviation"); };
  // The energy-balance residual wherever the model does external work (damping, control): the
  // physical dissipation itself is no error.
  auto energy = [](const Run& r, std::vector<std::string>& cols, std::string& transform) {
    if (r.has("energy_balance")) cols = {"energy_balance"}, transform = "deviation";
    else if (r.has("energy") && r.has("external_work") &&
             std::any_of(r.col.at("external_work").begin(), r.col.at("external_work").end(),
                         [](double w) { return std::isfinite(w) && w != 0.0; }))
      cols = {"energy", "external_work"}, transform = "difference_deviation";
    else if (r.has("energy")) cols = {"energy"}, transform = "deviation";
    else return false;
    return true;
  };
  auto vector = [](std::vector<std::string> columns) {
    return [columns](const Run& r, std::vector<std::string>& cols, std::string& transform) {
      for (const auto& c : columns)
        if (!r.has(c)) return false;
      cols = columns;
      transform = "norm_deviation";
      return true;
    };
  };
  auto error = [&](std::string column) { return column_as(column, "abs"); };
  timeseries_figure(case_name, runs, {"energy", "", "", "Energy error |E − E0 − W| (W: work of external forces, 0 for a conservative model)", "energy_err_max"},
                    energy, figures, omitted);
  timeseries_figure(case_name, runs, {"momentum", "", "", "Momentum-map error |π − π0|", "momentum_err_max"},
                    single("momentum"), figures, omitted);
  timeseries_figure(case_name, runs, {"linear_momentum", "", "", "Linear-momentum error ‖P − P0‖", "linear_momentum_err_max", false},
                    vector({"P_x", "P_y", "P_z"}), figures, omitted);
  timeseries_figure(case_name, runs, {"payload_position", "|Δz|", "m", "Payload's vertical displacement z − z0", ""},
                    single("payload_z"), figures, omitted);
  timeseries_figure(case_name, runs, {"payload_horizontal", "|Δx_h|", "m", "Payload's horizontal displacement ‖(x, y) − (x0, y0)‖", "", false},
                    vector({"payload_x", "payload_y"}), figures, omitted);
  timeseries_figure(case_name, runs, {"constraint", "", "", "Constraint residual max |g(q)| (m for lengths, dimensionless for unit vectors)", "constraint_err_max", false},
                    error("constraint_err"), figures, omitted);
  timeseries_figure(case_name, runs, {"orthogonality", "", "", "Orthogonality error ‖I − RᵀR‖_F", "orthogonality_err_max", false},
                    error("orthogonality_err"), figures, omitted);
}

}  // namespace figure_plan_parts

void write_figure_plan(const std::string& report_dir, const Catalogue& catalogue) {
  using namespace figure_plan_parts;
  const fs::path dir(report_dir);
  const Styles styles(catalogue.integrators);
  // The report's CSVs, each read once whichever study asks for it.
  std::map<std::string, CsvTable> tables;
  auto table = [&](const std::string& file) -> const CsvTable& {
    auto it = tables.find(file);
    if (it == tables.end()) it = tables.emplace(file, read_csv_table((dir / file).string())).first;
    return it->second;
  };
  const CsvTable& summary = table("summary.csv");

  std::vector<std::string> cases;
  for (const auto& r : summary.rows)
    if (std::find(cases.begin(), cases.end(), cell(r, "case")) == cases.end()) cases.push_back(cell(r, "case"));

  std::vector<Figure> figures;
  std::vector<Omitted> omitted;
  FigureRequest request;
  request.catalogue = &catalogue;
  request.styles = &styles;
  request.table = table;
  for (const auto& case_name : cases) {
    std::map<std::string, std::string> disc_of;
    const std::vector<Run> runs = runs_of_case(summary, case_name, dir, styles, disc_of);
    timeseries_figures(case_name, runs, figures, omitted);
    request.case_name = case_name;
    request.discretisation_of = &disc_of;
    for (const StudyInfo& study : catalogue.studies)
      if (study.figures) study.figures(request, figures);
  }
  const std::map<std::string, std::string> no_runs;
  request.case_name.clear();
  request.discretisation_of = &no_runs;
  for (const StudyInfo& study : catalogue.studies)
    if (study.figures) study.figures(request, figures);
  benchmark_figure(table("benchmarks.csv"), styles, figures);
  write_files(dir, figures, omitted);
}

}  // namespace tb
