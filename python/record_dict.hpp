#pragma once
// A described record (app/common/record.hpp) as a Python dict, field by field in the order its
// describe() names them: the Python package binds records by describing them, so a field added to
// a record reaches Python without a second list of its fields (issue 45 item 4). Fields that are
// records themselves, or vectors of records, become dicts and lists of dicts; a named enumeration
// its text; other fields go through pybind11's own conversions (numbers, text, vectors, maps).

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string_view>
#include <type_traits>
#include <vector>

#include "app/common/record.hpp"
#include "core/table_reader.hpp"

namespace tb::python {

template <Record T>
pybind11::dict record_dict(const T& record);

namespace record_dict_detail {
template <class F>
struct is_record_vector : std::false_type {};
template <class T, class A>
struct is_record_vector<std::vector<T, A>> : std::bool_constant<Record<T>> {};

template <class F>
pybind11::object value_of(const F& field) {
  if constexpr (Record<F>) {
    return record_dict(field);
  } else if constexpr (NamedEnum<F>) {
    return pybind11::str(std::string(enum_text(field)));
  } else if constexpr (is_record_vector<F>::value) {
    pybind11::list items;
    for (const auto& item : field) items.append(record_dict(item));
    return items;
  } else {
    return pybind11::cast(field);
  }
}

struct Visitor {
  pybind11::dict dict;
  template <class F>
  void operator()(std::string_view name, F& field, Csv = {}) {
    dict[pybind11::str(std::string(name))] = value_of(field);
  }
};
}  // namespace record_dict_detail

template <Record T>
pybind11::dict record_dict(const T& record) {
  record_dict_detail::Visitor v;
  describe_const(v, record);
  return v.dict;
}

// The other way, for a record of flags and numbers given as a dict by a Python user: each key
// sets the field of its name over `record`'s values (the defaults where absent). `what` names the
// argument ("traits") and `noun` its keys ("trait") in the messages: a key that names no field, or
// a value of another kind, is an InputError naming the key and what was expected.
namespace record_dict_detail {
// Sets the field named `key` from `value` (record_from_dict); collects every field's name.
struct FromDict {
  std::string key, what;
  pybind11::handle value;
  bool matched = false;
  std::vector<std::string> names;
  template <class F>
  void operator()(std::string_view name, F& field, Csv = {}) {
    names.emplace_back(name);
    if (name != key) return;
    matched = true;
    if constexpr (std::is_same_v<F, bool>) {
      if (!pybind11::isinstance<pybind11::bool_>(value)) throw InputError(what + ": '" + key + "': expected True or False");
      field = value.template cast<bool>();
    } else if constexpr (std::is_arithmetic_v<F>) {
      if (pybind11::isinstance<pybind11::bool_>(value) ||
          !(pybind11::isinstance<pybind11::int_>(value) || pybind11::isinstance<pybind11::float_>(value)))
        throw InputError(what + ": '" + key + "': expected a number");
      field = value.template cast<F>();
    } else {
      throw InputError(what + ": '" + key + "': not settable from Python");
    }
  }
};
}  // namespace record_dict_detail

template <Record T>
T record_from_dict(const pybind11::dict& given, T record, const std::string& what, const std::string& noun) {
  for (const auto& [k, value] : given) {
    record_dict_detail::FromDict visitor{pybind11::str(k), what, value, false, {}};
    describe(visitor, record);
    if (!visitor.matched) {
      std::string expected;
      for (const auto& n : visitor.names) expected += (expected.empty() ? "" : ", ") + n;
      throw InputError(what + ": unknown " + noun + " '" + visitor.key + "' (expected some of: " + expected + ")");
    }
  }
  return record;
}

}  // namespace tb::python
