// lgvi4, the 4th-order composition of the LGVI step (integrators/lgvi4/lgvi4.cpp):
//   1. its coefficients satisfy the order conditions of Hairer-Lubich-Wanner II.4 (4.4)-(4.6):
//      sum 1, sum of cubes 0 (order 3, hence 4 by symmetry), palindromic;
//   2. the LGVI step it composes is symmetric, Φ_{-h}(Φ_h(y)) = y, on every model offering the
//      discrete Lie group form (every fixture of tests/model_fixtures, from the model registry):
//      to within 1e-11 relative to the state (Newton stops at corrections of 1e-13 |x|, which
//      the momenta, D L_d ~ m dx / h, carry over); and a step that is not symmetric (Model B's
//      printed discretisation with the reel moving) misses that bound by orders of magnitude and
//      is declared as such (why_not_time_symmetric), which lgvi4 refuses;
//   3. its measured order is 4 on every fixture model, by self-convergence (both schemes);
//   4. it conserves what the LGVI conserves (momentum map, orthonormality) to round-off.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/composition.hpp"
#include "integrators/lgvi_step_solver.hpp"
#include "mechanics/body_shapes.hpp"
#include "models/reel_pendulum/model.hpp"
#include "models/reel_pendulum/mechanics.hpp"
#include "tests/lie_group_fixtures.hpp"
#include "tests/self_convergence.hpp"
#include "tests/moving_reel.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

namespace {

// |Φ_{-h}(Φ_h(y)) - y|∞ / max(1, |y|∞) for y the formulation's state after a few steps (so that
// the state is a generic one of the scheme), and |Φ_h(y) - y|∞ / max(1, |y|∞) for scale.
struct SymmetryDefect {
  double back = 0.0, forward = 0.0;
};
SymmetryDefect symmetry_defect(const DiscreteLieGroupFormulation& form, double h) {
  StepCounters counters;
  const IntegratorSettings s = settings_of("lgvi", h);
  LgviStepSolver forward(form, s, counters), backward(form, s, counters);
  StepFailure failure;
  const int steps = 5;
  const Eigen::VectorXd y = lgvi_state_after(form, h, steps);
  const double t = steps * h;  // y's time (a model that drives a point reads it)
  Eigen::VectorXd y1, y2;
  INFO(failure.reason);
  REQUIRE(forward.solve(t, y, h, y1, failure));
  REQUIRE(backward.solve(t + h, y1, -h, y2, failure));  // back from t + h
  // In the form's canonical coordinates: a state stored as one representative of its momenta
  // (Model C's joint momenta) returns as another representative of the same point.
  const Eigen::VectorXd c = form.canonical_state(y), c1 = form.canonical_state(y1), c2 = form.canonical_state(y2);
  const double scale = std::max(1.0, c.lpNorm<Eigen::Infinity>());
  return {(c2 - c).lpNorm<Eigen::Infinity>() / scale, (c1 - c).lpNorm<Eigen::Infinity>() / scale};
}


}  // namespace

TEST_CASE("the composition coefficients (lgvi4, rattle4) satisfy the 4th-order composition conditions", "[lgvi4]") {
  for (const std::string scheme : {kYoshida, kSuzuki}) {
    const std::vector<double> g = fourth_order_composition(scheme);
    INFO("scheme " << scheme);
    CHECK(g.size() == (scheme == kYoshida ? 3u : 5u));
    double sum = 0.0, cubes = 0.0;
    for (double x : g) {
      sum += x;
      cubes += x * x * x;
    }
    CHECK(std::abs(sum - 1.0) < 4e-16 * g.size());   // consistency
    CHECK(std::abs(cubes) < 4e-15 * g.size());       // HLW II.4 Theorem 4.1 with p = 2: order 3, even by symmetry: 4
    for (std::size_t i = 0; i < g.size(); ++i) CHECK(g[i] == g[g.size() - 1 - i]);  // palindromic: Ψ symmetric
    CHECK(*std::min_element(g.begin(), g.end()) < 0.0);  // a real-coefficient one needs a backward step
  }
  CHECK(fourth_order_composition(kYoshida)[1] == Approx(-1.7024143839193153).epsilon(1e-15));  // Yoshida 1990
  CHECK(fourth_order_composition(kSuzuki)[0] == Approx(0.41449077179437571).epsilon(1e-15));  // Suzuki 1990
  CHECK_THROWS(fourth_order_composition("0"));
}

TEST_CASE("the LGVI step is symmetric on every model offering it, and declares it", "[lgvi4][symmetry]") {
  const auto fixtures = lie_group_fixtures();
  REQUIRE(fixtures.size() >= 5);  // elastic pendulum, free rigid body, multirotor, reel (free, locked), string
  for (const auto& f : fixtures) {
    DYNAMIC_SECTION(f.label) {
      auto form = lie_group_form(*f.model, f.discretisation);
      const SymmetryDefect d = symmetry_defect(*form, f.h);
      std::printf("symmetry %-28s h = %.1e: |Φ(-h)Φ(h)y - y| = %.2e, |Φ(h)y - y| = %.2e (relative)\n", f.label.c_str(),
                  f.h, d.back, d.forward);
      CHECK(form->why_not_time_symmetric().empty());
      CHECK(d.forward > 1e-6);  // the step moves the state: the test can fail
      CHECK(d.back < 1e-11);
    }
  }
}

TEST_CASE("a step that is not symmetric is measured so, declared, and refused by lgvi4", "[lgvi4][symmetry]") {
  const auto paper_model = testing::moving_reel(reel_pendulum::Parameters::Discretization::Paper);
  const auto midpoint_model = testing::moving_reel(reel_pendulum::Parameters::Discretization::Midpoint);
  auto paper = lie_group_form(*paper_model, paper_model->default_discretisation());
  auto midpoint = lie_group_form(*midpoint_model, midpoint_model->default_discretisation());
  const double h = 5e-4;
  const SymmetryDefect dp = symmetry_defect(*paper, h), dm = symmetry_defect(*midpoint, h);
  std::printf("Model B, reel moving: symmetry defect %.2e (paper's rule), %.2e (midpoint rule)\n", dp.back, dm.back);
  CHECK(dm.back < 1e-11);
  CHECK(dp.back > 1e3 * 1e-11);
  CHECK(midpoint->why_not_time_symmetric().empty());
  CHECK_FALSE(paper->why_not_time_symmetric().empty());
  const IntegratorInfo& info = integrator("lgvi4");
  const IntegrationOutcome out = integrate(*paper, info, settings_of(info, h), 0.01, 0.01, {});
  CHECK_FALSE(out.ok());
  CHECK(out.outcome.describe().find("not symmetric") != std::string::npos);
}

TEST_CASE("lgvi4 is 4th order on every model offering the LGVI step", "[lgvi4][order]") {
  // Self-convergence (tests/self_convergence.hpp) from the fixture's h, both schemes, and lgvi
  // (order 2) beside them.
  for (const auto& f : lie_group_fixtures()) {
    DYNAMIC_SECTION(f.label) {
      auto form = lie_group_form(*f.model, f.discretisation);
      for (const std::string name : {"lgvi4", "lgvi"}) {
        for (const std::string scheme : {kYoshida, kSuzuki}) {
          if (name == "lgvi" && scheme == kSuzuki) continue;
          const SelfConvergence c = self_convergence(*form, integrator(name), f.h, [&](IntegratorSettings& s) {
            if (name == "lgvi4") s.set_word("scheme", scheme);
          });
          std::printf("order %-32s %-5s scheme %s: %.3f (h0 = %.2g, T = %.2g, differences %.2e .. %.2e)\n", f.label.c_str(),
                      name.c_str(), scheme.c_str(), c.order, c.h0, c.T, c.first_difference, c.last_difference);
          CHECK(std::abs(c.order - integrator(name).order) < 0.25);
        }
      }
    }
  }
}

TEST_CASE("lgvi4 keeps the LGVI's invariants: momentum map and orthonormality", "[lgvi4][invariants]") {
  // Model A spinning (N = 8): pi3 is a momentum map of every substep, so of the composition;
  // R is multiplied by Cayley rotations only.
  auto model = string_pendulum::make_model(paper_parameters(8), spinning_initial_condition());
  const IntegratorInfo& info = integrator("lgvi4");
  auto form = formulation_for(*model, info);
  double pi3_0 = 0.0, max_dpi3 = 0.0, max_orth = 0.0;
  bool first = true;
  const IntegrationOutcome out =
      integrate(*form, info, settings_of(info, 2e-4), 0.5, 1e-2, [&](double t, const Eigen::VectorXd& y) {
        const Observation o = form->observe(t, y);
        if (first) pi3_0 = o.momentum, first = false;
        max_dpi3 = std::max(max_dpi3, std::abs(o.momentum - pi3_0));
        max_orth = std::max(max_orth, o.orthogonality_err);
      });
  REQUIRE(out.ok());
  std::printf("lgvi4 Model A spinning, 0.5 s: max |dpi3| = %.2e, max orth = %.2e\n", max_dpi3, max_orth);
  CHECK(max_dpi3 < 1e-12);
  CHECK(max_orth < 1e-13);
}
