#include "studies/snap/side_runs.hpp"

#include <cmath>

#include "app/common/csv_table.hpp"
#include "core/format.hpp"

namespace tb::snap {

void write_side_run(std::ostream& csv, const SideRunRow& row) {
  // An empty cell, not a number, where the run has none (a failed run, a switch not made, a quantity not judged).
  const auto cell = [](double x) { return std::isfinite(x) ? format_g(x, 10) : std::string(); };
  const auto count = [](int n) { return n >= 0 ? std::to_string(n) : std::string(); };
  csv << csv_quoted(row.case_name) << ',' << csv_quoted(row.integrator) << ',' << format_g(row.nominal_h, 10) << ',' << row.kind << ','
      << format_g(row.h, 12) << ',' << (row.completed ? "yes" : "no") << ',' << row.switches << ',' << count(row.matched) << ','
      << count(row.expected) << ',' << cell(row.first_snap_offset) << ',' << cell(row.loss_minus_closed) << ',' << cell(row.position_error)
      << ',';
  for (size_t k = 0; k < row.per_snap_loss.size(); ++k) csv << (k ? ";" : "") << cell(row.per_snap_loss[k]);
  csv << '\n';
}

}  // namespace tb::snap
