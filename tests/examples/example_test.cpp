// The worked examples of examples/ (an integrator and a model a researcher keeps in their own
// repository and loads with --plugin), compiled here into the suite's catalogue as the in-tree
// path would: they must do what the README says (order 3; the chain's lowest normal mode).
// tests/install_examples.sh builds the same files out of tree against an installation.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "app/reference.hpp"
#include "app/runner.hpp"
#include "examples/integrator_rk3/rk3.hpp"
#include "examples/model_spring_chain/model.hpp"
#include "numerics/convergence.hpp"
#include "suite/catalogue.hpp"

using namespace tb;

namespace {

const Catalogue& extended_catalogue() {
  static const Catalogue catalogue = [] {
    Catalogue c = suite_catalogue();
    // A contributor who has added these to the suite itself (the in-tree path): the examples'
    // copy takes their place, so what is tested is the example.
    auto without = [](auto& list, const std::string& name) {
      list.erase(std::remove_if(list.begin(), list.end(), [&](const auto& i) { return i.name == name; }), list.end());
    };
    without(c.integrators, "rk3");
    without(c.models, "spring_chain");
    c.integrators.push_back(my_methods::rk3_info());
    c.models.push_back(my_models::spring_chain::info());
    auto by_name = [](const auto& a, const auto& b) { return a.name < b.name; };
    std::sort(c.integrators.begin(), c.integrators.end(), by_name);
    std::sort(c.models.begin(), c.models.end(), by_name);
    c.validate();
    return c;
  }();
  return catalogue;
}

const std::string kExamples = TETHERBENCH_EXAMPLES;

}  // namespace

TEST_CASE("example: the integrator and the model join the catalogue and load the example's case files",
          "[examples]") {
  const Catalogue& c = extended_catalogue();
  REQUIRE(c.find_integrator("rk3"));
  REQUIRE(c.find_model("spring_chain"));
  const Case chain = load_case(kExamples + "/model_spring_chain/cases/T_spring_chain.toml", c);
  const Case fixture = load_case(kExamples + "/model_spring_chain/fixture_spring_chain.toml", c);
  CHECK(chain.model_name == "spring_chain");
  CHECK(fixture.model_name == "spring_chain");
  // rk3 runs the chain; the Lie group and DAE integrators are n/a with the model's reasons.
  CHECK_FALSE(why_not_applicable(chain, *c.find_integrator("rk3"), ""));
  const auto lgvi_why = why_not_applicable(chain, *c.find_integrator("lgvi"), "");
  REQUIRE(lgvi_why);
  CHECK(lgvi_why->rfind("spring_chain offers no discrete-lie-group form: no discrete Lagrangian", 0) == 0);
}

TEST_CASE("example: rk3 converges at order 3 on the spring chain and keeps its lowest mode", "[examples]") {
  const Catalogue& c = extended_catalogue();
  const Case chain = load_case(kExamples + "/model_spring_chain/cases/T_spring_chain.toml", c);
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
