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

}  // namespace tb::python
