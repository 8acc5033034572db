// The long-time study's figure in a report: per case, each run's running envelope of |ΔE| with
// its fitted growth law (long_time.csv, long_time_envelope.csv), in the report's styles
// (app/common/figure_kit.hpp). StudyInfo::figures (app/input/study.hpp).

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/common/csv_table.hpp"
#include "app/common/figure_kit.hpp"
#include "core/format.hpp"
#include "studies/long_time/long_time.hpp"

namespace tb {

// Named, not anonymous: the studies compile in unity batches, where an anonymous namespace
// and its using-directive would reach the other files of the batch.
namespace long_time_figure_parts {

using namespace figure_kit;

// |ΔE| envelopes (max over [t/2, t]) of the long-time study with their fitted laws c t^p.
void case_figure(const std::string& case_name, const CsvTable& laws, const CsvTable& envelopes,
                      const Styles& styles, const std::map<std::string, std::string>& disc_of,
                      std::vector<Figure>& figures) {
  std::vector<Row> rows;
  for (const auto& r : rows_where(laws.rows, "case", case_name))
    if (cell(r, "quantity") == "energy" && !cell(r, "law").empty() && styles.of(cell(r, "integrator"))) rows.push_back(r);
  std::set<std::string> with_envelope;
  for (const auto& e : rows_where(envelopes.rows, "case", case_name))
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
      Series s = table_series(integ + ": " + law, *st[i], "long_time_envelope.csv",
                              "case=" + case_name + ";integrator=" + integ + ";quantity=energy", "t", "envelope");
      s.marker = ".";
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
}  // namespace long_time_figure_parts

void long_time_figures(const FigureRequest& request, std::vector<Figure>& figures) {
  if (request.case_name.empty()) return;  // every figure is a case's
  long_time_figure_parts::case_figure(request.case_name, request.table("long_time.csv"), request.table("long_time_envelope.csv"), *request.styles,
              *request.discretisation_of, figures);
}

}  // namespace tb
