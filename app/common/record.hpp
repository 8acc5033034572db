#pragma once
// Typed records, each described once (issue 25 item 2). A record type T has a free function
// beside it (found by argument-dependent lookup)
//
//   template <class V> void describe(V& v, T& x) { v("case", x.case_name); v("h", x.h); ... }
//
// that names every field once, in the order its stored bytes keep them. What used to be written
// by hand per type comes from that one list: a job result's bytes (app/running/job_result.hpp: write /
// read), the canonical text of a record (record_text: what a fingerprint is taken of) and its
// CSV columns (csv_columns / csv_cells / from_csv_cells). One function serves reading and
// writing, as cereal's serialize() does, so a field cannot be written in one order and read back
// in another: the visitors that only read a record call describe() through const_cast and never
// modify it.
//
// A field may carry how its CSV cell is written: v("bound", x.bound, Csv{3}) (3 significant
// digits; the default is 17, exact), v("note", x.note, Csv::quote()) (always in double quotes).
// Bytes and record_text ignore it: they are exact.
//
// An enumeration stored in a record declares its texts once, beside it:
//
//   constexpr std::array<std::string_view, 3> enum_texts(Bound) { return {"max", "min", "fails"}; }
//
// indexed by the enumerator's value (0, 1, ...): bytes keep the number, record_text and CSV keep
// the text, and a number or a text outside the list is refused when read, never taken for a
// default.

#include <array>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/format.hpp"

namespace tb {

// How a field's CSV cell is written.
struct Csv {
  int digits = 17;      // numbers: significant digits (format_g)
  bool quoted = false;  // text: always in double quotes ("" inside)
  static Csv quote() { return {17, true}; }
};

namespace record_detail {
struct AnyVisitor {
  template <class F>
  void operator()(std::string_view, F&, Csv = {}) {}
};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_array : std::false_type {};
template <class T, size_t N>
struct is_array<std::array<T, N>> : std::true_type {};
}  // namespace record_detail

template <class T>
concept Record = requires(record_detail::AnyVisitor& v, T& x) { describe(v, x); };

template <class E>
concept NamedEnum = std::is_enum_v<E> && requires(E e) { enum_texts(e); };

// Visits the fields of a record that the caller will only read.
template <Record T, class V>
void describe_const(V& v, const T& x) {
  describe(v, const_cast<T&>(x));
}

template <NamedEnum E>
constexpr size_t enum_count() {
  return enum_texts(E{}).size();
}

template <NamedEnum E>
std::string_view enum_text(E e) {
  const auto texts = enum_texts(e);
  const auto i = size_t(e);
  if (i >= texts.size()) throw std::logic_error("enum_text: value " + std::to_string(i) + " has no text");
  return texts[i];
}

// "a, b or c": what a text field of this enumeration may be.
template <NamedEnum E>
std::string enum_choices() {
  std::string out;
  const auto texts = enum_texts(E{});
  for (size_t i = 0; i < texts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == texts.size() ? " or " : ", ") + std::string(texts[i]);
  return out;
}

// The enumerator whose text is `text`; std::invalid_argument saying what was expected otherwise.
template <NamedEnum E>
E enum_from_text(std::string_view text) {
  const auto texts = enum_texts(E{});
  for (size_t i = 0; i < texts.size(); ++i)
    if (texts[i] == text) return E(i);
  throw std::invalid_argument("expected " + enum_choices<E>() + ", got '" + std::string(text) + "'");
}

// The enumerator numbered `i`; std::runtime_error when there is none (foreign stored bytes).
template <NamedEnum E>
E enum_from_index(long i) {
  if (i < 0 || size_t(i) >= enum_count<E>()) throw std::runtime_error("record: no enumerator numbered " + std::to_string(i));
  return E(i);
}

// ---- canonical text: "name=value;name=value", nested records as name{...}, lists as [a,b] ----

namespace record_detail {
template <class F>
std::string field_text(const F& f);

struct TextVisitor {
  std::string out;
  template <class F>
  void operator()(std::string_view name, const F& f, Csv = {}) {
    if (!out.empty()) out += ';';
    out += name;
    if constexpr (Record<F>) out += "{" + field_text(f) + "}";
    else out += "=" + field_text(f);
  }
};

template <class F>
std::string field_text(const F& f) {
  if constexpr (Record<F>) {
    TextVisitor v;
    describe_const(v, f);
    return v.out;
  } else if constexpr (NamedEnum<F>) {
    return std::string(enum_text(f));
  } else if constexpr (std::is_same_v<F, bool>) {
    return f ? "1" : "0";
  } else if constexpr (std::is_integral_v<F>) {
    return std::to_string(f);
  } else if constexpr (std::is_floating_point_v<F>) {
    return format_g(f, 17);
  } else if constexpr (std::is_convertible_v<const F&, std::string_view>) {
    return std::string(std::string_view(f));
  } else if constexpr (requires { f.size(); f[0]; }) {  // lists, arrays, Eigen vectors
    std::string out = "[";
    for (decltype(f.size()) i = 0; i < f.size(); ++i) out += (i == 0 ? "" : ",") + field_text(f[i]);
    return out + "]";
  } else {
    static_assert(sizeof(F) == 0, "record_text: a field of a type with no text form");
  }
}
}  // namespace record_detail

// Every field by name and exact value: two records have the same text exactly when every field
// is the same, so a fingerprint of it (app/common/fingerprint.hpp) changes whenever an input does.
template <Record T>
std::string record_text(const T& x) {
  return record_detail::field_text(x);
}

// ---- CSV: one column per field of a flat record (numbers, text, named enums) ----

namespace record_detail {
struct ColumnVisitor {
  std::vector<std::string> names;
  template <class F>
  void operator()(std::string_view name, const F&, Csv = {}) {
    static_assert(!Record<F>, "csv: a CSV row is a flat record");
    names.emplace_back(name);
  }
};

inline std::string quoted_cell(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

struct CellVisitor {
  std::vector<std::string> cells;
  template <class F>
  void operator()(std::string_view, const F& f, Csv csv = {}) {
    std::string cell;
    if constexpr (std::is_floating_point_v<F>) cell = format_g(f, csv.digits);
    else cell = field_text(f);
    cells.push_back(csv.quoted ? quoted_cell(cell) : cell);
  }
};

// Reads cells[i] into each field in turn; a cell that is not the field's type throws
// std::invalid_argument naming the column.
struct FromCellsVisitor {
  const std::vector<std::string>& cells;
  size_t at = 0;
  template <class F>
  void operator()(std::string_view name, F& f, Csv = {}) {
    if (at >= cells.size()) throw std::invalid_argument("column '" + std::string(name) + "': missing");
    const std::string& cell = cells[at++];
    try {
      if constexpr (NamedEnum<F>) {
        f = enum_from_text<F>(cell);
      } else if constexpr (std::is_floating_point_v<F>) {
        char* end = nullptr;
        f = std::strtod(cell.c_str(), &end);
        // Data files hold finite numbers (a NaN or an infinity there is a mistake, not a value).
        if (cell.empty() || *end != '\0' || !std::isfinite(f))
          throw std::invalid_argument("expected a finite number, got '" + cell + "'");
      } else if constexpr (std::is_integral_v<F>) {  // bool as 0 or 1, as record_text writes it
        char* end = nullptr;
        const long x = std::strtol(cell.c_str(), &end, 10);
        if (cell.empty() || *end != '\0' || (std::is_same_v<F, bool> && x != 0 && x != 1))
          throw std::invalid_argument("expected a whole number" + std::string(std::is_same_v<F, bool> ? " (0 or 1)" : "") +
                                      ", got '" + cell + "'");
        f = F(x);
      } else if constexpr (std::is_same_v<F, std::string>) {
        f = cell;
      } else {
        static_assert(sizeof(F) == 0, "csv: a column of a type with no CSV reading");
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("column '" + std::string(name) + "': " + e.what());
    }
  }
};
}  // namespace record_detail

template <Record T>
std::vector<std::string> csv_columns() {
  record_detail::ColumnVisitor v;
  describe_const(v, T{});
  return v.names;
}

// "a,b,c": the header line of a CSV of T.
template <Record T>
std::string csv_header() {
  std::string out;
  for (const auto& n : csv_columns<T>()) out += (out.empty() ? "" : ",") + n;
  return out;
}

template <Record T>
std::vector<std::string> csv_cells(const T& x) {
  record_detail::CellVisitor v;
  describe_const(v, x);
  return v.cells;
}

// "1,2,x": one line of a CSV of T, without its line end.
template <Record T>
std::string csv_row(const T& x) {
  std::string out;
  for (const auto& c : csv_cells(x)) out += (out.empty() ? "" : ",") + c;
  return out;
}

// A record from a CSV line's cells (quotes already removed), in csv_columns<T>() order.
template <Record T>
void from_csv_cells(T& x, const std::vector<std::string>& cells) {
  record_detail::FromCellsVisitor v{cells};
  describe(v, x);
  if (v.at != cells.size()) throw std::invalid_argument(std::to_string(cells.size() - v.at) + " cells too many");
}

}  // namespace tb
