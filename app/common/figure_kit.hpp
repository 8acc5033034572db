#pragma once
// What a figure of the report is, as the figure plan writes it (figures.csv, figure_series.csv:
// app/writing/figure_plan.hpp) and scripts/plot_report.py draws it, and the pieces every figure
// shares: one style per integrator (the same colour and dash in every figure), the grouping of
// series into panels by integrator family and discretisation, and how a cell of a report's CSV
// reads. The report's own figures (the time series, the benchmarks) and each study's (its
// StudyInfo::figures, app/input/study.hpp) are built from these, so a study, shipped or from a
// plugin, draws its figures in the report's styles without the figure plan knowing it.

#include <array>
#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/integrator.hpp"

namespace tb {

inline constexpr int kMaxSeriesPerPanel = 8;

namespace figure_kit {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Eight colours told apart in print and by most colour-blind readers (Okabe-Ito without its
// yellow, plus a brown), and eight dash patterns, so a panel's series differ in both.
inline constexpr std::array<const char*, kMaxSeriesPerPanel> kColours = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                                         "#E69F00", "#56B4E9", "#000000", "#8C564B"};
inline constexpr std::array<const char*, kMaxSeriesPerPanel> kLines = {
    "solid", "dashed", "dashdot", "dotted", "dash:8,2,2,2", "dash:12,3", "dash:2,2,6,2,2,2", "dash:4,1,1,1,1,1"};
// Reference lines (agreement of the references, slope guides): grey, never an integrator's colour.
inline constexpr const char* kGuideColour = "#777777";

// The three families a reader compares within (issue 33): what theory predicts of a method's
// conservation errors depends on these traits, not on its name.
enum class Family { Symplectic = 0, Explicit = 1, Implicit = 2 };
Family family_of(const MethodTraits& t);
const char* family_title(Family f);

struct Style {
  Family family = Family::Explicit;
  int rank = 0;  // among its family's integrators, by name: its colour and dash, and its panel chunk
  std::string colour, line;
};

// One style per integrator of the catalogue, the same in every figure; a label
// "integrator@discretisation" has its integrator's.
class Styles {
 public:
  explicit Styles(const std::vector<IntegratorInfo>& integrators);
  // nullptr for a label whose integrator the catalogue does not hold (a plugin not loaded now).
  const Style* of(const std::string& label) const;

 private:
  std::map<std::string, Style> by_name_;
};

// ---------------------------------------------------------------- the plan's records

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

// An integrator's series of points read from a table of the report: `label` in the integrator's
// style, the (x, y) of the rows of `data` that pass `filter` (plot_report.py's "column=value;
// column^=prefix"), joined by lines and marked "o" (change kind and marker after where not).
Series table_series(const std::string& label, const Style& style, const std::string& data, const std::string& filter,
                    const std::string& x, const std::string& y);

}  // namespace figure_kit

// One figure: its file (relative to the report), its case (empty for a report-wide figure), the
// section it belongs to (a study's name, or the time series' quantity), its caption (numbers
// computed from the data) and its panels, `cols` to a row.
struct Figure {
  std::string file, case_name, section, caption;
  int cols = 1;
  std::vector<figure_kit::Panel> panels;
};

namespace figure_kit {

// Groups items into panels: by family, then discretisation (in first-seen order), then chunks of
// kMaxSeriesPerPanel by rank, so every panel's styles differ. Returns the items' indices per panel
// and each panel's title.
std::vector<std::vector<std::size_t>> group(const std::vector<const Style*>& styles, const std::vector<std::string>& discs,
                                            std::vector<std::string>& titles);

// ---------------------------------------------------------------- reading a report's CSV

using Row = std::map<std::string, std::string>;
// The rows whose `column` is `value`, in the table's order.
std::vector<Row> rows_where(const std::vector<Row>& rows, const std::string& column, const std::string& value);
// The row's cell, "" where the row has no such column.
std::string cell(const Row& row, const std::string& column);
// The number a cell holds; NaN for an empty or non-numeric cell.
double to_double(const std::string& s);
// A number for a caption, or "n/a" where there is none (NaN, or a run that diverged).
std::string number_or_na(double x, int digits = 3);
bool starts_with(const std::string& s, const std::string& prefix);
// A case or run name as a file name: every character but letters, digits, '_', '-', '.' as '_'.
std::string safe_name(std::string s);

}  // namespace figure_kit
}  // namespace tb
