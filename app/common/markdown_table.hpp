#pragma once
// Markdown pieces the report's pages and the READMEs' generated blocks share: a table, its cells,
// and the replacement of a block between two marker lines of a hand-written file.

#include <sstream>
#include <string>
#include <vector>

namespace tb::markdown {

// A Markdown cell: no line breaks, no bare '|'.
std::string cell(const std::string& s);
// `numeric`: which columns are right-aligned (numbers); none when empty.
void table(std::ostringstream& md, const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
           const std::vector<bool>& numeric = {});

// `text` with the one block between the lines `begin_marker` and `end_marker` (markers included)
// replaced by `block`; InputError naming `where` when the markers are missing, repeated or out of order.
std::string replace_block(const std::string& text, const std::string& begin_marker, const std::string& end_marker,
                          const std::string& block, const std::string& where);
// The block (markers included) of `text`; InputError naming `where` when there is not exactly one.
std::string block_of(const std::string& text, const std::string& begin_marker, const std::string& end_marker,
                     const std::string& where);

}  // namespace tb::markdown
