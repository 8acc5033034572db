#pragma once
// JSON as Google Benchmark writes it (--benchmark_out_format=json), read and written again: the
// report merges the benchmark binary's parts into benchmarks.json and writes benchmarks.md from
// them (app/writing/step_cost_page.hpp). A number keeps the text it was written with, so that a
// merged file carries every measurement digit for digit; NaN, Infinity and -Infinity, which
// Google Benchmark writes for a counter without a value, are numbers too.

#include <string>
#include <utility>
#include <vector>

namespace tb {

struct JsonValue {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  std::string text;                                        // a string's value, or a number as written
  std::vector<JsonValue> items;                            // an array's
  std::vector<std::pair<std::string, JsonValue>> members;  // an object's, in the order written

  bool is(Kind k) const { return kind == k; }
  // The member named `key` of an object; nullptr when there is none (or this is no object).
  const JsonValue* find(const std::string& key) const;
  // A number's value (NaN and the infinities included); NaN for anything else.
  double number() const;
  // A string's value, a number's text, "true"/"false"; "" for null, arrays and objects.
  std::string scalar_text() const;
};

// The document in `text`; InputError "WHERE: line L, column C: expected ..." when it is not JSON.
JsonValue parse_json(const std::string& text, const std::string& where);
// The file at `path` parsed; InputError naming the file when it cannot be read or is not JSON.
JsonValue read_json_file(const std::string& path);
// The value as JSON, indented by two spaces a level (Google Benchmark's layout).
std::string to_json(const JsonValue& value);

}  // namespace tb
