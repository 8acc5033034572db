#pragma once
// A model whose physical_parts() (core/model.hpp) are listed when asked, not when the model is
// built. A scalable model's case file may ask for a state far beyond the resource guard
// (app/input/limits.hpp: --max-state), which refuses it only once the model is built, so nothing
// proportional to the state may be allocated before then (a list of 6e9 parts for
// elements = 1e9 would end the process with bad_alloc instead of exit status 2). Everything
// else is the wrapped menu's.

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/model.hpp"

namespace tb {

class LazyPartsModel final : public Model {
 public:
  LazyPartsModel(std::shared_ptr<const FormulationMenu> menu, std::function<std::vector<PhysicalPart>()> parts)
      : menu_(std::move(menu)), parts_(std::move(parts)) {}
  std::string name() const override { return menu_->name(); }
  std::vector<std::string> discretisations() const override { return menu_->discretisations(); }
  StateSize state_size() const override { return menu_->state_size(); }
  std::vector<PhysicalPart> physical_parts() const override { return parts_(); }
  std::optional<double> max_frequency(const std::string& discretisation) const override {
    return menu_->max_frequency(discretisation);
  }
  bool offers(FormulationKind kind, const std::string& discretisation, std::string& why_not) const override {
    return menu_->offers(kind, discretisation, why_not);
  }

 protected:
  std::unique_ptr<Formulation> build(FormulationKind kind, const std::string& discretisation) const override {
    std::string why_not;
    return menu_->make_formulation(kind, discretisation, why_not);
  }

 private:
  std::shared_ptr<const FormulationMenu> menu_;
  std::function<std::vector<PhysicalPart>()> parts_;
};

}  // namespace tb
