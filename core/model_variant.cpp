#include "core/model_variant.hpp"

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <stdexcept>

namespace tb {

std::vector<std::string> numeric_model_keys(const toml::value& model_table) {
  std::vector<std::string> keys;
  for (const auto& [key, v] : model_table.as_table())
    if (v.is_floating() || v.is_integer()) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

bool integer_model_key(const toml::value& model_table, const std::string& key) {
  return model_table.at(key).is_integer();
}

std::shared_ptr<const Model> build_model_variant(const ModelInfo& info, const std::string& file,
                                                 const toml::value& model_table, const toml::value& initial_table,
                                                 const std::string& key, double value) {
  toml::value varied = model_table;
  if (integer_model_key(model_table, key)) {
    if (value != std::floor(value)) throw std::invalid_argument("[model] " + key + " takes integers");
    varied.as_table()[key] = toml::value(static_cast<std::int64_t>(value));
  } else {
    varied.as_table()[key] = toml::value(value);
  }
  TableReader varied_model = table_reader_of(file, "model", varied), same_initial = table_reader_of(file, "initial", initial_table);
  return info.build(varied_model, same_initial);
}

}  // namespace tb
