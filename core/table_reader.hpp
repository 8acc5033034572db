// TableReader: typed, range-checked access to one TOML table of a case file.
//
// Every bad input ends in tb::InputError whose what() is the complete user-facing message:
//   <file>: key '<dotted key>' (line L): expected <expectation>, got <found>
//   <file>: missing key '<dotted key>': expected <expectation>
//   <file>: unknown key '<dotted key>' (line L) in [<table>] (expected one of: a, b, c)
// The "(line L)" part appears whenever toml11 knows where the value was written.
//
// Getters remember which keys they were asked for, so finish() can reject keys nobody read
// (usually typos). finish() checks only this table's own keys: a reader obtained with
// table()/optional_table() has its own finish(), which the code that reads it must call.
// There are no silent defaults: optional keys are read only through the *_or(default) getters,
// and a present-but-invalid optional key is an error, never the default.
//
// No toml11 type appears here: this header reaches every model and integrator (and every plugin
// built against an installation) through core/model.hpp, and toml.hpp costs about a second of
// parsing per source that includes it (issue 43). The sources that parse or fingerprint a case
// file include core/table_reader_toml.hpp for the TOML value itself.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tb {

// Identical to the aliases in numerics/lie_group.hpp; identical alias redeclarations are legal.
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

// Every bad input ends here; what() is the complete user-facing message.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads one TOML table: typed, range-checked getters that remember which keys were read,
// so finish() can reject unknown keys. Copies share the record of read keys.
class TableReader {
 public:
  // Missing/unreadable file or TOML syntax error -> InputError naming the file.
  static TableReader parse_file(const std::string& path);
  // The same from TOML text already read (a case file changed from Python); `name` stands for the
  // file in every message.
  static TableReader parse_text(const std::string& text, const std::string& name);
  // The TOML value read (a toml::value; defined in core/table_reader_toml.hpp).
  struct Table;
  // prefix "" for the root, "model" for [model]; `table` must hold a TOML table.
  TableReader(std::string file, std::string dotted_prefix, std::shared_ptr<const Table> table);

  bool has(const std::string& key) const;  // does not count as reading the key
  std::vector<std::string> keys() const;   // all keys of this table (sorted)

  double number(const std::string& key);        // required finite number; integers accepted
  double positive(const std::string& key);      // required, > 0
  double non_negative(const std::string& key);  // required, >= 0
  double positive_or(const std::string& key, double default_value);  // optional, validated if present
  double non_negative_or(const std::string& key, double default_value);
  // Optional number checked by the caller's predicate; `expected` is the message's expectation.
  // With `integer`, only TOML integers are accepted (20.0 is an error). Absent: nullopt.
  std::optional<double> checked_or_none(const std::string& key, bool integer, const std::string& expected,
                                        const std::function<bool(double)>& accepts);
  // Optional string checked by the caller's predicate. A value that is not a string is refused
  // with `expected`, its `got` text followed by what `note_on_other` adds, given the value when it
  // is a TOML integer (e.g. which word a retired number code stood for; "" for nothing). Absent: nullopt.
  std::optional<std::string> checked_string_or_none(
      const std::string& key, const std::string& expected, const std::function<bool(const std::string&)>& accepts,
      const std::function<std::string(std::optional<std::int64_t> integer)>& note_on_other);
  int positive_integer(const std::string& key);  // required integer >= 1 (20.0 is an error)
  int positive_integer_or(const std::string& key, int default_value);
  std::string string(const std::string& key);
  std::string one_of(const std::string& key, const std::vector<std::string>& allowed);
  Vec3 vec3(const std::string& key);  // array of exactly 3 finite numbers
  Vec3 vec3_or(const std::string& key, const Vec3& default_value);
  Mat3 mat3(const std::string& key);  // array of 3 rows of 3 finite numbers (row-major as written)
  std::vector<double> positive_list(const std::string& key);  // non-empty array of numbers > 0
  // Optional array of strings, each one of `allowed`; an absent key gives an empty list.
  std::vector<std::string> string_list_or_empty(const std::string& key, const std::vector<std::string>& allowed);
  // Optional non-empty array of numbers >= 0, validated if present.
  std::vector<double> non_negative_list_or(const std::string& key, const std::vector<double>& default_value);
  TableReader table(const std::string& key);  // required sub-table; the key counts as read here
  std::optional<TableReader> optional_table(const std::string& key);

  // Reject keys never read by any getter (one line per unknown key, known keys listed).
  void finish() const;
  // For checks only the caller can make: "<file>: key 'initial.R0' (line L): expected ..., got ...".
  [[noreturn]] void fail(const std::string& key, const std::string& expected,
                         const std::string& got) const;

  const std::string& file() const;
  const Table& contents() const { return *table_; }  // the whole table as read (fingerprints)
  std::string dotted(const std::string& key) const;  // "model.EA"

 private:
  // The helpers that read toml11's values (core/table_reader.cpp); a member, so they reach the
  // fields below.
  struct Access;

  std::string file_;
  std::string prefix_;
  std::shared_ptr<const Table> table_;
  std::shared_ptr<std::set<std::string>> known_;  // keys asked for by getters (present or not)
};

}  // namespace tb
