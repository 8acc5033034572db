// The energy-balance study's figure in a report: per case, each fixed-step run's balance residual
// max |E - E0 - W| against h, log-log, one panel per integrator family (and discretisation), hollow
// where the residual is not 10x above the run's round-off floor (energy_balance.csv), in the
// report's styles (app/common/figure_kit.hpp). StudyInfo::figures (app/input/study.hpp).

#include <algorithm>
#include <string>
#include <vector>

#include "app/common/csv_table.hpp"
#include "app/common/figure_kit.hpp"
#include "studies/energy_balance/energy_balance.hpp"

namespace tb {

void energy_balance_figures(const FigureRequest& request, std::vector<Figure>& figures) {
  namespace fk = figure_kit;
  if (request.case_name.empty()) return;  // every figure is a case's
  const std::vector<fk::Row> rows = fk::rows_where(request.table("energy_balance.csv").rows, "case", request.case_name);
  std::vector<std::string> labels;
  for (const auto& r : rows)
    if (request.styles->of(fk::cell(r, "integrator")) &&
        std::find(labels.begin(), labels.end(), fk::cell(r, "integrator")) == labels.end())
      labels.push_back(fk::cell(r, "integrator"));
  if (labels.empty()) return;
  std::vector<const fk::Style*> styles;
  std::vector<std::string> discs;
  for (const auto& label : labels) {
    styles.push_back(request.styles->of(label));
    const auto d = request.discretisation_of->find(label);
    discs.push_back(d == request.discretisation_of->end() ? "" : d->second);
  }
  std::vector<std::string> titles;
  const auto groups = fk::group(styles, discs, titles);
  Figure fig;
  fig.case_name = request.case_name;
  fig.section = "energy_balance";
  fig.file = "figures/" + fk::safe_name(request.case_name) + "_energy_balance.png";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    fk::Panel p;
    p.title = titles[g];
    p.xlabel = "step h [s]";
    p.ylabel = "max |E − E0 − W| over the horizon [J]";
    p.xscale = p.yscale = "log";
    for (std::size_t i : groups[g]) {
      fk::Series s = fk::table_series(labels[i], *styles[i], "energy_balance.csv",
                                      "case=" + request.case_name + ";integrator=" + labels[i] + ";role=run;status^=ok", "h",
                                      "balance_err_max");
      s.hollow_where = "resolved=no";
      p.series.push_back(s);
    }
    fig.panels.push_back(std::move(p));
  }
  fig.caption = "Energy-balance residual max |E − E0 − W| of each fixed-step run against its step h, over the study's "
                "horizon; hollow points are not 10× above the run's round-off floor of E and W; a run that failed at a "
                "step is not drawn there (energy_balance.csv says why). Its orders, and those of the energy's and the "
                "work's errors at the horizon's end, against the declared ones: energy_balance.md.";
  figures.push_back(std::move(fig));
}

}  // namespace tb
