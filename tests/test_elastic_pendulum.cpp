// The elastic pendulum (seed 004, "Example: Elastic Pendulum"): known small-oscillation
// frequencies, conservation of energy and of the angular momentum about e3 by the exact flow
// (rk45 at tight tolerance) and by the variational (Stoermer-Verlet) step, its order, and the
// case file's input checks.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>

#include "models/elastic_pendulum/model.hpp"
#include "tests/case_variant.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

namespace {

// Away from the 2:1 resonance of the bundled case, so the two modes do not exchange energy.
elastic_pendulum::Parameters detuned_parameters() {
  elastic_pendulum::Parameters p;
  p.m = 0.5;
  p.k = 40.0;
  p.l0 = 0.8;
  p.g = 9.81;
  return p;
}

struct Series {
  std::vector<double> t;
  std::vector<Observation> obs;
};

Series observe_run(const Model& model, const std::string& name, double t_end, double h, double sample_interval,
                   double rtol = 1e-12, double atol = 1e-14) {
  const IntegratorInfo& info = integrator(name);
  auto form = formulation_for(model, info);
  IntegratorSettings s = settings_of(info, h);
  set_if_declared(s, "rtol", rtol);
  set_if_declared(s, "atol", atol);
  Series out;
  const IntegrationOutcome run = integrate(*form, info, s, t_end, sample_interval, [&](double t, const Eigen::VectorXd& y) {
    out.t.push_back(t);
    out.obs.push_back(form->observe(t, y));
  });
  REQUIRE(run.ok());
  return out;
}

// Mean period of a signal from its upward zero crossings (linear interpolation between
// samples: at a crossing a sinusoid has no curvature, so the interpolation error is O(dt^3)).
double measured_period(const std::vector<double>& t, const std::vector<double>& f) {
  std::vector<double> crossings;
  for (size_t i = 1; i < f.size(); ++i)
    if (f[i - 1] < 0.0 && f[i] >= 0.0) crossings.push_back(t[i - 1] + (t[i] - t[i - 1]) * f[i - 1] / (f[i - 1] - f[i]));
  REQUIRE(crossings.size() >= 10);
  return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

// Column of an observation's extra values by name.
int column(const std::string& name) {
  const auto names = elastic_pendulum::Mechanics::extra_column_names();
  return int(std::find(names.begin(), names.end(), name) - names.begin());
}

}  // namespace

TEST_CASE("elastic pendulum: small-oscillation frequencies k/m and g/(l0 + m g/k) within 1e-4", "[elastic-pendulum]") {
  const auto p = detuned_parameters();
  const double L = p.equilibrium_length();
  const double omega_vertical = std::sqrt(p.k / p.m), omega_pendulum = std::sqrt(p.g / L);

  // Vertical mode: released 5 cm below the equilibrium, on the vertical.
  elastic_pendulum::InitialCondition vertical;
  vertical.position = Vec3(0.0, 0.0, L + 0.05);
  const Series sv = observe_run(*elastic_pendulum::make_model(p, vertical), "rk45", 20.0, 1e-3, 1e-3);
  std::vector<double> dz;
  for (const auto& o : sv.obs) dz.push_back(o.extra[column("z")] - L);
  const double omega_v = 2.0 * M_PI / measured_period(sv.t, dz);

  // Pendulum mode: released at 1 mrad from the vertical on the equilibrium sphere.
  const double theta = 1e-3;
  elastic_pendulum::InitialCondition swing;
  swing.position = L * Vec3(std::sin(theta), 0.0, std::cos(theta));
  const Series sp = observe_run(*elastic_pendulum::make_model(p, swing), "rk45", 40.0, 1e-3, 1e-3);
  std::vector<double> x;
  for (const auto& o : sp.obs) x.push_back(o.extra[column("x")]);
  const double omega_p = 2.0 * M_PI / measured_period(sp.t, x);

  std::printf("elastic pendulum: vertical omega %.8f (k/m: %.8f, rel %.2e), pendulum omega %.8f (g/L: %.8f, rel %.2e)\n",
              omega_v, omega_vertical, omega_v / omega_vertical - 1.0, omega_p, omega_pendulum,
              omega_p / omega_pendulum - 1.0);
  CHECK(std::abs(omega_v / omega_vertical - 1.0) < 1e-4);
  CHECK(std::abs(omega_p / omega_pendulum - 1.0) < 1e-4);
  // The two answers are far apart, so matching one cannot pass for the other.
  CHECK(std::abs(omega_vertical / omega_pendulum - 1.0) > 0.5);
}

TEST_CASE("elastic pendulum: rk45 at tight tolerance conserves energy and angular momentum about e3", "[elastic-pendulum]") {
  const Case c = load_case(TETHERBENCH_CASES_DIR "/T_elastic_pendulum.toml");
  const Series s = observe_run(*c.model, "rk45", c.t_end, c.h, c.sample_interval, 1e-12, 1e-14);
  double de = 0.0, dpi = 0.0, swing = 0.0;
  for (const auto& o : s.obs) {
    de = std::max(de, std::abs(o.energy - s.obs.front().energy));
    dpi = std::max(dpi, std::abs(o.momentum - s.obs.front().momentum));
    swing = std::max(swing, std::abs(o.extra[column("x")]));
  }
  std::printf("elastic pendulum case, rk45 rtol 1e-12: max |dE| %.3e J, max |dpi3| %.3e N m s (pi3 = %.3e), max |x| %.3f m\n",
              de, dpi, s.obs.front().momentum, swing);
  CHECK(de < 1e-9);
  CHECK(dpi < 1e-11);
  // The resonance pumps the bounce into the swing: the swing grows to several times its initial 5 cm.
  CHECK(swing > 0.15);
}

TEST_CASE("elastic pendulum: the variational step keeps pi3 exactly and an O(h^2) bounded energy error", "[elastic-pendulum][lgvi]") {
  const Case c = load_case(TETHERBENCH_CASES_DIR "/T_elastic_pendulum.toml");
  double de_h[2] = {0.0, 0.0};
  const double hs[2] = {2e-3, 1e-3};
  for (int i = 0; i < 2; ++i) {
    const Series s = observe_run(*c.model, "lgvi", 40.0, hs[i], 1e-2);
    double dpi = 0.0, de_first = 0.0, de_second = 0.0;
    for (size_t k = 0; k < s.obs.size(); ++k) {
      const double de = std::abs(s.obs[k].energy - s.obs.front().energy);
      (s.t[k] <= 20.0 ? de_first : de_second) = std::max(s.t[k] <= 20.0 ? de_first : de_second, de);
      dpi = std::max(dpi, std::abs(s.obs[k].momentum - s.obs.front().momentum));
    }
    de_h[i] = std::max(de_first, de_second);
    std::printf("elastic pendulum lgvi h %.0e: max |dE| %.3e J (0-20 s), %.3e J (20-40 s); max |dpi3| %.3e\n", hs[i],
                de_first, de_second, dpi);
    CHECK(dpi < 1e-15);                    // discrete Noether: round-off only
    CHECK(de_second < 1.5 * de_first);     // bounded: no secular drift over the second half
  }
  const double ratio = de_h[0] / de_h[1];
  std::printf("elastic pendulum lgvi energy error ratio h = 2e-3 / 1e-3: %.2f (O(h^2): 4)\n", ratio);
  CHECK(ratio > 3.5);
  CHECK(ratio < 4.5);
}

TEST_CASE("elastic pendulum: the variational step converges to the rk45 solution at order 2", "[elastic-pendulum][lgvi]") {
  const Case c = load_case(TETHERBENCH_CASES_DIR "/T_elastic_pendulum.toml");
  const double T = 2.0;
  const Eigen::VectorXd reference = reference_solution(*c.model, T);
  std::vector<double> hs = {4e-3, 2e-3, 1e-3, 5e-4}, errs;
  for (double h : hs) {
    const FinalState run = run_to(*c.model, "lgvi", T, h);
    REQUIRE(run.outcome.ok());
    errs.push_back((run.physical - reference).lpNorm<Eigen::Infinity>());
  }
  const double order = fitted_order(hs, errs);
  std::printf("elastic pendulum lgvi vs rk45 reference at T = 2 s: errors %.3e .. %.3e, order %.3f\n", errs.front(),
              errs.back(), order);
  CHECK(std::abs(order - 2.0) < 0.1);
}

TEST_CASE("elastic pendulum: offers ODE, variational, constrained and DAE forms, and says why not the Lie group ODE",
          "[elastic-pendulum]") {
  const auto model = elastic_pendulum::make_model(detuned_parameters(), {});
  std::string why_not;
  CHECK(model->make_formulation(FormulationKind::EmbeddedOde, why_not));
  CHECK(model->make_formulation(FormulationKind::DiscreteLieGroup, why_not));
  CHECK(model->make_formulation(FormulationKind::ConstrainedMechanical, why_not));
  CHECK(model->make_formulation(FormulationKind::IndexOneDae, why_not));  // the implicit ODE
  CHECK_FALSE(model->make_formulation(FormulationKind::LieGroupOde, why_not));
  CHECK(why_not.find("vector space") != std::string::npos);
  CHECK(model->discretisations() == std::vector<std::string>{""});  // nothing to choose
}

TEST_CASE("elastic pendulum: a case starting at the pivot is refused, naming the key", "[elastic-pendulum][input]") {
  const std::string message = input_error_of_variant(TETHERBENCH_CASES_DIR "/T_elastic_pendulum.toml",
                                                     "position = [0.05, 0.0, 1.45]", "position = [0.0, 0.0, 0.0]");
  CHECK(message.find("initial.position") != std::string::npos);
  CHECK(message.find("other than the pivot") != std::string::npos);
}

TEST_CASE("elastic pendulum: the cable key takes bilateral or tension_only and refuses anything else, naming it",
          "[elastic-pendulum][input][tension-only]") {
  const std::string message = input_error_of_variant(TETHERBENCH_CASES_DIR "/T_elastic_pendulum.toml", "gravity = 9.81",
                                                     "gravity = 9.81\ncable = \"slack\"");
  CHECK(message.find("model.cable") != std::string::npos);
  CHECK(message.find("tension_only") != std::string::npos);
  CHECK(message.find("slack") != std::string::npos);
}
