// Markdown helpers of app/common/markdown_table.hpp.

#include "app/common/markdown_table.hpp"

#include "core/table_reader.hpp"

namespace tb::markdown {

std::string cell(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : ch == '\n' ? std::string(" ") : std::string(1, ch);
  return out;
}

void table(std::ostringstream& md, const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
           const std::vector<bool>& numeric) {
  md << "|";
  for (const auto& h : header) md << " " << cell(h) << " |";
  md << "\n|";
  for (size_t i = 0; i < header.size(); ++i) md << (i < numeric.size() && numeric[i] ? "---:|" : "---|");
  md << "\n";
  for (const auto& row : rows) {
    md << "|";
    for (const auto& c : row) md << " " << cell(c) << " |";
    md << "\n";
  }
}

namespace {
// Where the one block starts and ends (end: past its end marker).
std::pair<size_t, size_t> find_block(const std::string& text, const std::string& begin_marker,
                                     const std::string& end_marker, const std::string& where) {
  const size_t begin = text.find(begin_marker), end = text.find(end_marker);
  if (begin == std::string::npos || end == std::string::npos || end < begin ||
      text.find(begin_marker, begin + 1) != std::string::npos || text.find(end_marker, end + 1) != std::string::npos)
    throw InputError(where + ": expected one block between '" + begin_marker + "' and '" + end_marker + "'");
  return {begin, end + end_marker.size()};
}
}  // namespace

std::string replace_block(const std::string& text, const std::string& begin_marker, const std::string& end_marker,
                          const std::string& block, const std::string& where) {
  const auto [begin, end] = find_block(text, begin_marker, end_marker, where);
  return text.substr(0, begin) + block + text.substr(end);
}

std::string block_of(const std::string& text, const std::string& begin_marker, const std::string& end_marker,
                     const std::string& where) {
  const auto [begin, end] = find_block(text, begin_marker, end_marker, where);
  return text.substr(begin, end - begin);
}

}  // namespace tb::markdown
