#pragma once
// The summary table (SPEC "Metrics"; column list fixed by the command-line contract) as CSV; its
// Markdown tables are app/writing/summary_markdown.hpp's. The metric columns are the registry's
// (core/metric_registry.hpp); a metric added there is a column here.

#include <string>
#include <vector>

#include "app/running/runner.hpp"
#include "app/writing/summary_markdown.hpp"

namespace tb {

const std::vector<std::string>& summary_columns();
// The columns of whole counts (steps, evaluations, timing passes): integer where a reader types them.
const std::vector<std::string>& summary_count_columns();
// The cells with "n/a (<why>)" where a metric was not integrated (app/judging/metric_cells.hpp:
// not_applicable_cell); summary.csv leaves those empty.
std::vector<std::string> summary_values(const SummaryRow& row);

// InputError when `path` exists with a header other than summary_columns(): a foreign file is
// never appended to. Call before running.
void check_summary_appendable(const std::string& path);
// Appends one row, writing the header first if the file is new or empty.
void append_summary_csv(const std::string& path, const SummaryRow& row);
void write_summary_csv(const std::string& path, const std::vector<SummaryRow>& rows);
// The same with columns of the caller's after the summary's (one vector of values per row).
void write_summary_csv(const std::string& path, const std::vector<SummaryRow>& rows,
                       const std::vector<std::string>& extra_columns, const std::vector<std::vector<std::string>>& extra_values);
// What write_summary_csv writes, as text (the Python package's DataFrames are read from it).
std::string summary_csv_text(const std::vector<SummaryRow>& rows);

}  // namespace tb
