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

// The usual model: for every formulation kind, a factory building a fresh formulation from
// the model's parameters, or the reason the kind is not offered (shown as "n/a: ..." in the
// tables). Kinds not listed are declined as "not offered by <name>".
class FormulationMenu final : public Model {
 public:
  struct Item {
    FormulationKind kind;
    std::function<std::unique_ptr<Formulation>()> make;  // empty: declined
    std::string why_not;
  };
  FormulationMenu(std::string name, std::vector<Item> items) : name_(std::move(name)), items_(std::move(items)) {}
  std::string name() const override { return name_; }
  std::unique_ptr<Formulation> make_formulation(FormulationKind kind, std::string& why_not) const override {
    for (const auto& item : items_)
      if (item.kind == kind) {
        if (item.make) return item.make();
        why_not = item.why_not;
        return nullptr;
      }
    why_not = to_string(kind) + " is not offered by " + name_;
    return nullptr;
  }

 private:
  std::string name_;
  std::vector<Item> items_;
};

// Menu items: `offer<OdeForm>(FormulationKind::EmbeddedOde, p, ic)` builds OdeForm(p, ic) on
// each request (copies of the arguments are kept); `decline(kind, reason)`.
template <class Form, class... Args>
FormulationMenu::Item offer(FormulationKind kind, const Args&... args) {
  return {kind, [=] { return std::unique_ptr<Formulation>(std::make_unique<Form>(args...)); }, {}};
}
inline FormulationMenu::Item decline(FormulationKind kind, std::string why_not) { return {kind, {}, std::move(why_not)}; }

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
