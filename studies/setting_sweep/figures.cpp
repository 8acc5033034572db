// The setting sweep's figure in a report: per case, the constraint drift and the runtime against
// the swept integrator setting (setting_sweep.csv), in the report's styles
// (app/common/figure_kit.hpp). StudyInfo::figures (app/input/study.hpp).

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "app/common/csv_table.hpp"
#include "app/common/run_label_parts.hpp"
#include "app/common/figure_kit.hpp"
#include "app/input/catalogue.hpp"
#include "core/format.hpp"
#include "studies/setting_sweep/setting_sweep.hpp"

namespace tb {

// Named, not anonymous: the studies compile in unity batches, where an anonymous namespace
// and its using-directive would reach the other files of the batch.
namespace setting_sweep_figure_parts {

using namespace figure_kit;

// "(1/s)" at the start of a setting's meaning, "p (1/s): ..." -> "1/s"; "" when it has none.
std::string unit_of_meaning(const std::string& meaning) {
  const auto open = meaning.find('('), close = meaning.find(')');
  if (open == std::string::npos || close == std::string::npos || close < open || open > 8) return "";
  return meaning.substr(open + 1, close - open - 1);
}

// Constraint drift and runtime against one integrator setting ([report.setting_sweep]).
void case_figure(const std::string& case_name, const CsvTable& sweeps, const Catalogue& catalogue,
                          const Styles& styles, std::vector<Figure>& figures) {
  const auto rows = rows_where(sweeps.rows, "case", case_name);
  if (rows.empty()) return;
  const std::string integ = cell(rows.front(), "integrator"), setting = cell(rows.front(), "setting");
  const Style* st = styles.of(integ);
  if (!st) return;
  std::string unit;
  if (const auto* info = catalogue.find_integrator(integrator_of_label(integ)))
    for (const auto& s : info->settings)
      if (s.name == setting) unit = unit_of_meaning(s.meaning);
  Figure fig;
  fig.case_name = case_name;
  fig.section = "setting_sweep";
  fig.file = "figures/" + safe_name(case_name) + "_setting_sweep.png";
  fig.cols = 2;
  bool has_zero = false;
  double best = figure_kit::kNaN, best_at = figure_kit::kNaN, at_zero = figure_kit::kNaN;
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
    p.series.push_back(
        table_series(integ, *st, "setting_sweep.csv", "case=" + case_name + ";integrator=" + integ + ";status^=ok", "value", column));
    fig.panels.push_back(std::move(p));
  }
  fig.caption = integ + (any_constraint ? "'s constraint drift (left) and runtime (right)" : "'s runtime (no run has a constraint to drift from)") +
                " against its setting " + setting +
                (has_zero ? " (symmetric-log x axis: it includes 0)" : "") + ".";
  if (std::isfinite(at_zero)) fig.caption += " At " + setting + " = 0 max |g| = " + number_or_na(at_zero) + ";";
  if (std::isfinite(best)) fig.caption += " smallest max |g| " + number_or_na(best) + " at " + setting + " = " + number_or_na(best_at) + ".";
  figures.push_back(std::move(fig));
}
}  // namespace setting_sweep_figure_parts

void setting_sweep_figures(const FigureRequest& request, std::vector<Figure>& figures) {
  if (request.case_name.empty()) return;  // every figure is a case's
  setting_sweep_figure_parts::case_figure(request.case_name, request.table("setting_sweep.csv"), *request.catalogue, *request.styles, figures);
}

}  // namespace tb
