#pragma once
// The measured orders quoted in cases/README.md, generated from a report's orders.csv (issue 32:
// the README quoted a 4th-order method at -1.4/-0.4 on a Model C case long after orders.csv gave 3.99).
// The README holds one block between the markers below; `tetherbench readme-orders ORDERS_CSV...
// [--readme FILE]` renders it from one or more orders.csv files (a main job's, or single-case
// studies') and replaces the block in FILE, and tests/test_readme_orders.cpp fails when the block
// disagrees with what the study now measures.

#include <string>
#include <vector>

namespace tb {

inline constexpr const char* kOrdersBlockBegin =
    "<!-- BEGIN generated orders: `tetherbench readme-orders REPORT/orders.csv --readme cases/README.md`; do not edit -->";
inline constexpr const char* kOrdersBlockEnd = "<!-- END generated orders -->";

// The block (markers included): one table row per fixed-step run of the files, in their order
// (case, run, declared order, measured order with its 95% interval or "inconclusive", the steps
// and errors fitted, points, flag). InputError when a file is missing or is not an orders.csv.
std::string render_orders_block(const std::vector<std::string>& orders_csv_files);

// `text` with its one block replaced by `block`; InputError naming `where` when the markers are
// missing, repeated or out of order.
std::string replace_orders_block(const std::string& text, const std::string& block, const std::string& where);

// One row of a block as a reader sees it: case, run and the measured-order cell.
struct QuotedOrder {
  std::string case_name, run, measured, flag;
};
// The rows of the block in `text` (InputError naming `where` without one).
std::vector<QuotedOrder> quoted_orders(const std::string& text, const std::string& where);
// The measured-order cell of an orders.csv row: "4.00 ± 0.01", or "inconclusive".
std::string measured_order_cell(const std::string& measured_order, const std::string& ci95);

}  // namespace tb
