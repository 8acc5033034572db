// RATTLE (integrators/rattle) on every model offering the constrained mechanical form, taken
// from the model fixtures (tests/model_fixtures): measured order against the reference solver,
// symmetry (a step of h then -h returns), the constraints g = 0 and G v = 0 at round-off after
// every step, bounded energy over long runs, the damped hanging tether's energy balance (its
// dissipated work carried as the form's work term), and, for the free rigid body, agreement with the
// LGVI (RATTLE on R^T R = I with T = 1/2 tr(R' J_d R'^T) is the discrete Moser-Veselov
// algorithm, HLW VII.5.3, which the LGVI solves in Cayley parameters).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/composition.hpp"
#include "core/metrics.hpp"
#include "integrators/rattle_step.hpp"
#include "models/free_rigid_body/model.hpp"
#include "models/planar_pendulum/model.hpp"
#include "tests/constrained_fixtures.hpp"
#include "tests/self_convergence.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

namespace {

using Offering = ConstrainedOffering;
std::vector<Offering> offerings() { return constrained_offerings(); }

double constraint_residual(const ConstrainedMechanicalFormulation& cm, const Eigen::VectorXd& y) {
  if (cm.constraints() == 0) return 0.0;
  Eigen::VectorXd g;
  cm.constraint(y.head(cm.positions()), g);
  return g.cwiseQuotient(cm.constraint_scale()).lpNorm<Eigen::Infinity>();
}

// |G v|_inf relative to |G|_F |v|_2 (a velocity with G v = 0 to round-off gives ~1e-16).
double velocity_constraint_residual(const ConstrainedMechanicalFormulation& cm, const Eigen::VectorXd& y) {
  if (cm.constraints() == 0) return 0.0;
  const int n = cm.positions();
  Eigen::VectorXd Gv;
  cm.constraint_jacobian_times(y.head(n), y.segment(n, n), Gv);
  std::vector<Eigen::Triplet<double>> entries;
  cm.constraint_jacobian(y.head(n), entries);
  double G_norm2 = 0.0;
  for (const auto& e : entries) G_norm2 += e.value() * e.value();
  return Gv.lpNorm<Eigen::Infinity>() / (std::sqrt(G_norm2) * y.segment(n, n).norm());
}

}  // namespace

TEST_CASE("rattle: every model offering the constrained form is found", "[rattle]") {
  // The models that offer it today; a model gaining or losing the form shows here.
  std::vector<std::string> labels;
  for (const auto& o : offerings()) labels.push_back(o.label);
  CHECK(labels == std::vector<std::string>{"elastic_pendulum", "free_rigid_body", "hanging_tether",
                                          "hanging_tether.lumped", "multirotor_payload", "planar_pendulum",
                                          "reel_pendulum", "reel_pendulum.locked", "string_pendulum"});
}

TEST_CASE("rattle: measured order 2 on every model offering the constrained form", "[rattle][order]") {
  // Final physical state at T = 0.2 s against the reference solver's tight solution of the
  // same model's ODE form, h = h0, h0/2, h0/4, h0/8 with h0 = min(4e-3, the fixture's h) (the
  // fixtures' h keep the stiff string and cable modes inside Stoermer-Verlet's stability
  // interval h w < 2). Measured: elastic_pendulum 2.000, free_rigid_body 2.000,
  // multirotor_payload 2.000, planar_pendulum 2.000, string_pendulum 2.000.
  for (const auto& o : offerings()) {
    DYNAMIC_SECTION(o.label) {
      const double T = 0.2;
      const Eigen::VectorXd reference = reference_solution(*o.c.model, T);
      std::vector<double> hs, errs;
      const double h0 = std::min(4e-3, o.c.h);
      for (const double h : {h0, h0 / 2.0, h0 / 4.0, h0 / 8.0}) {
        const FinalState run = run_to(*o.c.model, "rattle", T, h);
        INFO(run.outcome.outcome.describe());
        REQUIRE(run.outcome.ok());
        hs.push_back(h);
        errs.push_back((run.physical - reference).lpNorm<Eigen::Infinity>());
      }
      const double order = fitted_order(hs, errs);
      std::printf("rattle measured order %-20s %.3f (errors %.3g .. %.3g)\n", o.label.c_str(), order, errs.front(),
                  errs.back());
      CHECK(std::abs(order - 2.0) < 0.2);
    }
  }
}

TEST_CASE("rattle4: measured order 4 on every model offering the constrained form, both compositions",
          "[rattle4][order]") {
  // Self-convergence (tests/self_convergence.hpp) from h_start = min(4e-3, the fixture's h):
  // the composition of the symmetric RATTLE step (next test) must be of order 4 where RATTLE is
  // of order 2 (measured beside it); it would stay at 2 on a step that is not symmetric.
  for (const auto& o : offerings()) {
    DYNAMIC_SECTION(o.label) {
      const double h_start = std::min(4e-3, o.c.h);
      for (const std::string name : {"rattle4", "rattle"}) {
        for (const std::string scheme : {kYoshida, kSuzuki}) {
          if (name == "rattle" && scheme == kSuzuki) continue;
          const SelfConvergence c = self_convergence(o.cm(), integrator(name), h_start, [&](IntegratorSettings& s) {
            if (name == "rattle4") s.set_word("scheme", scheme);
          });
          std::printf("order %-20s %-7s scheme %s: %.3f (h0 = %.2g, T = %.2g, differences %.2e .. %.2e)\n",
                      o.label.c_str(), name.c_str(), scheme.c_str(), c.order, c.h0, c.T, c.first_difference, c.last_difference);
          CHECK(std::abs(c.order - integrator(name).order) < 0.25);
        }
      }
    }
  }
}

TEST_CASE("rattle: a step of h then -h returns to the start (symmetry)", "[rattle]") {
  // 20 steps of the fixture's h from its initial state; after each, a step of -h from the new
  // state must give back the old one, relative to |y|_inf. The scheme is symmetric exactly;
  // what remains is the Newton tolerance and round-off. Measured worst: elastic_pendulum 2.0e-16,
  // free_rigid_body 4.2e-16, multirotor_payload 5.1e-15, planar_pendulum 3.7e-16,
  // string_pendulum 2.6e-15. Bound 1e-12.
  for (const auto& o : offerings()) {
    DYNAMIC_SECTION(o.label) {
      RattleStep forward(o.cm(), 1e-14, 25), backward(o.cm(), 1e-14, 25);
      Eigen::VectorXd y = o.cm().initial_state(), next, back;
      const double h = o.c.h;
      double worst = 0.0;
      for (int k = 0; k < 20; ++k) {
        REQUIRE(forward.step(k * h, h, y, next).ok);
        REQUIRE(backward.step((k + 1) * h, -h, next, back).ok);
        worst = std::max(worst, (back - y).lpNorm<Eigen::Infinity>() / y.lpNorm<Eigen::Infinity>());
        y = next;
      }
      std::printf("rattle symmetry %-20s %.3g\n", o.label.c_str(), worst);
      CHECK(worst < 1e-12);
    }
  }
}

TEST_CASE("rattle: g(q) = 0 and G(q) v = 0 at round-off after every step", "[rattle]") {
  // 2000 steps of the fixture's h: max over steps of |g_i| / scale_i (a relative error: link
  // length, orthonormality, attachment / string length) and of |G v| / (|G| |v|). Measured:
  // free_rigid_body 4.4e-16 / 7.9e-17, multirotor_payload 6.9e-16 / 3.0e-17, planar_pendulum
  // 2.0e-16 / 2.0e-16, string_pendulum 9.8e-15 / 6.8e-17 (the attachment of a 1 m string: a few
  // ulp of the node positions). Bound 1e-13 both (newton_tol is 1e-14).
  for (const auto& o : offerings()) {
    DYNAMIC_SECTION(o.label) {
      if (o.cm().constraints() == 0) {
        SUCCEED("no constraints");
        continue;
      }
      RattleStep step(o.cm(), 1e-14, 25);
      Eigen::VectorXd y = o.cm().initial_state(), next;
      double worst_g = 0.0, worst_Gv = 0.0;
      for (int k = 0; k < 2000; ++k) {
        const auto r = step.step(k * o.c.h, o.c.h, y, next);
        REQUIRE(r.ok);
        y = next;
        worst_g = std::max(worst_g, constraint_residual(o.cm(), y));
        worst_Gv = std::max(worst_Gv, velocity_constraint_residual(o.cm(), y));
      }
      std::printf("rattle constraints %-20s |g| %.3g  |Gv| %.3g\n", o.label.c_str(), worst_g, worst_Gv);
      CHECK(worst_g < 1e-13);
      CHECK(worst_Gv < 1e-13);
    }
  }
}

TEST_CASE("rattle: energy error stays bounded over long runs (no drift)", "[rattle]") {
  // Planar pendulum released at 60 degrees, h = 0.02 s over 1000 s (50000 steps): the maximum
  // energy error over the whole run must stay within 1.5x the maximum over its first tenth (a
  // drift would grow tenfold), and the least-squares drift rate below 1e-4 of that maximum per
  // second. Measured: ratio 1.000, drift rate / max 8.0e-6 1/s.
  planar_pendulum::InitialCondition swing;
  swing.theta = M_PI / 3.0;
  const auto model = planar_pendulum::make_model(planar_pendulum::Parameters{}, swing);
  auto form = formulation_for(*model, integrator("rattle"));
  const double T = 1000.0, h = 0.02;
  MetricsAccumulator all, first;
  const IntegrationOutcome out =
      integrate(*form, integrator("rattle"), settings_of("rattle", h), T, 1.0, [&](double t, const Eigen::VectorXd& y) {
        const Observation ob = form->observe(t, y);
        all.add(t, ob);
        if (t <= 0.1 * T + 1e-9) first.add(t, ob);
      });
  REQUIRE(out.ok());
  const ConservationMetrics m = all.result(), m1 = first.result();
  REQUIRE(m1.energy_err_max > 0.0);
  const double ratio = m.energy_err_max / m1.energy_err_max;
  const double drift = std::abs(m.energy_drift_rate) / m.energy_err_max;
  std::printf("rattle energy planar pendulum: max |dE| %.3g J (first tenth %.3g), ratio %.3f, drift rate/max %.3g 1/s\n",
              m.energy_err_max, m1.energy_err_max, ratio, drift);
  CHECK(ratio < 1.5);
  CHECK(drift < 1e-4);
}

TEST_CASE("rattle keeps the free rigid body's energy to round-off over a long run", "[rattle]") {
  // RATTLE on the free rigid body is the discrete Moser-Veselov algorithm, which conserves the
  // kinetic energy exactly (Moser-Veselov 1991; HLW VII.5.3): what remains is round-off, a random
  // walk. The fixture's tumbling body with h = 0.01 s over 1000 s (1e5 steps): max |dE| / E.
  // Measured 3.2e-14 (1000 s; orthogonality 5.1e-16), where an O(h^2) energy error of a
  // non-conserving scheme would be ~1e-5. Bound 1e-12 both.
  for (const auto& o : offerings()) {
    if (o.label != "free_rigid_body") continue;
    auto form = formulation_for(*o.c.model, integrator("rattle"));
    MetricsAccumulator acc;
    double energy = 0.0;
    const IntegrationOutcome out = integrate(*form, integrator("rattle"), settings_of("rattle", 0.01), 1000.0, 1.0,
                                             [&](double t, const Eigen::VectorXd& y) {
                                               const Observation ob = form->observe(t, y);
                                               if (t == 0.0) energy = ob.energy;
                                               acc.add(t, ob);
                                             });
    REQUIRE(out.ok());
    const ConservationMetrics m = acc.result();
    std::printf("rattle energy free rigid body: max |dE| / E = %.3g, orthogonality %.3g\n", m.energy_err_max / energy,
                m.orthogonality_err_max);
    CHECK(m.energy_err_max / energy < 1e-12);
    CHECK(m.orthogonality_err_max < 1e-12);
  }
}

TEST_CASE("rattle on the free rigid body is the LGVI's discrete Moser-Veselov step", "[rattle]") {
  // Same h, 200 steps: the physical states [R, Omega] agree to round-off (the two solve the same
  // discrete equations in different unknowns). Measured 1.8e-15. Bound 1e-11; independent
  // schemes of order 2 differ by ~h^2 = 1e-4 here.
  for (const auto& o : offerings()) {
    if (o.label != "free_rigid_body") continue;
    const double T = 2.0, h = o.c.h;
    const FinalState rattle = run_to(*o.c.model, "rattle", T, h);
    const FinalState lgvi = run_to(*o.c.model, "lgvi", T, h);
    REQUIRE(rattle.outcome.ok());
    REQUIRE(lgvi.outcome.ok());
    const double diff = (rattle.physical - lgvi.physical).lpNorm<Eigen::Infinity>();
    std::printf("rattle vs lgvi, free rigid body: %.3g\n", diff);
    CHECK(diff < 1e-11);
  }
}

TEST_CASE("rattle: the moving reel's constrained form has a configuration-dependent mass matrix", "[rattle]") {
  // Model B with the reel free: the string slides through the guide way, so its mass matrix in
  // natural coordinates depends on the deployed length and the nodes (the form says so, and the
  // schemes take its variable-mass path).
  const Case c = load_case(std::string(TETHERBENCH_MODEL_FIXTURES_DIR) + "/reel_pendulum.toml");
  std::string why_not;
  const auto form = c.model->make_formulation(FormulationKind::ConstrainedMechanical, why_not);
  REQUIRE(form);
  CHECK(dynamic_cast<const ConstrainedMechanicalFormulation&>(*form).mass_depends_on_configuration());
}

TEST_CASE("rattle: a step the motion has outgrown fails as a divergence, leaving the state", "[rattle][failure]") {
  // Planar pendulum (l = 1 m) turning at 10 rad/s, h = 0.2 s: the free flight q_k + h v_k lies
  // at |r|^2 = 1 + (h |v|)^2 = 5 m^2, and the position equations have no solution (the line
  // q_k + h v_k - s r_k misses the circle when h |v| > l): a stability result, Diverged.
  planar_pendulum::InitialCondition fast;
  fast.omega = 10.0;
  const auto model = planar_pendulum::make_model(planar_pendulum::Parameters{}, fast);
  auto form = formulation_for(*model, integrator("rattle"));
  const auto& cm = dynamic_cast<const ConstrainedMechanicalFormulation&>(*form);
  RattleStep step(cm, 1e-14, 25);
  const Eigen::VectorXd y = cm.initial_state();
  Eigen::VectorXd next;
  const auto r = step.step(0.0, 0.2, y, next);
  CHECK_FALSE(r.ok);
  CHECK(r.failure.kind == StepFailure::Kind::Diverged);
  CHECK(r.failure.reason.find("outgrown the step") != std::string::npos);
  // The same pendulum at h = 0.01 s steps normally.
  CHECK(step.step(0.0, 0.01, y, next).ok);
}

TEST_CASE("rattle on the damped hanging tether: Stoermer-Verlet with the damping work in the energy balance",
          "[rattle]") {
  // Full-mass fixture (N = 5, zeta = 0.5 /s, released straight: every element compressed), 1 s:
  // the energy falls by the dissipated work, and the balance E(t) - E(0) + W(t) stays at the
  // scheme's O(h^2) error, falling 4x per halving of h (measured 4.06, 4.01), far below W itself.
  for (const std::string stem : {"hanging_tether", "hanging_tether.lumped"}) {
    DYNAMIC_SECTION(stem) {
      const Case c = load_case(std::string(TETHERBENCH_MODEL_FIXTURES_DIR) + "/" + stem + ".toml");
      std::string why_not;
      auto form = c.model->make_formulation(FormulationKind::ConstrainedMechanical, why_not);
      REQUIRE(form);
      const IntegratorInfo& info = integrator("rattle");
      std::vector<double> balance;
      double dissipated = 0.0;
      for (const double h : {2e-3, 1e-3}) {
        double E0 = 0.0, worst = 0.0;
        bool first = true;
        const IntegrationOutcome out = integrate(*form, info, settings_of(info, h), 1.0, 1e-2,
                                                 [&](double t, const Eigen::VectorXd& y) {
                                                   const Observation o = form->observe(t, y);
                                                   if (first) E0 = o.energy, first = false;
                                                   worst = std::max(worst, std::abs(o.energy - E0 - o.external_work));
                                                   dissipated = -o.external_work;
                                                 });
        REQUIRE(out.ok());
        balance.push_back(worst);
      }
      std::printf("rattle %-22s dissipated %.4g J, balance residual %.3g -> %.3g J (ratio %.2f)\n", stem.c_str(),
                  dissipated, balance[0], balance[1], balance[0] / balance[1]);
      CHECK(dissipated > 0.0);
      CHECK(balance[1] < 3e-3 * dissipated);  // measured 9.3e-4 (full), 2.3e-4 (lumped)
      CHECK(balance[0] / balance[1] > 3.5);  // second order
      CHECK(balance[0] / balance[1] < 4.5);
    }
  }
}
