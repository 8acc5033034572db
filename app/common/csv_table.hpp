#pragma once
// A CSV file read whole into rows of column name -> text (RFC 4180 quoting), for checks that
// read the report's own tables (app/judging/claims_check.hpp). Lines starting with '#' before the
// header are comments.

#include <map>
#include <string>
#include <vector>

namespace tb {

struct CsvTable {
  std::string path;
  std::vector<std::string> columns;
  std::vector<std::map<std::string, std::string>> rows;
  bool has(const std::string& column) const;
};

// The table at `path`; an empty table (no columns) when the file does not exist.
CsvTable read_csv_table(const std::string& path);
// One CSV record's fields (quotes removed, "" unescaped).
std::vector<std::string> split_csv_record(const std::string& line);
// One field as a CSV record holds it: quoted (with "" for ") when it has a comma, a quote or a line break.
std::string csv_field(const std::string& s);
// A text field always quoted (with "" for "): the free-text columns (statuses, verdicts), whose
// words may hold commas or quotes at any time.
std::string csv_quoted(const std::string& s);

}  // namespace tb
