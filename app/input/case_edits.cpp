#include "app/input/case_edits.hpp"

#include <sstream>

#include "core/table_reader_toml.hpp"

namespace tb {

namespace {

// The tables a case file holds keys in: an edit elsewhere ([report], a study's table) is refused.
bool editable_table(const std::string& table) {
  const std::string first = table.substr(0, table.find('.'));
  if (first == "integrators") return table.size() > first.size() + 1 && table.find('.', first.size() + 1) == std::string::npos;
  return first == "case" || first == "model" || first == "initial";
}

// The table an edit goes into, made where the file has none ([integrators.NAME] of a file that sets
// none of NAME's settings).
toml::value& table_of(toml::value& root, const CaseEdit& edit, const std::string& path) {
  toml::value* at = &root;
  std::string walked;
  for (size_t from = 0; from <= edit.table.size();) {
    const size_t dot = std::min(edit.table.find('.', from), edit.table.size());
    const std::string part = edit.table.substr(from, dot - from);
    walked += (walked.empty() ? "" : ".") + part;
    if (part.empty()) throw InputError(edit.words + ": expected a table name, got '" + edit.table + "'");
    toml::table& tables = at->as_table();
    if (tables.count(part) == 0) tables[part] = toml::table{};
    at = &tables[part];
    if (!at->is_table()) throw InputError(edit.words + ": " + path + "'s '" + walked + "' is a value, not a table of keys");
    from = dot + 1;
  }
  return *at;
}

// The edit's value as TOML reads it.
toml::value value_of(const CaseEdit& edit) {
  if (edit.value.find_first_of("\n\r") != std::string::npos)
    throw InputError(edit.words + ": expected a value on one line, got one with a line break");
  try {
    std::istringstream in("value = " + edit.value);
    return toml::parse(in, edit.words).at("value");
  } catch (const std::exception&) {
    throw InputError(edit.words + ": expected a number, a string, a boolean or a list of them, got " + edit.value);
  }
}

}  // namespace

std::string edited_case_text(const std::string& path, const std::vector<CaseEdit>& edits) {
  toml::value root = toml_table(TableReader::parse_file(path));
  for (const CaseEdit& edit : edits) {
    if (!editable_table(edit.table))
      throw InputError(edit.words + ": expected a key of [case], [model], [initial] or [integrators.NAME], got one of [" +
                       edit.table + "]");
    if (edit.key.empty() || edit.key.find_first_of(".\n\r\"'[]= ") != std::string::npos)
      throw InputError(edit.words + ": expected a bare key name, got '" + edit.key + "'");
    table_of(root, edit, path).as_table()[edit.key] = value_of(edit);
  }
  // Every number to max_digits10 (toml::format's default), so that each one, changed or not, reads
  // back as the same double; a stream's default precision (6 digits) would have rounded them all.
  return toml::format(root);
}

Case load_edited_case(const std::string& text, const std::string& described, const Catalogue& catalogue,
                      const RunLimits& limits) {
  Case c = load_case(TableReader::parse_text(text, described), described, catalogue);
  check_limits(c, limits);
  check_settings_act(c, catalogue);
  return c;
}

}  // namespace tb
