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

#include "integrators/lgvi_step_solver.hpp"
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

// A generic state of the LGVI scheme on the form: its initial state after `steps` steps of size
// h (so that the momenta are the scheme's own, not the continuous Legendre transform's).
inline Eigen::VectorXd lgvi_state_after(const DiscreteLieGroupFormulation& form, double h, int steps = 5) {
  StepCounters counters;
  LgviStepSolver solver(form, settings_of("lgvi", h), counters);
  StepFailure failure;
  Eigen::VectorXd y = form.initial_state(), next;
  for (int i = 0; i < steps; ++i) {
    INFO(failure.reason);
    REQUIRE(solver.solve(i * h, y, h, next, failure));
    solver.commit();
    y = next;
  }
  return y;
}

}  // namespace tb::testing
