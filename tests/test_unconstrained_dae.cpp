// The index-1 DAE form of the systems without constraints (mechanics/unconstrained_dae.hpp): the
// elastic pendulum and the hanging tether (full and lumped mass, damped) as the implicit ODE
// q' = v, M v' = f, W_j' = P_j. Its analytic iteration matrix against central differences, its
// band (node-interleaved, with the damping work split node by node so that no row is dense), its
// consistent start, IDA on it against tight rk45 (state, energy, energy balance), and the
// Baumgarte settings refused where they have nothing to act on.

#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <random>

#include "app/input/case.hpp"
#include "conformance/dae_checks.hpp"
#include "integrators/ida/ida.hpp"
#include "mechanics/unconstrained_dae.hpp"
#include "models/hanging_tether/forms.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

namespace {

const std::string kCases = TETHERBENCH_CASES_DIR;
const std::string kFixtures = TETHERBENCH_MODEL_FIXTURES_DIR;

// The bundled cases and the small fixtures the form is offered on.
const std::vector<std::string> kFiles = {kCases + "/T_elastic_pendulum.toml", kCases + "/T_hanging_tether_full.toml",
                                         kCases + "/T_hanging_tether_lumped.toml", kFixtures + "/hanging_tether.toml",
                                         kFixtures + "/hanging_tether.lumped.toml", kFixtures + "/elastic_pendulum.toml"};

std::unique_ptr<DaeFormulation> dae_of(const Case& c) {
  std::string why_not;
  auto form = c.model->make_formulation(FormulationKind::IndexOneDae, why_not);
  INFO(why_not);
  REQUIRE(form);
  auto* dae = dynamic_cast<DaeFormulation*>(form.get());
  REQUIRE(dae);
  form.release();
  return std::unique_ptr<DaeFormulation>(dae);
}

// A state away from the initial one: nodes moved by up to 5 cm, moving at up to 1 m/s, some work
// already done; a random y'.
void random_state(const DaeFormulation& form, unsigned seed, Eigen::VectorXd& y, Eigen::VectorXd& yp) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  y = form.initial_state();
  yp.resize(y.size());
  for (int i = 0; i < y.size(); ++i) {
    y(i) += (i % 7 < 3 ? 0.05 : 1.0) * U(g);
    yp(i) = U(g);
  }
}

}  // namespace

TEST_CASE("unconstrained DAE: analytic iteration matrix against central differences, for several cj", "[dae][unconstrained]") {
  double worst = 0.0;
  for (const auto& file : kFiles) {
    const Case c = load_case(file);
    const auto form = dae_of(c);
    Eigen::VectorXd y, yp;
    random_state(*form, 17u, y, yp);
    for (double cj : {0.0, 1.0, 3.7e2, 1e5}) {
      const BaumgarteParameters b{};
      const Eigen::MatrixXd J = conformance::dae_jacobian_dense(*form, 0.3, y, yp, cj, b);
      const Eigen::MatrixXd Jfd = conformance::dae_jacobian_fd(*form, 0.3, y, yp, cj, b);
      const double err = conformance::dae_jacobian_row_relative_error(J, Jfd);
      INFO(c.name << ", cj = " << cj << ": row-relative error " << err);
      CHECK(err < 1e-7);  // measured at most 2.0e-8; a wrong sign on the work rows' terms measured 2
      worst = std::max(worst, err);
    }
  }
  std::printf("unconstrained DAE (elastic pendulum, tethers full/lumped): worst row-relative Jacobian error vs central "
              "differences %.2e\n", worst);
}

TEST_CASE("unconstrained DAE: node-interleaved band, declared tight, independent of N, no dense work row",
          "[dae][unconstrained]") {
  struct Expect {
    std::string file;
    int lower, upper;
  };
  // Stride 7 per tether node [r, v, W]. Below the diagonal: a v row reaches the previous node's
  // position through the spring (7 + 3 + 2 = 12; the full tether's work row reaches the previous
  // velocity only, 7 + 3). Above: the consistent mass's m/6 I couples v_j to v_{j+1} component by
  // component (7), a spring v row reaches the next position (7 - 3 + 2 = 6), as does a work row the
  // next velocity; lumped, the mass and the damping are node-diagonal (6). The elastic pendulum is
  // one node [x, v] (5 below: the v rows on x; 3 above: x' - v).
  for (const Expect& e : {Expect{kCases + "/T_hanging_tether_full.toml", 12, 7},
                          Expect{kCases + "/T_hanging_tether_lumped.toml", 12, 6},
                          Expect{kFixtures + "/hanging_tether.toml", 12, 7},
                          Expect{kCases + "/T_elastic_pendulum.toml", 5, 3}}) {
    const Case c = load_case(e.file);
    const auto form = dae_of(c);
    INFO(c.name);
    CHECK(form->lower_bandwidth() == e.lower);
    CHECK(form->upper_bandwidth() == e.upper);
    Eigen::VectorXd y, yp;
    random_state(*form, 5u, y, yp);
    const Eigen::MatrixXd J = conformance::dae_jacobian_dense(*form, 0.0, y, yp, 50.0, {});
    const Eigen::MatrixXd Jfd = conformance::dae_jacobian_fd(*form, 0.0, y, yp, 50.0, {});
    CHECK(conformance::entries_outside_band(J, form->lower_bandwidth(), form->upper_bandwidth(), 0.0) == 0);
    CHECK(conformance::entries_outside_band(Jfd, form->lower_bandwidth(), form->upper_bandwidth(), 1e-6) == 0);
    const auto [lower, upper] = conformance::measured_bandwidths(J, 0.0);
    CHECK(lower == form->lower_bandwidth());
    CHECK(upper == form->upper_bandwidth());
  }
  // The N = 20 tether (133 unknowns) takes IDA's band LU with sparse = 0.
  const auto full = dae_of(load_case(kCases + "/T_hanging_tether_full.toml"));
  CHECK(full->state_size() == 7 * 19);
  CHECK(ida_uses_band_solver(full->state_size(), full->lower_bandwidth(), full->upper_bandwidth()));
}

TEST_CASE("unconstrained DAE: consistent start, no algebraic component, node works summing to the damping power",
          "[dae][unconstrained]") {
  for (const auto& file : kFiles) {
    const Case c = load_case(file);
    const auto form = dae_of(c);
    INFO(c.name);
    const Eigen::VectorXd y0 = form->consistent_initial_state({}), yp0 = form->consistent_initial_derivative({});
    Eigen::VectorXd F;
    form->residual(0.0, y0, yp0, {}, F);
    CHECK(F.lpNorm<Eigen::Infinity>() < 1e-12 * (1.0 + yp0.lpNorm<Eigen::Infinity>()));
    CHECK(form->differential_components() == Eigen::VectorXd::Ones(form->state_size()));
    CHECK_FALSE(form->why_not_stabilised().empty());
    // The physical state and observation are the constrained form's (the same code measures both).
    std::string why_not;
    const auto cm = c.model->make_formulation(FormulationKind::ConstrainedMechanical, why_not);
    REQUIRE(cm);
    CHECK(form->physical_state(y0) == cm->physical_state(cm->initial_state()));
    CHECK(form->observe(0.0, y0).energy == cm->observe(0.0, cm->initial_state()).energy);
  }
  // The tether: sum_j P_j = -v . f_d = zeta v^T M v, the constrained form's dissipated power.
  const Case c = load_case(kCases + "/T_hanging_tether_full.toml");
  const auto form = dae_of(c);
  const auto& dae = dynamic_cast<const UnconstrainedDaeOf<hanging_tether::ConstrainedTetherForm>&>(*form);
  Eigen::VectorXd y, yp, F;
  random_state(*form, 3u, y, yp);
  yp.setZero();
  form->residual(0.0, y, yp, {}, F);  // the work rows hold -P_j
  double node_sum = 0.0;
  for (int j = 0; j < 19; ++j) node_sum -= F(7 * j + 6);
  const Eigen::VectorXd yc = dae.to_form(y);
  const int n = dae.form().positions();
  Eigen::VectorXd P;
  dae.form().power(0.0, yc.head(n), yc.segment(n, n), P);
  std::printf("tether damping power: node sum %.15g W, constrained form %.15g W\n", node_sum, P(0));
  CHECK(P(0) > 0.0);
  CHECK(std::abs(node_sum - P(0)) < 1e-13 * P(0));
  CHECK(dae.to_form(dae.from_form(yc)).isApprox(yc, 1e-15));
}

TEST_CASE("ida on the elastic pendulum converges to tight rk45 with its tolerance, energy error within it",
          "[dae][unconstrained][ida]") {
  const Case c = load_case(kCases + "/T_elastic_pendulum.toml");
  const double T = 5.0;
  const Eigen::VectorXd reference = reference_solution(*c.model, T);
  double previous = 0.0;
  for (const double rtol : {1e-6, 1e-8, 1e-10}) {
    const auto form = dae_of(c);
    IntegratorSettings s = c.settings.at("ida");
    s.set_tolerances({rtol, 1e-2 * rtol});
    double E0 = 0.0, worst_energy = 0.0;
    bool first = true;
    const IntegrationOutcome out = integrate(*form, integrator("ida"), s, T, 1e-2, [&](double t, const Eigen::VectorXd& y) {
      const Observation o = form->observe(t, y);
      if (first) E0 = o.energy, first = false;
      worst_energy = std::max(worst_energy, std::abs(o.energy - E0));
    });
    REQUIRE(out.ok());
    const double err = (form->physical_state(out.final_state) - reference).lpNorm<Eigen::Infinity>();
    std::printf("elastic pendulum, %g s: ida rtol %g (%ld steps): max |state - rk45 reference| %.2e, max |E - E0| %.2e J\n",
                T, rtol, out.counters.steps, err, worst_energy);
    // Measured: state 3.6e-5, 7.6e-7, 1.4e-8 (a factor ~50 per factor 100 in rtol); energy
    // 2.4e-5, 5.2e-7, 9.7e-9 J (E - V_min ~ 1 J).
    CHECK(err < 3e2 * rtol);
    CHECK(worst_energy < 3e2 * rtol);
    if (previous > 0.0) CHECK(err < previous / 20.0);
    previous = err;
  }
}

TEST_CASE("ida on the damped tethers: agreement with rk45 and the energy balance with the node-by-node damping work",
          "[dae][unconstrained][ida]") {
  for (const std::string name : {"T_hanging_tether_full", "T_hanging_tether_lumped"}) {
    const Case c = load_case(kCases + "/" + name + ".toml");
    const double T = 0.5;
    const Eigen::VectorXd reference = reference_solution(*c.model, T);
    double previous = 0.0;
    for (const double rtol : {1e-6, 1e-8}) {
      const auto form = dae_of(c);
      IntegratorSettings s = c.settings.at("ida");
      s.set_tolerances({rtol, 1e-2 * rtol});
      double E0 = 0.0, worst_balance = 0.0, dissipated = 0.0;
      bool first = true;
      const IntegrationOutcome out = integrate(*form, integrator("ida"), s, T, 1e-2, [&](double t, const Eigen::VectorXd& y) {
        const Observation o = form->observe(t, y);
        if (first) E0 = o.energy, first = false;
        worst_balance = std::max(worst_balance, std::abs(o.energy - E0 - o.external_work));
        dissipated = -o.external_work;
      });
      REQUIRE(out.ok());
      const double err = (form->physical_state(out.final_state) - reference).lpNorm<Eigen::Infinity>();
      std::printf("%s, %g s: ida rtol %g (%ld steps): max |state - rk45 reference| %.2e, dissipated %.4g J, "
                  "max |E - E0 + W| %.2e J\n",
                  name.c_str(), T, rtol, out.counters.steps, err, dissipated, worst_balance);
      // Measured (full / lumped): state 3.8e-3 / 2.5e-4 (rtol 1e-6), 7.5e-5 / 7.3e-6 (1e-8), node
      // positions ~10 m and speeds ~10 m/s; balance 6.4e-4 / 6.7e-4 J and 1.6e-5 / 1.7e-5 J of the
      // ~100 J dissipated in 0.5 s.
      CHECK(dissipated > 50.0);
      CHECK(err < 1e4 * rtol);
      CHECK(worst_balance < 50.0 * rtol * dissipated);
      if (previous > 0.0) CHECK(err < previous / 20.0);
      previous = err;
    }
  }
}

TEST_CASE("ida: the Baumgarte settings act on constrained forms and are refused where nothing can act",
          "[dae][unconstrained][ida][input]") {
  const IntegratorInfo& ida = integrator("ida");
  REQUIRE(ida.idle_setting);
  const Case elastic = load_case(kCases + "/T_elastic_pendulum.toml");
  const auto form = dae_of(elastic);
  for (const char* key : {"baumgarte_p", "baumgarte_gamma"}) {
    CHECK(ida.idle_setting(key, *form).find("no constraint") != std::string::npos);
    CHECK(idle_setting(elastic, ida, key)->find("nothing for Baumgarte stabilisation to act on") != std::string::npos);
  }
  CHECK(ida.idle_setting("rtol", *form).empty());
  // Where they act: the planar pendulum's and Model A's constrained DAEs.
  for (const char* file : {"/T_planar_pendulum_60deg.toml", "/A_string_pendulum_paper.toml"}) {
    const Case c = load_case(kCases + file);
    CHECK(idle_setting(c, ida, "baumgarte_p") == std::string());
    CHECK_NOTHROW(check_settings_act(c, catalogue()));
  }
  // The free rigid body's DAE keeps R by gamma but has no constraint for p.
  const Case body = load_case(kFixtures + "/free_rigid_body.toml");
  CHECK(idle_setting(body, ida, "baumgarte_p")->find("no constraint") != std::string::npos);
  CHECK(idle_setting(body, ida, "baumgarte_gamma") == std::string());
  // The bundled cases give none that cannot act.
  for (const Case& c : bundled_cases()) CHECK_NOTHROW(check_settings_act(c, catalogue()));
}
