#pragma once
// The fixtures of the Lie group variational integrator's tests (test_lgvi_composition.cpp,
// test_lgvi_roundoff.cpp): every fixture file of every registered model, on every
// discretisation its model offers as a discrete Lie group, so that a new model is covered by
// adding its fixture.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace tb::testing {

struct LieGroupFixture {
  std::string label;  // fixture file stem (and discretisation)
  std::shared_ptr<const Model> model;
  std::string discretisation;
  double h;
};

// Every fixture (tests/model_fixtures/<model>[.<variant>].toml) of every registered model, on
// every discretisation its model offers as a discrete Lie group.
inline std::vector<LieGroupFixture> lie_group_fixtures() {
  std::vector<LieGroupFixture> out;
  for (const auto& info : catalogue().models) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(TETHERBENCH_MODEL_FIXTURES_DIR)) {
      const std::string name = e.path().filename().string();
      if (e.path().extension() == ".toml" && (name == info.name + ".toml" || name.rfind(info.name + ".", 0) == 0))
        files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      const Case c = load_case(file);
      for (const auto& d : c.model->discretisations()) {
        std::string why_not;
        if (!c.model->offers(FormulationKind::DiscreteLieGroup, d, why_not)) continue;
        out.push_back({std::filesystem::path(file).stem().string() + (d.empty() ? "" : "@" + d), c.model, d, c.h});
      }
    }
  }
  return out;
}

inline std::unique_ptr<DiscreteLieGroupFormulation> lie_group_form(const Model& model, const std::string& discretisation) {
  std::string why_not;
  auto f = model.make_formulation(FormulationKind::DiscreteLieGroup, discretisation, why_not);
  REQUIRE(f);
  return std::unique_ptr<DiscreteLieGroupFormulation>(dynamic_cast<DiscreteLieGroupFormulation*>(f.release()));
}

}  // namespace tb::testing
