// The LGVI measured at its best (issue 23): its round-off is relative to each quantity's own
// size, so what the suite measures of it is the method, not the implementation.
//   1. One step forward and back, Φ_{-h}∘Φ_h, returns to the start to round-off of each state
//      component, whatever h (1e-4 ... 1e-8): no O(1) - O(1) difference stands for an O(h)
//      quantity in the residual, the update or the momenta (before: a momentum error growing
//      like 1/h on Model C, 3e-14 at h = 1e-4, 2.3e-10 at h = 1e-8). Every model offering the step.
//   2. On Model C the LGVI and RATTLE solve the same discrete position equations (in joint
//      coordinates the LGVI's are SHAKE's; on R it is Moser-Veselov), so they agree to
//      round-off, and at a tiny step the LGVI's energy error is RATTLE's.
//   3. lgvi4 is 4th order on the Model C cases that run it, with RATTLE4's errors.
//   4. The floor Newton stops at, estimated by each form from its residual's terms, is reached and
//      refuses an iterate 1e-9 off; on Model C one residual evaluation per step at h = 1.56e-6.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "app/input/applicability.hpp"
#include "app/running/reference.hpp"
#include "integrators/lgvi_step_solver.hpp"
#include "models/multirotor_payload/model.hpp"
#include "tests/lie_group_fixtures.hpp"
#include "tests/multirotor_test_support.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

namespace {

// The largest difference of a from b relative to the size of the quantity it belongs to: every
// state here is a sequence of 3-vectors (a position, a momentum, a row of R, a direction q_i)
// and of scalars after them (Model B's reel length and its momentum), each compared by its own
// length, so that a component that is small only because of the vector's orientation is not
// asked for more digits than the vector carries.
double max_relative_difference(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  double worst = 0.0;
  const Eigen::Index vectors = b.size() / 3;
  auto compare = [&](Eigen::Index start, Eigen::Index length) {
    const double d = (a.segment(start, length) - b.segment(start, length)).norm();
    if (d == 0.0) return;
    const double size = b.segment(start, length).norm();
    worst = std::max(worst, size > 0.0 ? d / size : std::numeric_limits<double>::infinity());
  };
  for (Eigen::Index v = 0; v < vectors; ++v) compare(3 * v, 3);
  for (Eigen::Index i = 3 * vectors; i < b.size(); ++i) compare(i, 1);
  return worst;
}

// |Φ_{-h}(Φ_h(y)) - y| at h = 1e-4 ... 1e-8 in the form's canonical coordinates
// (max_relative_difference), from a generic state of the scheme: a few steps at h0.
const std::vector<double> kRoundTripSteps = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
std::vector<double> round_trip_errors(const DiscreteLieGroupFormulation& form, double h0, const std::string& label) {
  StepCounters counters;
  StepFailure failure;
  const Eigen::VectorXd y = lgvi_state_after(form, h0);
  const Eigen::VectorXd c = form.canonical_state(y);
  std::vector<double> out;
  for (double h : kRoundTripSteps) {
    LgviStepSolver forward(form, settings_of("lgvi", h), counters), backward(form, settings_of("lgvi", h), counters);
    Eigen::VectorXd y1, y2;
    INFO(label << " h = " << h << ": " << failure.reason);
    REQUIRE(forward.solve(0.0, y, h, y1, failure));
    REQUIRE(backward.solve(h, y1, -h, y2, failure));  // back from t = h
    out.push_back(max_relative_difference(form.canonical_state(y2), c));
    std::printf("round trip %-36s h = %.0e: %.2e relative\n", label.c_str(), h, out.back());
  }
  return out;
}

}  // namespace

TEST_CASE("one LGVI step forward and back returns to round-off at every h, on every model", "[lgvi][roundoff]") {
  // Flat in h: nothing grows like 1/h as h shrinks (before issue 23, Model C's momenta did,
  // 10x per decade). Below h = 1e-6 the step's impulses are small against the momenta and the
  // round trip is the representation's round-off alone, at most ~5 ulps of each quantity. At
  // larger h a row's terms (a stiff string's strain impulses h EA/u |x|) exceed the momentum they
  // change and the update is rounded relative to them: Model A 1.1e-14 at h = 1e-4, 2.3e-15 at 1e-5.
  for (const auto& f : lie_group_fixtures()) {
    DYNAMIC_SECTION(f.label) {
      auto form = lie_group_form(*f.model, f.discretisation);
      const std::vector<double> errors = round_trip_errors(*form, f.h, f.label);
      for (std::size_t i = 0; i < errors.size(); ++i) {
        INFO("h = " << kRoundTripSteps[i]);
        if (kRoundTripSteps[i] <= 1e-6) CHECK(errors[i] <= 1e-15);
        if (i > 0) CHECK(errors[i] <= 1.5 * errors[i - 1] + 5e-16);
      }
    }
  }
}

TEST_CASE("the residual's round-off floor is reached by Newton and refuses a solution off by 1e-9", "[lgvi][roundoff]") {
  // The floor each form estimates from the magnitudes of its residual's terms
  // (DiscreteLieGroupStep::residual_magnitudes) is what the solver stops at (kFloorEps = 4 eps
  // of them). Calibration, on every model offering the step, at its fixture's h and at 1e-6:
  // plain Newton reaches max_i |G_i| / (eps S_i) <= 4 (measured 0-0.5), and the solution
  // moved by 1e-9 of its unknowns' size lies far above it (2e6-4e6), so the floor neither stalls Newton
  // nor accepts an unconverged iterate.
  for (const auto& f : lie_group_fixtures()) {
    DYNAMIC_SECTION(f.label) {
      auto form = lie_group_form(*f.model, f.discretisation);
      const Eigen::VectorXd y = lgvi_state_after(*form, f.h);
      for (double h : {f.h, 1e-6}) {
        auto step = form->make_step();
        step->begin(y, h);
        Eigen::VectorXd x, G, S, dx;
        step->initial_guess(x);
        auto excess = [&](const Eigen::VectorXd& at) {  // in units of eps S, the solver's floor being 4
          step->residual(at, G);
          step->residual_magnitudes(S);
          return 4.0 * residual_excess(G, S);
        };
        double best = excess(x);
        for (int it = 0; it < 12; ++it) {
          REQUIRE(step->newton_correction(x, G, dx));
          x += dx;
          best = std::min(best, excess(x));
        }
        std::vector<int> groups;
        step->unknown_groups(groups);
        Eigen::VectorXd moved = x;
        for (std::size_t j = 0; j < groups.size(); ++j)
          if (groups[j] >= 0) moved(Eigen::Index(j)) += 1e-9 * std::max(std::abs(x(Eigen::Index(j))), 1e-300);
        const double off = excess(moved);
        std::printf("floor %-36s h = %.0e: Newton reaches %.2f eps S, the solution moved by 1e-9 %.2e eps S\n",
                    f.label.c_str(), h, best, off);
        CHECK(best <= 4.0);
        CHECK(off > 100.0);
      }
    }
  }
}

namespace {

struct EnergyRun {
  IntegrationOutcome outcome;
  Eigen::VectorXd physical;  // the model's physical state at the end
  double max_energy_error = 0.0;
};

EnergyRun run_with_energy(const Model& model, const std::string& name, double t_end, double h, double sample,
                          const std::vector<std::pair<std::string, double>>& settings = {}) {
  const IntegratorInfo& info = integrator(name);
  auto form = formulation_for(model, info);
  IntegratorSettings s = settings_of(info, h);
  for (const auto& [key, value] : settings) s.set(key, value);
  EnergyRun out;
  double E0 = 0.0;
  bool first = true;
  out.outcome = integrate(*form, info, s, t_end, sample, [&](double t, const Eigen::VectorXd& y) {
    const double E = form->observe(t, y).energy;
    if (first) E0 = E, first = false;
    out.max_energy_error = std::max(out.max_energy_error, std::abs(E - E0));
  });
  out.physical = form->physical_state(out.outcome.final_state);
  return out;
}

}  // namespace

TEST_CASE("on Model C the LGVI and RATTLE solve the same discrete equations: they agree to round-off", "[lgvi][model-c][roundoff]") {
  const auto model = multirotor_payload::make_model(paper_single(), multirotor_payload::InitialCondition{});
  // The round trip Φ_{-h}∘Φ_h within 1e-15 of each quantity at every h from 1e-4 to 1e-8: the
  // cable's impulses are small against its momenta, so nothing but the representation's
  // round-off is left (before issue 23: 3e-14 at h = 1e-4, growing like 1/h to 2.3e-10 at 1e-8).
  // From the Model C fixture's generic state (a moving, bent cable; the paper case starts at rest,
  // where the total linear momentum is zero and its round-off has no size of its own to be relative to).
  {
    const Case fixture = load_case(TETHERBENCH_MODEL_FIXTURES_DIR "/multirotor_payload.toml");
    const auto form = lie_group_form(*fixture.model, fixture.model->default_discretisation());
    for (double e : round_trip_errors(*form, fixture.h, "Model C fixture")) CHECK(e <= 1e-15);
  }
  // N = 10, h = 1e-3, 1000 steps: positions, velocities, R and Omega. RATTLE solved to its
  // round-off floor too (newton_tol far below it, so its floor rule stops it): at its default
  // newton_tol = 1e-14 (relative constraint error) its positions are left 1e-14 l off the
  // constraint each step, which is 1e-11 in its velocities, and the two runs part by 2.5e-9
  // over the 1000 steps; at their floors, by 3.4e-11.
  const EnergyRun lgvi = run_with_energy(*model, "lgvi", 1.0, 1e-3, 0.1),
                  rattle = run_with_energy(*model, "rattle", 1.0, 1e-3, 0.1, {{"newton_tol", 1e-18}});
  REQUIRE(lgvi.outcome.ok());
  REQUIRE(rattle.outcome.ok());
  const double difference = (lgvi.physical - rattle.physical).lpNorm<Eigen::Infinity>();
  std::printf("Model C, h = 1e-3, 1000 steps: |lgvi - rattle| = %.2e (physical state, max-norm)\n", difference);
  CHECK(difference <= 1e-10);

  // At a tiny step (h = 1.56e-6 over 0.2 s, 128 000 steps) both errors are the method's
  // O(h^2) error plus round-off; before issue 23 the LGVI's round-off grew like 1/h and its
  // energy error was 1.35e-5 J against RATTLE's 8e-12 J.
  const double h = 0.2 / 128000.0;
  const EnergyRun lgvi_small = run_with_energy(*model, "lgvi", 0.2, h, 0.01),
                  rattle_small = run_with_energy(*model, "rattle", 0.2, h, 0.01);
  REQUIRE(lgvi_small.outcome.ok());
  REQUIRE(rattle_small.outcome.ok());
  std::printf("Model C, h = %.3g, 0.2 s: max |dE| lgvi %.2e J, rattle %.2e J; Newton iterations per step %.2f\n", h,
              lgvi_small.max_energy_error, rattle_small.max_energy_error,
              double(lgvi_small.outcome.counters.newton_iters) / double(lgvi_small.outcome.counters.steps));
  CHECK(lgvi_small.max_energy_error <= 3.0 * rattle_small.max_energy_error);
  // Newton stops at the residual's round-off floor: at most one correction and its check.
  CHECK(double(lgvi_small.outcome.counters.newton_iters) / double(lgvi_small.outcome.counters.steps) <= 2.5);
}

TEST_CASE("on Model A the LGVI and RATTLE solve the same discrete equations: they agree to round-off", "[lgvi][model-a][roundoff]") {
  // The string's trapezoidal discrete Lagrangian (seed 000, eqs. 17-18) with the rigid body's
  // rotation updated on SO(3) (the LGVI) or carried as 9 numbers under R^T R = I (RATTLE): one
  // discrete system, so the two part by round-off amplified over the steps, not by their O(h^2)
  // error (which is about 1e-6 of the state here). benchmarks.md compares their costs per step
  // on this ground (suite/catalogue.cpp).
  const auto model = testing::paper_model(20);
  const double h = 1e-4, t_end = 0.05;
  const EnergyRun lgvi = run_with_energy(*model, "lgvi", t_end, h, 0.01),
                  rattle = run_with_energy(*model, "rattle", t_end, h, 0.01, {{"newton_tol", 1e-18}});
  REQUIRE(lgvi.outcome.ok());
  REQUIRE(rattle.outcome.ok());
  const double difference = (lgvi.physical - rattle.physical).lpNorm<Eigen::Infinity>();
  std::printf("Model A, h = 1e-4, 500 steps: |lgvi - rattle| = %.2e (physical state, max-norm)\n", difference);
  CHECK(difference <= 1e-11);
  // The same pair one step order apart is not the same system: the check can tell them apart.
  const EnergyRun coarse = run_with_energy(*model, "rattle", t_end, 2 * h, 0.01, {{"newton_tol", 1e-18}});
  REQUIRE(coarse.outcome.ok());
  CHECK((lgvi.physical - coarse.physical).lpNorm<Eigen::Infinity>() > 1e3 * difference);
}

TEST_CASE("lgvi4 is 4th order on the Model C cases and has rattle4 errors", "[lgvi4][model-c][order]") {
  // Every bundled case of Model C that runs both compositions, over its work-precision
  // horizon, against the stored reference (the same error as the work-precision study: the
  // max-norm distance of the final physical state), at the case's swept steps down to
  // 1.25e-5. The order is fitted over the points whose errors are at least 10x the reference's
  // agreement with its cross-check (below that the reference, not the method, is measured:
  // C_cooperative's symmetric motion has 3.7e-11 at h = 5e-5 against an agreement of 1.1e-12),
  // and needs 3 of them (the asymptotic range, as below). Before issue 23 lgvi4's error grew as h shrank (C_single 9.7e-6,
  // 2.6e-5, 1.6e-4 at h = 1e-4, 5e-5, 2.5e-5; orders -0.42 and -2.03 on C_single and
  // C_cooperative). lgvi4's errors are compared with rattle4's where rattle4 is itself in its
  // asymptotic range (local order from the previous step within 4 +- 0.3): at the smallest steps
  // rattle4 leaves it (C_single, h = 1.25e-5: 1.07e-9 where the order-4 line through its other
  // points gives 1.35e-9 and lgvi4 has 1.348e-9; 6.8e-10 with its newton_tol at 1e-18), a
  // round-off limit of RATTLE's velocity update (closing note of issue 23), not of lgvi4.
  int cases = 0;
  for (const Case& c : testing::bundled_cases()) {
    if (c.model_name != "multirotor_payload" || !c.lists("lgvi4") || !c.lists("rattle4")) continue;
    // A case the compositions decline (a slack cable of unilateral links: neither locates a snap).
    if (why_not_applicable(c, integrator("lgvi4"), c.model->default_discretisation()) ||
        why_not_applicable(c, integrator("rattle4"), c.model->default_discretisation()))
      continue;
    ++cases;
    DYNAMIC_SECTION(c.name) {
      const IntegratorInfo& solver = catalogue().reference();
      const std::string d = c.model->default_discretisation();
      const Eigen::VectorXd reference = read_references(c, TETHERBENCH_REFERENCE_DIR, solver).at(d);
      const double agreement =
          (read_references(c, TETHERBENCH_REFERENCE_DIR, catalogue().crosscheck(), ReferenceRole::CrossCheck).at(d) - reference)
              .lpNorm<Eigen::Infinity>();
      std::vector<double> steps, lgvi4_errors, rattle4_errors;
      for (double h : c.report.steps) {
        const FinalState a = run_to(*c.model, "lgvi4", c.report.reference_t_end, h);
        const FinalState b = run_to(*c.model, "rattle4", c.report.reference_t_end, h);
        REQUIRE(a.outcome.ok());
        REQUIRE(b.outcome.ok());
        const double ea = (a.physical - reference).lpNorm<Eigen::Infinity>();
        const double eb = (b.physical - reference).lpNorm<Eigen::Infinity>();
        std::printf("%s h = %.3g: lgvi4 %.3e rattle4 %.3e (reference agreement %.1e)\n", c.name.c_str(), h, ea, eb,
                    agreement);
        // The asymptotic range: from the largest step, while the errors stay 10x above the
        // reference's agreement and the local order stays within 0.3 of the first one (past
        // it, the run's own round-off: C_cooperative's symmetric motion has 1.3e-11 at
        // h = 1.25e-5, above 10x its reference agreement, after 3.3e-12 at 2.5e-5).
        if (ea < 10.0 * agreement) break;
        if (steps.size() >= 2) {
          auto local = [&](double e0, double e1, double h0, double h1) { return std::log(e0 / e1) / std::log(h0 / h1); };
          const double first = local(lgvi4_errors[0], lgvi4_errors[1], steps[0], steps[1]);
          if (std::abs(local(lgvi4_errors.back(), ea, steps.back(), h) - first) > 0.3) break;
        }
        steps.push_back(h);
        lgvi4_errors.push_back(ea);
        rattle4_errors.push_back(eb);
      }
      REQUIRE(steps.size() >= 3);
      const double order = fitted_order(steps, lgvi4_errors);
      std::printf("%s: lgvi4 order %.3f, rattle4 order %.3f over %zu points\n", c.name.c_str(), order,
                  fitted_order(steps, rattle4_errors), steps.size());
      CHECK(std::abs(order - 4.0) <= 0.3);
      int compared = 0;
      for (std::size_t i = 0; i < steps.size(); ++i) {
        const double rattle4_local =
            i == 0 ? 4.0 : std::log(rattle4_errors[i - 1] / rattle4_errors[i]) / std::log(steps[i - 1] / steps[i]);
        if (std::abs(rattle4_local - 4.0) > 0.3) continue;
        ++compared;
        INFO("h = " << steps[i]);
        CHECK(std::abs(lgvi4_errors[i] - rattle4_errors[i]) <= 0.2 * rattle4_errors[i]);
      }
      CHECK(compared >= 2);
    }
  }
  CHECK(cases >= 3);
}
