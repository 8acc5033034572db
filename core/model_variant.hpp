#pragma once
// A case's model with one numeric [model] key set to another value, every other key of
// [model] and [initial] as the case file gives them: the parameter map's rows
// ([report.parameter_map]) and the stability map's sweeps over the element count N or a link
// mass are built through here, so a value the model refuses is refused the same way.

#include <memory>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/table_reader_toml.hpp"

namespace tb {

// The keys of a [model] table whose values are numbers (sorted): what a variant may change.
std::vector<std::string> numeric_model_keys(const toml::value& model_table);

// Whether [model] `key` is written as an integer (its variants then take whole values only).
bool integer_model_key(const toml::value& model_table, const std::string& key);

// The model built by `info` from `model_table` with `key` = `value` and `initial_table`
// (both as read from `file`, named in the messages). `key` must be one of
// numeric_model_keys(); for an integer key `value` must be whole (std::invalid_argument
// otherwise). Throws the model factory's InputError when the model refuses the value.
std::shared_ptr<const Model> build_model_variant(const ModelInfo& info, const std::string& file,
                                                 const toml::value& model_table, const toml::value& initial_table,
                                                 const std::string& key, double value);

}  // namespace tb
