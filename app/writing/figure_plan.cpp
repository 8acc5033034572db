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
#include "core/format.hpp"

namespace fs = std::filesystem;

namespace tb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// A panel is drawn on a log axis when its positive values span at least this many decades.
constexpr double kLogDecades = 2.0;

// ---------------------------------------------------------------- families and styles

// The three families a reader compares within (issue 33): what theory predicts of a method's
// conservation errors depends on these traits, not on its name.
enum class Family { Symplectic = 0, Explicit = 1, Implicit = 2 };
Family family_of(const MethodTraits& t) {
  if (t.symplectic) return Family::Symplectic;
  return t.implicit ? Family::Implicit : Family::Explicit;
}
const char* family_title(Family f) {
  switch (f) {
    case Family::Symplectic: return "symplectic";
    case Family::Explicit: return "explicit, not symplectic";
    case Family::Implicit: return "implicit, not symplectic";
  }
  return "";
}

// Eight colours told apart in print and by most colour-blind readers (Okabe-Ito without its
// yellow, plus a brown), and eight dash patterns, so a panel's series differ in both.
const std::array<const char*, kMaxSeriesPerPanel> kColours = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                              "#E69F00", "#56B4E9", "#000000", "#8C564B"};
const std::array<const char*, kMaxSeriesPerPanel> kLines = {"solid",        "dashed",    "dashdot",          "dotted",
                                                            "dash:8,2,2,2", "dash:12,3", "dash:2,2,6,2,2,2", "dash:4,1,1,1,1,1"};
// Reference lines (agreement of the references, slope guides): grey, never an integrator's colour.
constexpr const char* kGuideColour = "#777777";

struct Style {
  Family family = Family::Explicit;
  int rank = 0;  // among its family's integrators, by name: its colour and dash, and its panel chunk
  std::string colour, line;
};

// One style per integrator of the catalogue, the same in every figure; a label
// "integrator@discretisation" has its integrator's.
class Styles {
 public:
  explicit Styles(const Catalogue& catalogue) {
    std::map<Family, int> next;
    for (const auto& info : catalogue.integrators) {
      Style s;
      s.family = family_of(info.traits);
      s.rank = next[s.family]++;
      s.colour = kColours[s.rank % kMaxSeriesPerPanel];
      s.line = kLines[s.rank % kMaxSeriesPerPanel];
      by_name_[info.name] = s;
    }
  }
  // nullptr for a label whose integrator the catalogue does not hold (a plugin not loaded now).
  const Style* of(const std::string& label) const {
    const auto it = by_name_.find(label.substr(0, label.find('@')));
    return it == by_name_.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::string, Style> by_name_;
};

// ---------------------------------------------------------------- the plan

struct Series {
  std::string label;  // legend text; empty: not in the legend (a fitted law over its data)
  std::string colour, line, marker;
  std::string kind = "line";  // line | markers | line+markers | fit | hline | slope | zero
  std::string data, filter, x, y, transform = "value";
  std::string hollow_where;  // points drawn hollow where this filter holds (unresolved)
  std::string params;        // key=value;... for fit (c, p, from, to), hline (y)
  bool result = true;        // false: a run that is no result (failed, unstable, interrupted)
};
struct Panel {
  std::string title, xlabel, ylabel, xscale = "linear", yscale = "linear";
  double ymin = kNaN, ymax = kNaN;  // set from the completed runs: a failed run never scales it
  std::vector<Series> series;
};
struct Figure {
  std::string file, case_name, section, caption;
  int cols = 1;
  std::vector<Panel> panels;
};
struct Omitted {
  std::string case_name, section, reason;
};

// A number for a caption, or "n/a" where there is none (NaN, or a run that diverged).
std::string number_or_na(double x, int digits = 3) { return std::isfinite(x) ? format_g(x, digits) : "n/a"; }
double to_double(const std::string& s) {
  if (s.empty()) return kNaN;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return end == s.c_str() ? kNaN : v;
}
bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }
std::string safe_name(std::string s) {
  for (auto& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') c = '_';
  return s;
}

// Groups items into panels: by family, then discretisation (in first-seen order), then chunks of
// kMaxSeriesPerPanel by rank, so every panel's styles differ. Returns the items' indices per panel
// and each panel's title.
std::vector<std::vector<size_t>> group(const std::vector<const Style*>& styles, const std::vector<std::string>& discs,
                                       std::vector<std::string>& titles) {
  std::vector<std::string> disc_order;
  for (const auto& d : discs)
    if (std::find(disc_order.begin(), disc_order.end(), d) == disc_order.end()) disc_order.push_back(d);
  std::map<std::tuple<int, size_t, int>, std::vector<size_t>> groups;
  for (size_t i = 0; i < styles.size(); ++i) {
    const size_t d = std::find(disc_order.begin(), disc_order.end(), discs[i]) - disc_order.begin();
    groups[{static_cast<int>(styles[i]->family), d, styles[i]->rank / kMaxSeriesPerPanel}].push_back(i);
  }
  std::map<std::pair<int, size_t>, int> chunks;
  for (const auto& [key, _] : groups) ++chunks[{std::get<0>(key), std::get<1>(key)}];
  std::vector<std::vector<size_t>> out;
  titles.clear();
  for (const auto& [key, items] : groups) {
    const auto [family, d, chunk] = key;
    std::string title = family_title(static_cast<Family>(family));
    if (disc_order.size() > 1) title += ", " + (disc_order[d].empty() ? std::string("default") : disc_order[d]) + " discretisation";
    if (chunks[{family, d}] > 1) title += " (" + std::to_string(chunk + 1) + ")";
    titles.push_back(title);
    out.push_back(items);
  }
  return out;
}

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
  std::string status_time() const {
    const size_t at = starts_with(status, "unstable from t = ") ? 18 : status.rfind(" at t = ");
    if (at == std::string::npos) return "";
    const size_t from = at == 18 ? 18 : at + 8;
    return status.substr(from, status.find(' ', from) - from);
  }
  // An unstable run went on past its onset: it is drawn to its end, its × at the onset.
  double stop_t() const { return starts_with(status, "unstable from t = ") ? to_double(status_time()) : kNaN; }
  // The legend: the label and, for a run that is no result, what happened when (the tables' words).
  std::string legend() const {
    if (result) return label;
    const std::string t = status_time();
    if (starts_with(status, "unstable from t = ")) return label + " (unstable from t = " + t + " s, × there; drawn to its end)";
    if (starts_with(status, "unstable")) return label + " (diverged at t = " + t + " s)";
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
  // "|ΔE|", "J", "energy error E(t) − E(0)"; the unit of a quantity with a metric is the
  // registry's (timeseries_figure), so it is given only for quantities without one.
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
    cap += " Not results (drawn to where they stopped, ×): " + join(notes.not_results, ", ") + ".";
  return cap;
}

// The figure of one quantity, or the reason it is not drawn.
void timeseries_figure(const std::string& case_name, const std::vector<Run>& runs, Quantity q,
                       const std::function<bool(const Run&, std::vector<std::string>&, std::string&)>& pick,
                       std::vector<Figure>& figures, std::vector<Omitted>& omitted) {
  // A metric's unit is the registry's, so that a figure and the tables say it alike.
  if (!q.metric.empty()) {
    const std::string_view unit = metric_spec(q.metric).unit;
    q.unit = unit == "1" ? "dimensionless" : std::string(unit);
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

// ---------------------------------------------------------------- studies' figures

std::vector<std::map<std::string, std::string>> rows_of(const CsvTable& t, const std::string& column,
                                                        const std::string& value) {
  std::vector<std::map<std::string, std::string>> out;
  for (const auto& r : t.rows)
    if (r.count(column) && r.at(column) == value) out.push_back(r);
  return out;
}
std::string cell(const std::map<std::string, std::string>& row, const std::string& column) {
  const auto it = row.find(column);
  return it == row.end() ? "" : it->second;
}

// The sweeps of one case's work-precision rows, (integrator, parameter) in first-seen order,
// with their styles grouped into panels.
struct WorkPrecisionSweeps {
  std::vector<std::pair<std::string, std::string>> sweeps;  // (integrator, parameter)
  std::vector<const Style*> styles;
  std::vector<std::vector<size_t>> groups;
  std::vector<std::string> titles;
};
WorkPrecisionSweeps work_precision_sweeps(const std::vector<std::map<std::string, std::string>>& rows,
                                          const Styles& styles, const std::map<std::string, std::string>& disc_of) {
  WorkPrecisionSweeps out;
  for (const auto& r : rows) {
    const std::pair<std::string, std::string> k{cell(r, "integrator"), cell(r, "parameter")};
    if (styles.of(k.first) && std::find(out.sweeps.begin(), out.sweeps.end(), k) == out.sweeps.end()) out.sweeps.push_back(k);
  }
  std::vector<std::string> discs;
  for (const auto& [integ, _] : out.sweeps) {
    out.styles.push_back(styles.of(integ));
    const auto d = disc_of.find(integ);
    discs.push_back(d == disc_of.end() ? "" : d->second);
  }
  out.groups = group(out.styles, discs, out.titles);
  return out;
}

// An error measure of work_precision.csv (its columns) and a work measure to plot it against.
struct ErrorMeasure {
  std::string error, resolved, agreement, ylabel, title;
};
struct WorkMeasure {
  std::string column, label, tag;
};
const ErrorMeasure kFinalStateError{"error", "resolved", "agreement", "final-state error, max norm [mixed SI units]", ""};
const ErrorMeasure kTrajectoryErrors[] = {
    {"l2_configuration", "resolved_l2_configuration", "agreement_l2_configuration", "configuration error, L2 [m, rad]",
     "configuration, L2 over time"},
    {"l2_rate", "resolved_l2_rate", "agreement_l2_rate", "rate error, L2 [m/s, rad/s]", "rates, L2 over time"}};
const WorkMeasure kRuntimeWork{"runtime_s", "runtime of the integration [s]", "runtime"};
const WorkMeasure kRhsWork{"rhs_evals", "right-hand-side / residual evaluations [dimensionless count]", "rhs"};

// One panel of work-precision curves: each sweep of `items` error against work, and the
// references' agreement as a dotted line where the case's default reference has one.
Panel work_precision_panel(const std::string& case_name, const WorkPrecisionSweeps& w, const std::vector<size_t>& items,
                           const std::string& title, const ErrorMeasure& m, const WorkMeasure& work,
                           const std::map<std::string, std::string>& default_ref) {
  Panel p;
  p.title = title;
  p.xlabel = work.label;
  p.ylabel = m.ylabel;
  p.xscale = p.yscale = "log";
  for (size_t i : items) {
    const auto& [integrator, parameter] = w.sweeps[i];
    Series s;
    s.label = integrator + (parameter == "h" || parameter.empty() ? "" : " (" + parameter + " sweep)");
    s.colour = w.styles[i]->colour;
    s.line = w.styles[i]->line;
    s.marker = parameter == "h" ? "o" : "s";
    s.kind = "line+markers";
    s.data = "work_precision.csv";
    s.filter = "case=" + case_name + ";integrator=" + integrator + ";parameter=" + parameter + ";status^=ok";
    s.x = work.column;
    s.y = m.error;
    s.hollow_where = m.resolved + "=no";
    p.series.push_back(s);
  }
  const double a = to_double(cell(default_ref, m.agreement));
  if (std::isfinite(a) && a > 0) {
    Series s;
    s.label = "references' agreement " + number_or_na(a, 2) + " (hollow points: not above it)";
    s.kind = "hline";
    s.colour = kGuideColour;
    s.line = "dotted";
    s.params = "y=" + format_g(a, 17);
    p.series.push_back(s);
  }
  return p;
}

// The final-state figure's caption: the lowest resolved error, and the points not drawn.
std::string final_state_caption(const std::vector<std::map<std::string, std::string>>& rows) {
  double lowest = kNaN;
  std::string who;
  int failed = 0, unresolved = 0;
  for (const auto& r : rows) {
    const double e = to_double(cell(r, "error"));
    if (!starts_with(cell(r, "status"), "ok") || !(e > 0)) {
      ++failed;
      continue;
    }
    if (cell(r, "resolved") == "no") {
      ++unresolved;
      continue;
    }
    if (!(e >= lowest)) lowest = e, who = cell(r, "integrator");
  }
  std::string horizon = rows.empty() ? "" : cell(rows.front(), "horizon_s");
  std::string caption = "Final-state error against the reference (max norm of the state's components in their SI units) "
                        "against runtime; each line one integrator's sweep (o: step h, s: tolerance)" +
                        (horizon.empty() ? std::string() : ", over [0, " + number_or_na(to_double(horizon)) + "] s") + ".";
  if (std::isfinite(lowest)) caption += " Lowest resolved error: " + number_or_na(lowest) + " (" + who + ").";
  if (unresolved) caption += " " + std::to_string(unresolved) + " points not above the references' agreement (hollow).";
  if (failed) caption += " " + std::to_string(failed) + " failed or zero-error points not drawn.";
  return caption;
}

// Work-precision (final-state error, and the trajectory errors) of one case: one panel per
// family (and discretisation), points of each integrator's sweep joined coarse to fine.
void work_precision_figures(const std::string& case_name, const CsvTable& wp, const CsvTable& refs,
                            const Styles& styles, const std::map<std::string, std::string>& disc_of,
                            std::vector<Figure>& figures) {
  const auto rows = rows_of(wp, "case", case_name);
  if (rows.empty()) return;
  const WorkPrecisionSweeps w = work_precision_sweeps(rows, styles, disc_of);
  std::map<std::string, std::string> default_ref;
  for (const auto& r : rows_of(refs, "case", case_name))
    if (cell(r, "default") == "yes") default_ref = r;

  // the final-state figure
  {
    Figure fig;
    fig.case_name = case_name;
    fig.section = "work_precision";
    fig.file = "figures/" + safe_name(case_name) + "_work_precision.png";
    for (size_t g = 0; g < w.groups.size(); ++g)
      fig.panels.push_back(work_precision_panel(case_name, w, w.groups[g], w.titles[g], kFinalStateError, kRuntimeWork, default_ref));
    fig.caption = final_state_caption(rows);
    figures.push_back(std::move(fig));
  }
  // the trajectory figures, where the study measured them
  bool any_traj = false;
  for (const auto& r : rows) any_traj = any_traj || std::isfinite(to_double(cell(r, "l2_configuration")));
  if (!any_traj) return;
  for (const auto& work : {kRuntimeWork, kRhsWork}) {
    Figure fig;
    fig.case_name = case_name;
    fig.section = "work_precision";
    fig.file = "figures/" + safe_name(case_name) + "_work_precision_trajectory_" + work.tag + ".png";
    fig.cols = 2;
    for (size_t g = 0; g < w.groups.size(); ++g)
      for (const auto& m : kTrajectoryErrors)
        fig.panels.push_back(work_precision_panel(case_name, w, w.groups[g], w.titles[g] + ": " + m.title, m, work, default_ref));
    const std::string horizon = rows.empty() ? "" : cell(rows.front(), "horizon_s");
    fig.caption = "Trajectory errors on the reference grid (L2 over time, configuration left, rates right" +
                  (horizon.empty() ? std::string() : ", over [0, " + number_or_na(to_double(horizon)) + "] s") + ") against " +
                  std::string(work.tag == "runtime" ? "runtime" : "right-hand-side or residual evaluations") +
                  "; hollow points are not above the references' agreement (dotted line).";
    figures.push_back(std::move(fig));
  }
}

// |ΔE| envelopes (max over [t/2, t]) of the long-time study with their fitted laws c t^p.
void long_time_figure(const std::string& case_name, const CsvTable& laws, const CsvTable& envelopes,
                      const Styles& styles, const std::map<std::string, std::string>& disc_of,
                      std::vector<Figure>& figures) {
  std::vector<std::map<std::string, std::string>> rows;
  for (const auto& r : rows_of(laws, "case", case_name))
    if (cell(r, "quantity") == "energy" && !cell(r, "law").empty() && styles.of(cell(r, "integrator"))) rows.push_back(r);
  std::set<std::string> with_envelope;
  for (const auto& e : rows_of(envelopes, "case", case_name))
    if (cell(e, "quantity") == "energy" && to_double(cell(e, "envelope")) > 0) with_envelope.insert(cell(e, "integrator"));
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [&](const auto& r) { return !with_envelope.count(cell(r, "integrator")); }),
             rows.end());
  if (rows.empty()) return;
  std::vector<const Style*> st;
  std::vector<std::string> discs;
  for (const auto& r : rows) {
    st.push_back(styles.of(cell(r, "integrator")));
    const auto d = disc_of.find(cell(r, "integrator"));
    discs.push_back(d == disc_of.end() ? "" : d->second);
  }
  std::vector<std::string> titles;
  const auto groups = group(st, discs, titles);
  Figure fig;
  fig.case_name = case_name;
  fig.section = "long_time";
  fig.file = "figures/" + safe_name(case_name) + "_long_time.png";
  std::map<std::string, int> laws_count;
  for (size_t g = 0; g < groups.size(); ++g) {
    Panel p;
    p.title = titles[g];
    p.xlabel = "t − t0 [s]";
    p.ylabel = "max |ΔE| over [t/2, t] [J]";
    p.xscale = p.yscale = "log";
    for (size_t i : groups[g]) {
      const auto& r = rows[i];
      const std::string integ = cell(r, "integrator"), law = cell(r, "law");
      ++laws_count[law];
      Series s;
      s.label = integ + ": " + law;
      s.colour = st[i]->colour;
      s.line = st[i]->line;
      s.marker = ".";
      s.kind = "line+markers";
      s.data = "long_time_envelope.csv";
      s.filter = "case=" + case_name + ";integrator=" + integ + ";quantity=energy";
      s.x = "t";
      s.y = "envelope";
      p.series.push_back(s);
      const double c = to_double(cell(r, "coefficient")), e = to_double(cell(r, "exponent"));
      const double t0 = to_double(cell(r, "fit_from")), t1 = to_double(cell(r, "fit_to"));
      if (std::isfinite(c) && std::isfinite(e) && t0 > 0 && t1 > t0) {
        Series f = s;
        f.label.clear();  // the law is in the data series' label
        f.kind = "fit";
        f.data.clear(), f.filter.clear(), f.x.clear(), f.y.clear();
        f.params = "c=" + format_g(c, 17) + ";p=" + format_g(e, 17) + ";from=" + format_g(t0, 17) + ";to=" + format_g(t1, 17);
        p.series.push_back(f);
      }
    }
    fig.panels.push_back(std::move(p));
  }
  std::vector<std::string> counts;
  for (const auto& [law, n] : laws_count) counts.push_back(std::to_string(n) + " " + law);
  fig.caption = "Running envelope max |ΔE| over [t/2, t] of each run, with its fitted law c t^p (thick, faint). Laws: " +
                join(counts, ", ") + " (long_time.csv).";
  figures.push_back(std::move(fig));
}

// "(1/s)" at the start of a setting's meaning, "p (1/s): ..." -> "1/s"; "" when it has none.
std::string unit_of_meaning(const std::string& meaning) {
  const auto open = meaning.find('('), close = meaning.find(')');
  if (open == std::string::npos || close == std::string::npos || close < open || open > 8) return "";
  return meaning.substr(open + 1, close - open - 1);
}

// Constraint drift and runtime against one integrator setting ([report.setting_sweep]).
void setting_sweep_figure(const std::string& case_name, const CsvTable& sweeps, const Catalogue& catalogue,
                          const Styles& styles, std::vector<Figure>& figures) {
  const auto rows = rows_of(sweeps, "case", case_name);
  if (rows.empty()) return;
  const std::string integ = cell(rows.front(), "integrator"), setting = cell(rows.front(), "setting");
  const Style* st = styles.of(integ);
  if (!st) return;
  std::string unit;
  if (const auto* info = catalogue.find_integrator(integ.substr(0, integ.find('@'))))
    for (const auto& s : info->settings)
      if (s.name == setting) unit = unit_of_meaning(s.meaning);
  Figure fig;
  fig.case_name = case_name;
  fig.section = "setting_sweep";
  fig.file = "figures/" + safe_name(case_name) + "_setting_sweep.png";
  fig.cols = 2;
  bool has_zero = false;
  double best = kNaN, best_at = kNaN, at_zero = kNaN;
  for (const auto& r : rows) {
    if (!starts_with(cell(r, "status"), "ok")) continue;
    const double v = to_double(cell(r, "value")), c = to_double(cell(r, "constraint_err_max"));
    if (v == 0) has_zero = true, at_zero = c;
    if (std::isfinite(c) && !(c >= best)) best = c, best_at = v;
  }
  const std::string xlabel = setting + " [" + (unit.empty() ? "as declared by " + integ : unit) + "]";
  // No constraint panel where no run of the sweep has a constraint to drift from (a model in
  // minimal coordinates): an empty panel says nothing.
  std::vector<std::array<std::string, 3>> panels;
  bool any_constraint = false;
  for (const auto& r : rows) any_constraint = any_constraint || std::isfinite(to_double(cell(r, "constraint_err_max")));
  if (any_constraint) panels.push_back({"constraint_err_max", "max |g(q)| [m, or dimensionless]", "constraint drift"});
  panels.push_back({"runtime_s", "runtime of the integration [s]", "cost"});
  fig.cols = int(panels.size());
  for (const auto& [column, ylabel, what] : panels) {
    Panel p;
    p.title = what;
    p.xlabel = xlabel;
    p.ylabel = ylabel;
    p.xscale = has_zero ? "symlog" : "log";
    p.yscale = "log";
    Series s;
    s.label = integ;
    s.colour = st->colour;
    s.line = st->line;
    s.marker = "o";
    s.kind = "line+markers";
    s.data = "setting_sweep.csv";
    s.filter = "case=" + case_name + ";integrator=" + integ + ";status^=ok";
    s.x = "value";
    s.y = column;
    p.series.push_back(s);
    fig.panels.push_back(std::move(p));
  }
  fig.caption = integ + (any_constraint ? "'s constraint drift (left) and runtime (right)" : "'s runtime (no run has a constraint to drift from)") +
                " against its setting " + setting +
                (has_zero ? " (symmetric-log x axis: it includes 0)" : "") + ".";
  if (std::isfinite(at_zero)) fig.caption += " At " + setting + " = 0 max |g| = " + number_or_na(at_zero) + ";";
  if (std::isfinite(best)) fig.caption += " smallest max |g| " + number_or_na(best) + " at " + setting + " = " + number_or_na(best_at) + ".";
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
    for (const auto& r : rows_of(bench, "model", model)) {
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

// The largest stable step h_max against each swept [model] key (stability_map.csv rows with a
// `swept` key), log-log, one panel per (case, key) and family; hollow where the implicit solver
// fails before the method goes unstable. The fitted exponents p of h_max ~ value^p
// (stability_exponents.csv) are the caption's.
void stability_figure(const CsvTable& map, const CsvTable& exponents, const Styles& styles, std::vector<Figure>& figures) {
  std::vector<std::pair<std::string, std::string>> sweeps;  // (case, key) in first-seen order
  for (const auto& r : map.rows)
    if (!cell(r, "swept").empty() && std::find(sweeps.begin(), sweeps.end(), std::pair{cell(r, "case"), cell(r, "swept")}) == sweeps.end())
      sweeps.emplace_back(cell(r, "case"), cell(r, "swept"));
  if (sweeps.empty()) return;
  Figure fig;
  fig.section = "stability";
  fig.file = "figures/stability_map_sweeps.png";
  fig.cols = 2;
  for (const auto& [case_name, key] : sweeps) {
    std::vector<std::string> runs;
    for (const auto& r : map.rows)
      if (cell(r, "case") == case_name && cell(r, "swept") == key && std::find(runs.begin(), runs.end(), cell(r, "run")) == runs.end())
        runs.push_back(cell(r, "run"));
    std::vector<const Style*> st;
    std::vector<std::string> names, discs;
    for (const auto& run : runs)
      if (const Style* s = styles.of(run)) st.push_back(s), names.push_back(run), discs.push_back("");
    std::vector<std::string> titles;
    const auto groups = group(st, discs, titles);
    for (size_t g = 0; g < groups.size(); ++g) {
      Panel p;
      p.title = case_name + ": " + titles[g];
      p.xlabel = key + " [the case's [model] unit]";
      p.ylabel = "largest stable step h_max [s]";
      p.xscale = p.yscale = "log";
      for (size_t i : groups[g]) {
        Series s;
        s.label = names[i];
        s.colour = st[i]->colour;
        s.line = st[i]->line;
        s.marker = "o";
        s.kind = "line+markers";
        s.data = "stability_map.csv";
        s.filter = "case=" + case_name + ";swept=" + key + ";run=" + names[i] + ";bound=bracketed";
        s.x = "value";
        s.y = "h_max";
        s.hollow_where = "limit=solver failure";
        p.series.push_back(s);
      }
      fig.panels.push_back(std::move(p));
    }
  }
  // The fitted exponents p of h_max ∝ value^p per (case, key): their range in the caption, every
  // one in stability_exponents.csv.
  std::map<std::string, std::pair<double, double>> range;
  std::vector<std::string> order;
  for (const auto& r : exponents.rows)
    for (const char* column : {"p", "p_solver"}) {
      const double p = to_double(cell(r, column));
      if (!std::isfinite(p)) continue;
      const std::string key = cell(r, "case") + " " + cell(r, "swept");
      if (!range.count(key)) range[key] = {p, p}, order.push_back(key);
      range[key] = {std::min(range[key].first, p), std::max(range[key].second, p)};
    }
  std::vector<std::string> fits;
  for (const auto& key : order) fits.push_back(key + ": " + number_or_na(range[key].first) + " to " + number_or_na(range[key].second));
  fig.caption = "Largest stable step h_max against each swept model parameter (each probe at least 10^4 steps or the "
                "case's t_end); hollow: the implicit solver fails before the method goes unstable. Fitted exponents p of "
                "h_max ∝ value^p over the methods (each in stability_exponents.csv): " +
                (fits.empty() ? std::string("none") : join(fits, "; ")) + ".";
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

}  // namespace

namespace {

// A case's runs as summary.csv lists them (n/a rows left out), each with its time series where
// one was written; disc_of: each run label's discretisation.
std::vector<Run> runs_of_case(const CsvTable& summary, const std::string& case_name, const fs::path& dir,
                              const Styles& styles, std::map<std::string, std::string>& disc_of) {
  std::vector<Run> runs;
  for (const auto& r : rows_of(summary, "case", case_name)) {
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
  timeseries_figure(case_name, runs, {"energy", "|ΔE|", "", "Energy error |E − E0 − W| (W: work of external forces, 0 for a conservative model)", "energy_err_max"},
                    energy, figures, omitted);
  timeseries_figure(case_name, runs, {"momentum", "|Δπ|", "", "Momentum-map error |π − π0|", "momentum_err_max"},
                    single("momentum"), figures, omitted);
  timeseries_figure(case_name, runs, {"linear_momentum", "|ΔP|", "", "Linear-momentum error ‖P − P0‖", "linear_momentum_err_max", false},
                    vector({"P_x", "P_y", "P_z"}), figures, omitted);
  timeseries_figure(case_name, runs, {"payload_position", "|Δz|", "m", "Payload's vertical displacement z − z0", ""},
                    single("payload_z"), figures, omitted);
  timeseries_figure(case_name, runs, {"payload_horizontal", "|Δx_h|", "m", "Payload's horizontal displacement ‖(x, y) − (x0, y0)‖", "", false},
                    vector({"payload_x", "payload_y"}), figures, omitted);
  timeseries_figure(case_name, runs, {"constraint", "|g(q)|", "", "Constraint residual max |g(q)| (m for lengths, dimensionless for unit vectors)", "constraint_err_max", false},
                    error("constraint_err"), figures, omitted);
  timeseries_figure(case_name, runs, {"orthogonality", "‖I − RᵀR‖_F", "", "Orthogonality error ‖I − RᵀR‖_F", "orthogonality_err_max", false},
                    error("orthogonality_err"), figures, omitted);
}

}  // namespace

void write_figure_plan(const std::string& report_dir, const Catalogue& catalogue) {
  const fs::path dir(report_dir);
  const Styles styles(catalogue);
  const CsvTable summary = read_csv_table((dir / "summary.csv").string());
  const CsvTable wp = read_csv_table((dir / "work_precision.csv").string());
  const CsvTable refs = read_csv_table((dir / "references.csv").string());
  const CsvTable laws = read_csv_table((dir / "long_time.csv").string());
  const CsvTable envelopes = read_csv_table((dir / "long_time_envelope.csv").string());
  const CsvTable sweeps = read_csv_table((dir / "setting_sweep.csv").string());
  const CsvTable bench = read_csv_table((dir / "benchmarks.csv").string());

  std::vector<std::string> cases;
  for (const auto& r : summary.rows)
    if (std::find(cases.begin(), cases.end(), cell(r, "case")) == cases.end()) cases.push_back(cell(r, "case"));

  std::vector<Figure> figures;
  std::vector<Omitted> omitted;
  for (const auto& case_name : cases) {
    std::map<std::string, std::string> disc_of;
    const std::vector<Run> runs = runs_of_case(summary, case_name, dir, styles, disc_of);
    timeseries_figures(case_name, runs, figures, omitted);
    work_precision_figures(case_name, wp, refs, styles, disc_of, figures);
    long_time_figure(case_name, laws, envelopes, styles, disc_of, figures);
    setting_sweep_figure(case_name, sweeps, catalogue, styles, figures);
  }
  stability_figure(read_csv_table((dir / "stability_map.csv").string()),
                   read_csv_table((dir / "stability_exponents.csv").string()), styles, figures);
  benchmark_figure(bench, styles, figures);
  write_files(dir, figures, omitted);
}

}  // namespace tb
