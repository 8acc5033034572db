// The stability map's figure in a report: h_max against each swept [model] key, over every case
// (stability_map.csv, stability_exponents.csv), in the report's styles
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
#include "studies/stability_map/stability_map.hpp"

namespace tb {

// Named, not anonymous: the studies compile in unity batches, where an anonymous namespace
// and its using-directive would reach the other files of the batch.
namespace stability_map_figure_parts {

using namespace figure_kit;

// The largest stable step h_max against each swept [model] key (stability_map.csv rows with a
// `swept` key), log-log, one panel per (case, key) and family; hollow where the implicit solver
// fails before the method goes unstable. The fitted exponents p of h_max ~ value^p
// (stability_exponents.csv) are the caption's.
void report_figure(const CsvTable& map, const CsvTable& exponents, const Styles& styles, std::vector<Figure>& figures) {
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
        Series s = table_series(names[i], *st[i], "stability_map.csv",
                                "case=" + case_name + ";swept=" + key + ";run=" + names[i] + ";bound=bracketed", "value", "h_max");
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
}  // namespace stability_map_figure_parts

void stability_map_figures(const FigureRequest& request, std::vector<Figure>& figures) {
  if (!request.case_name.empty()) return;  // one figure over every case
  stability_map_figure_parts::report_figure(request.table("stability_map.csv"), request.table("stability_exponents.csv"), *request.styles, figures);
}

}  // namespace tb
