#pragma once
// Which figures a report has, and what each one draws, decided here from the data the runs
// wrote (issue 33 items 4-5): scripts/plot_report.py only draws what this plan lists, and the
// report's index links the listed figures whose file exists. Written after the tables and the
// benchmarks, before the plots:
//
//   <report>/figures.csv          one row per figure: file (relative to the report), case (empty
//                                 for a report-wide figure), section, caption (numbers computed
//                                 here from the data), panel_rows, panel_cols
//   <report>/figure_series.csv    one row per drawn series: its figure and panel, the panel's axes
//                                 (labels with units, lin/log, y-limits), the series' legend label,
//                                 colour and line style, and where its points come from (data file,
//                                 row filter, x and y columns, transform)
//   <report>/figures_omitted.csv  case,section,reason of each figure deliberately not drawn (an
//                                 identically-zero quantity, one no run integrates)
//
// Series are grouped into panels by integrator family, read off IntegratorInfo::traits
// (symplectic; explicit, not symplectic; implicit, not symplectic) and by discretisation, at most
// kMaxSeriesPerPanel to a panel; an integrator has the same colour and line style in every
// figure, distinct from the others of its family.

#include <string>

#include "app/common/figure_kit.hpp"
#include "app/input/catalogue.hpp"

namespace tb {

// Reads <report_dir>/summary.csv (the runs, their status and what each integrates) and the runs'
// time series for the report's own figures, asks each study of the catalogue for its figures
// (StudyInfo::figures: per case after the time series, then the report-wide ones), adds the
// benchmarks' figure, and writes the three files above.
// Throws std::runtime_error when it cannot write them.
void write_figure_plan(const std::string& report_dir, const Catalogue& catalogue);

}  // namespace tb
