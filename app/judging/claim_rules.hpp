#pragma once
// The claims check's shared reading of a table's cells and its growth rule (app/judging/claims_check.hpp),
// for the report-wide rules there and each study's own (StudyInfo::check_claims). Restated apart
// from the code that prints the verdicts: sharing that code would let a bug pass both.

#include <map>
#include <string>
#include <vector>

namespace tb {

// A verdict of the report that its own data contradict.
struct ClaimViolation {
  std::string file;    // the table, relative to the report folder
  std::string where;   // case / run / row
  std::string why;     // the rule broken, with the numbers
  std::string line() const { return file + ": " + where + ": " + why; }
};

}  // namespace tb

namespace tb::claim_rules {

// A cell as a number: NaN when the column is absent, the cell empty or not a number.
double number(const std::map<std::string, std::string>& row, const std::string& column);
// A cell's text: "" when the column is absent.
std::string text(const std::map<std::string, std::string>& row, const std::string& column);
// The space-separated words of a cell.
std::vector<std::string> words(const std::string& s);
bool contains(const std::string& text, const std::string& word);
// "ok", or "ok; drift from t = ..." (a drift within the physical scale keeps its metrics).
bool is_ok(const std::string& status);
// A growth law and its interval, the words printed beside it and the theory column: the law must
// be the one its interval carries, and one that contradicts a bounded theory must say "investigate".
void check_law(const std::string& file, const std::string& where, const std::string& law, double lo, double hi,
               const std::string& theory, const std::string& words, std::vector<ClaimViolation>& out);

}  // namespace tb::claim_rules
