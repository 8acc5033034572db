#include "core/model.hpp"

#include <algorithm>
#include <cmath>

namespace tb {

FormulationMenu::FormulationMenu(std::string name, StateSize size, std::vector<Item> items, std::vector<PhysicalPart> parts)
    : name_(std::move(name)), size_(std::move(size)), items_(std::move(items)), parts_(std::move(parts)) {
  for (const auto& item : items_)
    if (std::find(discretisations_.begin(), discretisations_.end(), item.discretisation) == discretisations_.end())
      discretisations_.push_back(item.discretisation);
  if (discretisations_.empty()) discretisations_.push_back("");
}

const FormulationMenu::Item* FormulationMenu::find(FormulationKind kind, const std::string& discretisation) const {
  for (const auto& item : items_)
    if (item.kind == kind && item.discretisation == discretisation) return &item;
  return nullptr;
}

std::optional<double> FormulationMenu::max_frequency(const std::string& discretisation) const {
  if (const auto it = max_frequency_.find(discretisation); it != max_frequency_.end()) return it->second;
  const auto lazy = max_frequency_source_.find(discretisation);
  if (lazy == max_frequency_source_.end()) return std::nullopt;
  LazyFrequency& f = *lazy->second;
  std::call_once(f.once, [&f] { f.omega = f.compute(); });
  return std::isfinite(f.omega) && f.omega > 0.0 ? std::optional<double>(f.omega) : std::nullopt;
}

bool FormulationMenu::offers(FormulationKind kind, const std::string& discretisation, std::string& why_not) const {
  if (std::find(discretisations_.begin(), discretisations_.end(), discretisation) == discretisations_.end()) {
    why_not = name_ + " has no discretisation '" + discretisation + "'";
    return false;
  }
  const Item* item = find(kind, discretisation);
  if (item && item->make) return true;
  // A pair the menu does not list: the model gave no reason, and none is invented for it.
  why_not = item ? item->why_not : "the model lists no " + to_string(kind) + " form and gives no reason";
  return false;
}

std::unique_ptr<Formulation> FormulationMenu::build(FormulationKind kind, const std::string& discretisation) const {
  return find(kind, discretisation)->make();
}

}  // namespace tb
