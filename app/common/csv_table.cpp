#include "app/common/csv_table.hpp"

#include <algorithm>
#include <fstream>

namespace tb {

bool CsvTable::has(const std::string& column) const {
  return std::find(columns.begin(), columns.end(), column) != columns.end();
}

std::vector<std::string> split_csv_record(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
      else if (ch == '"') quoted = false;
      else fields.back() += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.emplace_back();
    } else if (ch != '\r') {
      fields.back() += ch;
    }
  }
  return fields;
}

CsvTable read_csv_table(const std::string& path) {
  CsvTable t;
  t.path = path;
  std::ifstream in(path);
  if (!in) return t;
  std::string line;
  while (std::getline(in, line) && (line.empty() || line[0] == '#')) {
  }
  t.columns = split_csv_record(line);
  // A quoted field may span lines: join until the quotes balance.
  std::string record;
  while (std::getline(in, line)) {
    record += record.empty() ? line : "\n" + line;
    if (std::count(record.begin(), record.end(), '"') % 2 != 0) continue;
    const auto fields = split_csv_record(record);
    record.clear();
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < t.columns.size(); ++i) row[t.columns[i]] = i < fields.size() ? fields[i] : "";
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string csv_quoted(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  return csv_quoted(s);
}

}  // namespace tb
