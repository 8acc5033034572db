#pragma once
// index.md, the report's front page (issue 33 items 1 and 3): which integrator to use for what
// and why (app/judging/recommendation.hpp), the papers' verdicts in one table, then per case a headline
// table of every run over its full horizon with its figures, the rules said once, and the build.
// Written by C++ from the tables the report wrote (app/judging/report_data.hpp), after the figures were
// drawn: it links the figures of figures.csv whose file exists, so a report without plots says
// so instead of linking nothing.

#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/catalogue.hpp"
#include "app/judging/report_data.hpp"

namespace tb {

// The page's text, from a report's tables, its cases (for their models, descriptions and [case]
// restrictions) and the studies' pages (StudyInfo::pages, in the catalogue's order of studies),
// listed under "Other results" where the report holds them.
std::string index_markdown(const ReportData& data, const std::vector<Case>& cases, const std::vector<StudyPage>& study_pages);
// Writes <dir>/index.md, and the coverage matrix as coverage.md and coverage.csv (app/writing/coverage.hpp).
void write_index(const std::string& dir, const std::vector<Case>& cases, const Catalogue& catalogue);

}  // namespace tb
