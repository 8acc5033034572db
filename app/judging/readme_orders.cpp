#include "app/judging/readme_orders.hpp"

#include <filesystem>

#include "app/common/csv_table.hpp"
#include "app/common/markdown_table.hpp"
#include "core/table_reader.hpp"

namespace tb {

namespace {
std::string cell(const std::map<std::string, std::string>& row, const std::string& column) {
  const auto it = row.find(column);
  std::string out = it == row.end() ? std::string() : it->second;
  for (auto& ch : out)
    if (ch == '|') ch = '/';  // a table cell
  return out;
}
// A table row's cells, trimmed ("| a | b |" -> {a, b}).
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> out;
  size_t at = line.find('|');
  while (at != std::string::npos) {
    const size_t next = line.find('|', at + 1);
    if (next == std::string::npos) break;
    std::string c = line.substr(at + 1, next - at - 1);
    const size_t b = c.find_first_not_of(' '), e = c.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? std::string() : c.substr(b, e - b + 1));
    at = next;
  }
  return out;
}
}  // namespace

std::string measured_order_cell(const std::string& measured_order, const std::string& ci95) {
  if (measured_order.empty()) return "inconclusive";
  return measured_order + (ci95.empty() ? "" : " ± " + ci95);
}

std::string render_orders_block(const std::vector<std::string>& files) {
  std::string out = std::string(kOrdersBlockBegin) + "\n\n";
  out += "| case | run | declared | measured (95%) | h fitted | errors fitted | points | flag |\n";
  out += "|---|---|---:|---|---|---|---|---|\n";
  for (const auto& file : files) {
    if (!std::filesystem::exists(file)) throw InputError(file + ": no such orders.csv");
    const CsvTable t = read_csv_table(file);
    for (const char* column : {"case", "integrator", "declared_order", "measured_order", "order_ci95", "flag"})
      if (!t.has(column)) throw InputError(file + ": not an orders.csv (no column '" + std::string(column) + "')");
    for (const auto& r : t.rows) {
      const bool fitted = !cell(r, "measured_order").empty();
      out += "| " + cell(r, "case") + " | " + cell(r, "integrator") + " | " + cell(r, "declared_order") + " | " +
             measured_order_cell(cell(r, "measured_order"), cell(r, "order_ci95")) + " | " +
             (fitted ? cell(r, "h_min") + " – " + cell(r, "h_max") : "—") + " | " +
             (fitted ? cell(r, "error_min") + " – " + cell(r, "error_max") : "—") + " | " + cell(r, "points") + " | " +
             (cell(r, "flag").empty() ? "—" : cell(r, "flag")) + " |\n";
    }
  }
  return out + "\n" + kOrdersBlockEnd;
}

std::string replace_orders_block(const std::string& text, const std::string& block, const std::string& where) {
  return markdown::replace_block(text, kOrdersBlockBegin, kOrdersBlockEnd, block, where);
}

std::vector<QuotedOrder> quoted_orders(const std::string& text, const std::string& where) {
  const size_t begin = text.find(kOrdersBlockBegin), end = text.find(kOrdersBlockEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin)
    throw InputError(where + ": no generated orders block");
  std::vector<QuotedOrder> out;
  size_t at = begin;
  while (true) {
    const size_t line_end = text.find('\n', at);
    if (line_end == std::string::npos || line_end >= end) break;
    const std::string line = text.substr(at, line_end - at);
    at = line_end + 1;
    const auto c = cells_of(line);
    if (c.size() != 8 || c[0] == "case" || c[0].rfind("---", 0) == 0) continue;
    out.push_back({c[0], c[1], c[3], c[7] == "—" ? std::string() : c[7]});
  }
  return out;
}

}  // namespace tb
