#pragma once
// A mechanical model built from a case file: its parameters plus the formulations it offers.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/formulation.hpp"
#include "core/table_reader.hpp"

namespace tb {

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  // A fresh, independent formulation object (runs may execute concurrently), or nullptr with
  // the reason in why_not when this model does not offer that formulation.
  virtual std::unique_ptr<Formulation> make_formulation(FormulationKind kind, std::string& why_not) const = 0;
};

// How a model is built from its [model] and [initial] tables. The factory reads every key it
// needs through the readers (which reject unknown ones) and throws InputError on bad values.
struct ModelInfo {
  std::string name;     // value of case.model in a case file
  std::string summary;  // one line for `tetherbench list`
  std::function<std::shared_ptr<const Model>(TableReader& model_table, TableReader& initial_table)> build;
};

// Every model, sorted by name. Adding a model: one folder under models/ and one line in models/registry.cpp.
const std::vector<ModelInfo>& model_registry();

}  // namespace tb
