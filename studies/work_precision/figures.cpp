// The work-precision study's figures in a report: per case, the final-state error against runtime
// and, where the study measured them, the trajectory errors against runtime and against
// right-hand-side evaluations (work_precision.csv, references.csv), in the report's styles
// (app/common/figure_kit.hpp). StudyInfo::figures (app/input/study.hpp).

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/common/csv_table.hpp"
#include "app/common/figure_kit.hpp"
#include "core/format.hpp"
#include "studies/work_precision/work_precision.hpp"

namespace tb {

// Named, not anonymous: the studies compile in unity batches, where an anonymous namespace
// and its using-directive would reach the other files of the batch.
namespace work_precision_figure_parts {

using namespace figure_kit;

// The sweeps of one case's work-precision rows, (integrator, parameter) in first-seen order,
// with their styles grouped into panels.
struct WorkPrecisionSweeps {
  std::vector<std::pair<std::string, std::string>> sweeps;  // (integrator, parameter)
  std::vector<const Style*> styles;
  std::vector<std::vector<size_t>> groups;
  std::vector<std::string> titles;
};
WorkPrecisionSweeps work_precision_sweeps(const std::vector<Row>& rows,
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
    Series s = table_series(integrator + (parameter == "h" || parameter.empty() ? "" : " (" + parameter + " sweep)"),
                            *w.styles[i], "work_precision.csv",
                            "case=" + case_name + ";integrator=" + integrator + ";parameter=" + parameter + ";status^=ok",
                            work.column, m.error);
    s.marker = parameter == "h" ? "o" : "s";
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
std::string final_state_caption(const std::vector<Row>& rows) {
  double lowest = figure_kit::kNaN;
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
void case_figures(const std::string& case_name, const CsvTable& wp, const CsvTable& refs,
                            const Styles& styles, const std::map<std::string, std::string>& disc_of,
                            std::vector<Figure>& figures) {
  const auto rows = rows_where(wp.rows, "case", case_name);
  if (rows.empty()) return;
  const WorkPrecisionSweeps w = work_precision_sweeps(rows, styles, disc_of);
  std::map<std::string, std::string> default_ref;
  for (const auto& r : rows_where(refs.rows, "case", case_name))
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
}  // namespace work_precision_figure_parts

void work_precision_figures(const FigureRequest& request, std::vector<Figure>& figures) {
  if (request.case_name.empty()) return;  // every figure is a case's
  work_precision_figure_parts::case_figures(request.case_name, request.table("work_precision.csv"), request.table("references.csv"),
              *request.styles, *request.discretisation_of, figures);
}

}  // namespace tb
