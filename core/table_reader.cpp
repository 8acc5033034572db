#include "core/table_reader.hpp"

#include "core/table_reader_toml.hpp"
#include "core/format.hpp"  // join

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <fstream>
#include <utility>

namespace tb {
namespace {

// Shortest round-trip text of a double; always recognisable as a float ("20.0", not "20").
std::string format_double(double x) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // 'n': inf / nan
  return s;
}

// What a value is, for "got ...": "-3", "20.0", "nan", "a string (\"x\")", "an array of 2 elements".
std::string describe(const toml::value& v) {
  switch (v.type()) {
    case toml::value_t::integer: return std::to_string(v.as_integer());
    case toml::value_t::floating: return format_double(v.as_floating());
    case toml::value_t::string: return "a string (\"" + v.as_string().str + "\")";
    case toml::value_t::boolean: return std::string("a boolean (") + (v.as_boolean() ? "true" : "false") + ")";
    case toml::value_t::array: {
      const std::size_t n = v.as_array().size();
      return "an array of " + std::to_string(n) + (n == 1 ? " element" : " elements");
    }
    case toml::value_t::table: return "a table";
    case toml::value_t::empty: return "nothing";
    default: return "a date/time";
  }
}

// " (line L)" when toml11 knows where the value was written, else "".
std::string line_suffix(const toml::value* v) {
  if (v == nullptr) return "";
  const toml::source_location loc = v->location();
  if (loc.file_name() == "unknown file" || loc.line_str() == "unknown line") return "";
  return " (line " + std::to_string(loc.line()) + ")";
}

}  // namespace

namespace {

constexpr int kMaxNesting = 32;

// The deepest nesting of '[' and '{' outside strings and comments (a conservative scan: a
// table header [a.b] counts one level).
int bracket_depth(const std::string& text) {
  int depth = 0, deepest = 0;
  char quote = 0;
  bool comment = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (comment) {
      comment = ch != '\n';
    } else if (quote) {
      if (ch == '\\' && quote == '"') ++i;
      else if (ch == quote) quote = 0;
    } else if (ch == '#') {
      comment = true;
    } else if (ch == '"' || ch == '\'') {
      quote = ch;
    } else if (ch == '[' || ch == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

TableReader TableReader::parse_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path + ": cannot read case file: no such file");
  if (fs::is_directory(path, ec))
    throw InputError(path + ": cannot read case file: it is a directory, expected a TOML file");
  // Only a regular file: a FIFO or a device would block the read or never end.
  if (!fs::is_regular_file(path, ec))
    throw InputError(path + ": cannot read case file: expected a regular TOML file, got a special file");
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot read case file: it cannot be opened");
    constexpr std::size_t kMaxBytes = 1 << 20;  // case files are a few KiB
    text.resize(kMaxBytes + 1);
    in.read(text.data(), std::streamsize(text.size()));
    text.resize(std::size_t(in.gcount()));
    if (text.size() > kMaxBytes) throw InputError(path + ": cannot read case file: expected at most 1 MiB of TOML");
  }
  return parse_text(text, path);
}

TableReader TableReader::parse_text(const std::string& text, const std::string& name) {
  // toml11 parses nested arrays and inline tables recursively: refuse a depth no case file
  // needs before it can exhaust the stack.
  if (const int depth = bracket_depth(text); depth > kMaxNesting)
    throw InputError(name + ": cannot read case file: arrays or inline tables nested " + std::to_string(depth) +
                     " deep, expected at most " + std::to_string(kMaxNesting));
  try {
    std::istringstream stream(text);
    return table_reader_of(name, "", toml::parse(stream, name));
  } catch (const toml::syntax_error& e) {
    throw InputError(name + ": TOML syntax error (line " + std::to_string(e.location().line()) +
                     "):\n" + e.what());
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(name + ": cannot read case file: " + e.what());
  }
}

namespace {
// Edits (insertions, deletions, substitutions) between two keys: a misspelt key is one or two away.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}
}  // namespace

struct TableReader::Access {
  static const toml::value* find(const TableReader& r, const std::string& key) {
    const auto& t = r.table_->value.as_table();
    const auto it = t.find(key);
    return it == t.end() ? nullptr : &it->second;
  }

  // Marks `key` as known and read; returns the value, or nullptr if absent.
  static const toml::value* lookup(TableReader& r, const std::string& key) {
    r.known_->insert(key);
    return find(r, key);
  }

  // Like lookup(), but a missing key is an error stating `expected`.
  static const toml::value& require(TableReader& r, const std::string& key, const std::string& expected) {
    const toml::value* v = lookup(r, key);
    if (v == nullptr) {
      // A key of the table one edit from the missing one (two for a key of 8 letters or more; none
      // for keys under 4, where every short key is near), not read as anything else: the misspelling
      // the user meant (the unknown-key check would name it only after this error).
      std::string near;
      for (const auto& other : r.keys())
        if (r.known_->count(other) == 0 && key.size() >= 4 && edit_distance(other, key) <= (key.size() >= 8 ? 2u : 1u))
          near += (near.empty() ? "" : ", ") + std::string("'") + r.dotted(other) + "'" + line_suffix(find(r, other));
      throw InputError(r.file_ + ": missing key '" + r.dotted(key) + "': expected " + expected +
                       (near.empty() ? "" : " (the table has " + near + ": misspelt?)"));
    }
    return *v;
  }

  // The one message formatter: "<file>: key '<dotted>'[ (line L)]: expected <expected>, got <got>".
  [[noreturn]] static void fail_at(const TableReader& r, const std::string& dotted_key, const toml::value* at,
                                   const std::string& expected, const std::string& got) {
    throw InputError(r.file_ + ": key '" + dotted_key + "'" + line_suffix(at) + ": expected " + expected + ", got " +
                     got);
  }

  static double finite_number(const TableReader& r, const std::string& dotted_key, const toml::value& v,
                              const std::string& expected) {
    if (v.is_integer()) return static_cast<double>(v.as_integer());
    if (v.is_floating() && std::isfinite(v.as_floating())) return v.as_floating();
    fail_at(r, dotted_key, &v, expected, describe(v));
  }

  static double checked_number(const TableReader& r, const std::string& key, const toml::value& v, bool allow_zero) {
    const std::string expected = allow_zero ? "a finite number >= 0" : "a finite number > 0";
    const double x = finite_number(r, r.dotted(key), v, expected);
    if (x < 0.0 || (!allow_zero && x == 0.0)) fail_at(r, r.dotted(key), &v, expected, describe(v));
    return x;
  }

  static int checked_positive_integer(const TableReader& r, const std::string& key, const toml::value& v) {
    if (!v.is_integer() || v.as_integer() < 1) fail_at(r, r.dotted(key), &v, "an integer >= 1", describe(v));
    if (v.as_integer() > INT_MAX)
      fail_at(r, r.dotted(key), &v, "an integer between 1 and " + std::to_string(INT_MAX), describe(v));
    return static_cast<int>(v.as_integer());
  }

  static Vec3 checked_vec3(const TableReader& r, const std::string& dotted_key, const toml::value& v,
                           const std::string& expected) {
    if (!v.is_array() || v.as_array().size() != 3) fail_at(r, dotted_key, &v, expected, describe(v));
    Vec3 out;
    for (int i = 0; i < 3; ++i)
      out[i] = finite_number(r, dotted_key + "[" + std::to_string(i) + "]", v.as_array()[static_cast<std::size_t>(i)],
                             "a finite number");
    return out;
  }

  static std::vector<double> checked_list(const TableReader& r, const std::string& key, const toml::value& v,
                                          bool allow_zero) {
    const std::string element_expected = allow_zero ? "a finite number >= 0" : "a finite number > 0";
    const std::string expected = "a non-empty array of finite numbers " + std::string(allow_zero ? ">= 0" : "> 0");
    if (!v.is_array() || v.as_array().empty()) fail_at(r, r.dotted(key), &v, expected, describe(v));
    std::vector<double> out;
    for (std::size_t i = 0; i < v.as_array().size(); ++i) {
      const std::string element = r.dotted(key) + "[" + std::to_string(i) + "]";
      const double x = finite_number(r, element, v.as_array()[i], element_expected);
      if (x < 0.0 || (!allow_zero && x == 0.0))
        fail_at(r, element, &v.as_array()[i], element_expected, describe(v.as_array()[i]));
      out.push_back(x);
    }
    return out;
  }
};

TableReader::TableReader(std::string file, std::string dotted_prefix, std::shared_ptr<const Table> table)
    : file_(std::move(file)),
      prefix_(std::move(dotted_prefix)),
      table_(std::move(table)),
      known_(std::make_shared<std::set<std::string>>()) {
  if (!table_->value.is_table()) Access::fail_at(*this, prefix_, &table_->value, "a table", describe(table_->value));
}

TableReader table_reader_of(std::string file, std::string dotted_prefix, toml::value table) {
  return TableReader(std::move(file), std::move(dotted_prefix),
                     std::make_shared<const TableReader::Table>(TableReader::Table{std::move(table)}));
}

const std::string& TableReader::file() const { return file_; }

std::string TableReader::dotted(const std::string& key) const {
  return prefix_.empty() ? key : prefix_ + "." + key;
}

bool TableReader::has(const std::string& key) const { return Access::find(*this, key) != nullptr; }

std::vector<std::string> TableReader::keys() const {
  std::vector<std::string> out;
  for (const auto& kv : table_->value.as_table()) out.push_back(kv.first);
  std::sort(out.begin(), out.end());
  return out;
}

void TableReader::fail(const std::string& key, const std::string& expected,
                       const std::string& got) const {
  Access::fail_at(*this, dotted(key), Access::find(*this, key), expected, got);
}

std::optional<double> TableReader::checked_or_none(const std::string& key, bool integer, const std::string& expected,
                                                   const std::function<bool(double)>& accepts) {
  const toml::value* v = Access::lookup(*this, key);
  if (!v) return std::nullopt;
  if (integer && !v->is_integer()) Access::fail_at(*this, dotted(key), v, expected, describe(*v));
  const double x = Access::finite_number(*this, dotted(key), *v, expected);
  if (!accepts(x)) Access::fail_at(*this, dotted(key), v, expected, describe(*v));
  return x;
}

std::optional<std::string> TableReader::checked_string_or_none(
    const std::string& key, const std::string& expected, const std::function<bool(const std::string&)>& accepts,
    const std::function<std::string(std::optional<std::int64_t> integer)>& note_on_other) {
  const toml::value* v = Access::lookup(*this, key);
  if (!v) return std::nullopt;
  if (!v->is_string()) {
    const auto integer = v->is_integer() ? std::optional<std::int64_t>(v->as_integer()) : std::nullopt;
    Access::fail_at(*this, dotted(key), v, expected, describe(*v) + note_on_other(integer));
  }
  const std::string& s = v->as_string().str;
  if (!accepts(s)) Access::fail_at(*this, dotted(key), v, expected, "\"" + s + "\"");  // as one_of() shows a word
  return s;
}

std::vector<std::string> TableReader::string_list_or_empty(const std::string& key, const std::vector<std::string>& allowed) {
  std::string names;
  for (const auto& a : allowed) names += (names.empty() ? "" : ", ") + a;
  const std::string expected = "a non-empty array of names from: " + names;
  const toml::value* v = Access::lookup(*this, key);
  if (!v) return {};
  if (!v->is_array() || v->as_array().empty()) Access::fail_at(*this, dotted(key), v, expected, describe(*v));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v->as_array().size(); ++i) {
    const toml::value& e = v->as_array()[i];
    const std::string element = dotted(key) + "[" + std::to_string(i) + "]";
    if (!e.is_string() || std::find(allowed.begin(), allowed.end(), e.as_string().str) == allowed.end())
      Access::fail_at(*this, element, &e, "one of: " + names, describe(e));
    out.push_back(e.as_string().str);
  }
  return out;
}

std::vector<double> TableReader::positive_list(const std::string& key) {
  return Access::checked_list(*this, key, Access::require(*this, key, "a non-empty array of finite numbers > 0"), false);
}

std::vector<double> TableReader::non_negative_list_or(const std::string& key, const std::vector<double>& default_value) {
  const toml::value* v = Access::lookup(*this, key);
  return v ? Access::checked_list(*this, key, *v, true) : default_value;
}

double TableReader::number(const std::string& key) {
  return Access::finite_number(*this, dotted(key), Access::require(*this, key, "a finite number"), "a finite number");
}

double TableReader::positive(const std::string& key) {
  return Access::checked_number(*this, key, Access::require(*this, key, "a finite number > 0"), false);
}

double TableReader::non_negative(const std::string& key) {
  return Access::checked_number(*this, key, Access::require(*this, key, "a finite number >= 0"), true);
}

double TableReader::positive_or(const std::string& key, double default_value) {
  const toml::value* v = Access::lookup(*this, key);
  return v ? Access::checked_number(*this, key, *v, false) : default_value;
}

double TableReader::non_negative_or(const std::string& key, double default_value) {
  const toml::value* v = Access::lookup(*this, key);
  return v ? Access::checked_number(*this, key, *v, true) : default_value;
}

int TableReader::positive_integer(const std::string& key) {
  return Access::checked_positive_integer(*this, key, Access::require(*this, key, "an integer >= 1"));
}

int TableReader::positive_integer_or(const std::string& key, int default_value) {
  const toml::value* v = Access::lookup(*this, key);
  return v ? Access::checked_positive_integer(*this, key, *v) : default_value;
}

std::string TableReader::string(const std::string& key) {
  const toml::value& v = Access::require(*this, key, "a string");
  if (!v.is_string()) Access::fail_at(*this, dotted(key), &v, "a string", describe(v));
  return v.as_string().str;
}

std::string TableReader::one_of(const std::string& key, const std::vector<std::string>& allowed) {
  std::vector<std::string> quoted;
  for (const auto& a : allowed) quoted.push_back("\"" + a + "\"");
  const std::string expected = "one of [" + join(quoted, ", ") + "]";
  const toml::value& v = Access::require(*this, key, expected);
  if (!v.is_string()) Access::fail_at(*this, dotted(key), &v, expected, describe(v));
  const std::string& s = v.as_string().str;
  if (std::find(allowed.begin(), allowed.end(), s) == allowed.end())
    Access::fail_at(*this, dotted(key), &v, expected, "\"" + s + "\"");
  return s;
}

Vec3 TableReader::vec3(const std::string& key) {
  const std::string expected = "an array of 3 finite numbers";
  return Access::checked_vec3(*this, dotted(key), Access::require(*this, key, expected), expected);
}

Vec3 TableReader::vec3_or(const std::string& key, const Vec3& default_value) {
  const toml::value* v = Access::lookup(*this, key);
  return v ? Access::checked_vec3(*this, dotted(key), *v, "an array of 3 finite numbers") : default_value;
}

Mat3 TableReader::mat3(const std::string& key) {
  const std::string expected = "an array of 3 rows, each an array of 3 finite numbers";
  const toml::value& v = Access::require(*this, key, expected);
  if (!v.is_array() || v.as_array().size() != 3) Access::fail_at(*this, dotted(key), &v, expected, describe(v));
  Mat3 m;
  for (int i = 0; i < 3; ++i)
    m.row(i) = Access::checked_vec3(*this, dotted(key) + "[" + std::to_string(i) + "]",
                            v.as_array()[static_cast<std::size_t>(i)], "a row of 3 finite numbers")
                   .transpose();
  return m;
}

TableReader TableReader::table(const std::string& key) {
  const toml::value& v = Access::require(*this, key, "a table");
  if (!v.is_table()) Access::fail_at(*this, dotted(key), &v, "a table", describe(v));
  return table_reader_of(file_, dotted(key), v);
}

std::optional<TableReader> TableReader::optional_table(const std::string& key) {
  if (!has(key)) {
    known_->insert(key);
    return std::nullopt;
  }
  return table(key);
}

void TableReader::finish() const {
  const std::vector<std::string> known(known_->begin(), known_->end());
  const std::string where = prefix_.empty() ? "at the top level" : "in [" + prefix_ + "]";
  const std::string expected =
      known.empty() ? "this table takes no keys" : "expected one of: " + join(known, ", ");
  std::vector<std::string> lines;
  for (const auto& key : keys())
    if (known_->count(key) == 0)
      lines.push_back(file_ + ": unknown key '" + dotted(key) + "'" + line_suffix(Access::find(*this, key)) + " " +
                      where + " (" + expected + ")");
  if (!lines.empty()) throw InputError(join(lines, "\n"));
}

}  // namespace tb
