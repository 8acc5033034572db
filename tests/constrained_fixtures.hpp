#pragma once
// Every model fixture (tests/model_fixtures) whose model offers the constrained mechanical form,
// sorted by fixture name: the fixtures of the tests of rattle, rattle4 and generalized_alpha.

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace tb::testing {

struct ConstrainedOffering {
  std::string label;  // fixture file stem
  Case c;
  std::unique_ptr<Formulation> form;
  const ConstrainedMechanicalFormulation& cm() const { return dynamic_cast<const ConstrainedMechanicalFormulation&>(*form); }
};

inline std::vector<ConstrainedOffering> constrained_offerings() {
  std::vector<ConstrainedOffering> out;
  for (const auto& entry : std::filesystem::directory_iterator(TETHERBENCH_MODEL_FIXTURES_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    Case c = load_case(entry.path().string());
    std::string why_not;
    auto form = c.model->make_formulation(FormulationKind::ConstrainedMechanical, why_not);
    if (!form) continue;
    out.push_back({entry.path().stem().string(), std::move(c), std::move(form)});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.label < b.label; });
  return out;
}

}  // namespace tb::testing
