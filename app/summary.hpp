#pragma once
// The summary table (SPEC "Metrics"; column list fixed by the command-line contract) as CSV
// and Markdown.

#include <string>
#include <vector>

#include "app/runner.hpp"

namespace tb {

// The cell of a metric the run's formulation cannot violate (ViolableInvariants) in summary.md
// and the studies' Markdown tables; the CSVs leave it empty.
inline constexpr const char* kNotIntegrated = "n/a (not integrated)";

const std::vector<std::string>& summary_columns();
// The cells as summary.md shows them (kNotIntegrated where a metric was not integrated).
std::vector<std::string> summary_values(const SummaryRow& row);

// InputError when `path` exists with a header other than summary_columns(): a foreign file is
// never appended to. Call before running.
void check_summary_appendable(const std::string& path);
// Appends one row, writing the header first if the file is new or empty.
void append_summary_csv(const std::string& path, const SummaryRow& row);
void write_summary_csv(const std::string& path, const std::vector<SummaryRow>& rows);
// One Markdown table per case, rows in integrator order.
void write_summary_markdown(const std::string& path, const std::vector<SummaryRow>& rows);

}  // namespace tb
