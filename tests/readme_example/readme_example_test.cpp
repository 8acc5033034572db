// The README's worked examples, compiled from README.md itself (CMakeLists.txt extracts every
// block marked `<!-- readme-example: PATH -->` into the build tree): the example integrator
// and model join the suite's catalogue as a user's would, and must do what the README says.
// Their names are macro-renamed for this test (CMakeLists.txt), so a user who has added the
// very same files to the tree still links.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "core/reference.hpp"
#include "core/runner.hpp"
#include "integrators/rk3/rk3.hpp"
#include "models/spring_chain/model.hpp"
#include "numerics/convergence.hpp"
#include "suite/catalogue.hpp"

using namespace tb;

namespace {

const Catalogue& extended_catalogue() {
  static const Catalogue catalogue = [] {
    Catalogue c = suite_catalogue();
    // A user who has followed the README has these in the suite already: the README's copy
    // takes their place, so what is tested is the README's text.
    auto without = [](auto& list, const std::string& name) {
      list.erase(std::remove_if(list.begin(), list.end(), [&](const auto& i) { return i.name == name; }), list.end());
    };
    without(c.integrators, "rk3");
    without(c.models, "spring_chain");
    c.integrators.push_back(rk3_info());
    c.models.push_back(spring_chain::info());
    auto by_name = [](const auto& a, const auto& b) { return a.name < b.name; };
    std::sort(c.integrators.begin(), c.integrators.end(), by_name);
    std::sort(c.models.begin(), c.models.end(), by_name);
    c.validate();
    return c;
  }();
  return catalogue;
}

const std::string kExamples = TETHERBENCH_README_EXAMPLES;

}  // namespace

TEST_CASE("README example: the integrator and the model join the catalogue and load the README's case files",
          "[readme]") {
  const Catalogue& c = extended_catalogue();
  REQUIRE(c.find_integrator("rk3"));
  REQUIRE(c.find_model("spring_chain"));
  const Case chain = load_case(kExamples + "/cases/T_spring_chain.toml", c);
  const Case fixture = load_case(kExamples + "/tests/model_fixtures/spring_chain.toml", c);
  CHECK(chain.model_name == "spring_chain");
  CHECK(fixture.model_name == "spring_chain");
  // rk3 runs the chain; the Lie group and DAE integrators are n/a with the model's reasons.
  CHECK_FALSE(why_not_applicable(chain, *c.find_integrator("rk3"), ""));
  const auto lgvi_why = why_not_applicable(chain, *c.find_integrator("lgvi"), "");
  REQUIRE(lgvi_why);
  CHECK(lgvi_why->find("no Lie group form") != std::string::npos);
}

TEST_CASE("README example: rk3 converges at order 3 on the spring chain and keeps its lowest mode", "[readme]") {
  const Catalogue& c = extended_catalogue();
  const Case chain = load_case(kExamples + "/cases/T_spring_chain.toml", c);
  const IntegratorInfo& rk3 = *c.find_integrator("rk3");
  const double T = 2.0;
  const Eigen::VectorXd reference = compute_reference(c.reference(), *chain.model, "", T, 1e-3).physical;
  std::vector<double> hs, errors;
  for (double h : {2e-2, 1e-2, 5e-3, 2.5e-3}) {
    IntegratorSettings s = chain.settings_for("rk3");
    s.h = h;
    MeasureOptions m;
    m.t_end = m.sample_interval = T;
    const Measurement run = measure(RunKey{&chain, &rk3, ""}, s, m);
    REQUIRE(run.outcome.ok());
    hs.push_back(h);
    errors.push_back((run.final_physical - reference).lpNorm<Eigen::Infinity>());
  }
  const double order = fitted_order(hs, errors);
  INFO("measured order " << order << ", errors " << errors.front() << " .. " << errors.back());
  CHECK(std::abs(order - 3.0) < 0.25);
  // The lowest normal mode: x_1(t) = A sin(pi / (N + 1)) cos(omega_1 t),
  // omega_1 = 2 sqrt(k / m) sin(pi / (2 (N + 1))), with the case's N = 8, k = 20, m = 0.5, A = 0.1.
  const double omega = 2.0 * std::sqrt(20.0 / 0.5) * std::sin(M_PI / 18.0);
  const double x1 = 0.1 * std::sin(M_PI / 9.0) * std::cos(omega * T);
  CHECK(std::abs(reference(0) - x1) < 1e-9);
}
