#pragma once
// The case's model at other values of one of its [model] keys, for the studies whose own table
// names such values ([report.parameter_map], [report.error_spread]): built when the case is
// loaded, so that a value the model refuses is an input error before anything runs.

#include <memory>
#include <string>
#include <vector>

#include "app/input/study.hpp"
#include "core/model.hpp"

namespace tb {

// One model per value of `key`; a value the model refuses fails the table's key 'values' with
// the model's reason.
std::vector<std::shared_ptr<const Model>> model_variants(TableReader& table, const SectionInputs& in,
                                                         const std::string& key, const std::vector<double>& values);

}  // namespace tb
