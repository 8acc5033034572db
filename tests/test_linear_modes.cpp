// The slowest periods the models declare (core/linear_modes.hpp, issue 44 class 8): computed from
// each model's linearisation about its rest state, checked against closed forms (the planar
// pendulum's 2 pi sqrt(l / g), the elastic pendulum's swing and spring periods) and against the
// period a simulated run of a Model C case measures (zero crossings of the payload's velocity).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <toml.hpp>

#include "core/linear_modes.hpp"
#include "mechanics/oscillation_periods.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {

std::string case_path(const std::string& name) { return std::string(TETHERBENCH_CASES_DIR) + "/" + name + ".toml"; }

double model_number(const std::string& name, const std::string& key) {
  const auto data = toml::parse(case_path(name));
  return toml::find<double>(data, "model", key);
}

// A bundled case with one piece of its text replaced, loaded (the file written to a temporary).
Case case_variant(const std::string& name, const std::string& from, const std::string& to) {
  namespace fs = std::filesystem;
  std::ifstream in(case_path(name));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  std::random_device rd;
  const fs::path file = fs::temp_directory_path() / ("tb_linear_modes_" + std::to_string(rd()) + ".toml");
  std::ofstream(file) << text;
  Case c = testing::load_case(file.string());
  fs::remove(file);
  return c;
}

std::unique_ptr<ConstrainedMechanicalFormulation> constrained_form(const Model& model) {
  std::string why_not;
  auto form = model.make_formulation(FormulationKind::ConstrainedMechanical, why_not);
  REQUIRE(form);
  return std::unique_ptr<ConstrainedMechanicalFormulation>(static_cast<ConstrainedMechanicalFormulation*>(form.release()));
}

// The period of a run of the case's embedded ODE (classical RK4 at the case's step), measured as the
// mean spacing of the downward zero crossings of physical-state entry `entry` over `periods` of
// the guess `T`. Crossings closer than T/4 to the last are the cable's fast modes riding on the
// swing near its turning point, not a new swing.
double measured_period(const Case& c, int entry, double T, int periods) {
  std::string why_not;
  auto made = c.model->make_formulation(FormulationKind::EmbeddedOde, why_not);
  REQUIRE(made);
  const auto& ode = static_cast<const OdeFormulation&>(*made);
  Eigen::VectorXd y = ode.initial_state(), k1, k2, k3, k4;
  const double h = c.h;
  const long steps = long(std::ceil((periods + 0.5) * T / h));
  std::vector<double> crossings;
  double previous = ode.physical_state(y)(entry), t = 0.0;
  for (long i = 0; i < steps; ++i) {
    ode.rhs(t, y, k1);
    ode.rhs(t + 0.5 * h, Eigen::VectorXd(y + 0.5 * h * k1), k2);
    ode.rhs(t + 0.5 * h, Eigen::VectorXd(y + 0.5 * h * k2), k3);
    ode.rhs(t + h, Eigen::VectorXd(y + h * k3), k4);
    y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    ode.project(y);
    t += h;
    const double now = ode.physical_state(y)(entry);
    if (previous > 0.0 && now <= 0.0) {
      const double at = t - h * now / (now - previous);  // linear interpolation in the step
      if (crossings.empty() || at - crossings.back() > 0.25 * T) crossings.push_back(at);
    }
    previous = now;
  }
  REQUIRE(crossings.size() >= 3);
  return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

}  // namespace

TEST_CASE("linear modes: the planar pendulum's slowest period is 2 pi sqrt(l / g)", "[periods][linear-modes]") {
  const Case c = testing::load_case(case_path("T_planar_pendulum_60deg"));
  const double l = model_number(c.name, "length"), g = model_number(c.name, "gravity");
  CHECK(c.model->slowest_period_s() == Approx(2.0 * M_PI * std::sqrt(l / g)).epsilon(1e-7));
  // One degree of freedom, at its equilibrium, no zero mode.
  const auto form = constrained_form(*c.model);
  const LinearModes modes = linear_modes(*form, initial_configuration(*form));
  CHECK(modes.tangent_dimension == 1);
  CHECK(modes.zero_modes == 0);
  CHECK(modes.unstable_modes == 0);
  // From the case's 60 degrees (not a rest state) Newton walks down to the equilibrium.
  CHECK(modes.equilibrium);
  CHECK(modes.newton_iterations > 0);
  CHECK(modes.slowest_period() == Approx(2.0 * M_PI * std::sqrt(l / g)).epsilon(1e-7));
  // Without Newton the 60-degree state is reported as what it is: not an equilibrium.
  LinearModesOptions as_given;
  as_given.max_newton = 0;
  CHECK_FALSE(linear_modes(*form, initial_configuration(*form), as_given).equilibrium);
}

TEST_CASE("linear modes: the elastic pendulum's swing and spring periods", "[periods][linear-modes]") {
  const Case c = testing::load_case(case_path("T_elastic_pendulum"));
  const double m = model_number(c.name, "mass"), k = model_number(c.name, "stiffness"),
               l0 = model_number(c.name, "rest_length"), g = model_number(c.name, "gravity");
  const double L = l0 + m * g / k;  // the static length
  const double swing = 2.0 * M_PI * std::sqrt(L / g), spring = 2.0 * M_PI * std::sqrt(m / k);
  // Newton from the case's initial position (off the equilibrium) to the hanging rest state.
  const auto form = constrained_form(*c.model);
  const LinearModes modes = linear_modes(*form, initial_configuration(*form));
  CHECK(modes.equilibrium);
  CHECK(modes.q.norm() == Approx(L).epsilon(1e-10));
  REQUIRE(modes.periods.size() == 3);
  CHECK(modes.periods[0] == Approx(swing).epsilon(1e-7));  // the swing in two planes
  CHECK(modes.periods[1] == Approx(swing).epsilon(1e-7));
  CHECK(modes.periods[2] == Approx(spring).epsilon(1e-7));
  CHECK(c.model->slowest_period_s() == Approx(std::max(swing, spring)).epsilon(1e-7));
}

TEST_CASE("linear modes: Model C's swing period against a simulated run", "[periods][linear-modes][model-c]") {
  // About the hanging equilibrium the centre of mass is free (3 translations) and, with no
  // attachment offset, the multirotor's attitude is too (3 rotations): 6 zero modes, left out.
  const Case c = testing::load_case(case_path("C_single_multirotor"));
  const double T = c.model->slowest_period_s();
  INFO("declared " << T << " s: " << c.model->slowest_period_basis());
  // A small swing (5 degrees from the vertical) has the linear period: the velocity of the payload
  // along e1 crosses zero once per period in each direction.
  const Case small = case_variant("C_single_multirotor", "cable_elevation_deg = 30.0", "cable_elevation_deg = 85.0");
  CHECK(small.model->slowest_period_s() == Approx(T).epsilon(1e-12));  // a property of the model, not of the start
  const double T_small = measured_period(small, 3, T, 4);
  std::printf("linear-modes C_single_multirotor: linear %.5g s, measured at 5 deg %.5g s\n", T, T_small);
  CHECK(T_small == Approx(T).epsilon(2e-3));
  // The bundled case swings from 60 degrees: longer, by about the pendulum's Gauss factor
  // 1 / agm(1, cos 30 deg) = 1.073 (the multirotor moves with the payload; the cable's mass
  // is 3 % of the payload's, so the two-body pendulum holds to ~1 %).
  const double T_60 = measured_period(c, 3, T, 3);
  const double gauss = 1.0 / periods::agm(1.0, std::cos(M_PI / 6.0));
  std::printf("linear-modes C_single_multirotor: measured at 60 deg %.5g s = %.4g x linear (Gauss %.4g)\n", T_60,
              T_60 / T, gauss);
  CHECK(T_60 / T == Approx(gauss).epsilon(0.01));
  // Newton from the 5-degree start reaches the hanging equilibrium: 6 zero modes, the swing twice
  // (two planes, the same period), every other mode faster.
  const auto near = constrained_form(*small.model);
  const LinearModes modes = linear_modes(*near, initial_configuration(*near));
  CHECK(modes.equilibrium);
  CHECK(modes.zero_modes == 6);
  CHECK(modes.unstable_modes == 0);
  REQUIRE(modes.periods.size() >= 3);
  CHECK(modes.periods[0] == Approx(T).epsilon(1e-6));
  CHECK(modes.periods[1] == Approx(T).epsilon(1e-6));
  CHECK(modes.periods[2] < 0.5 * T);
}

TEST_CASE("linear modes: every bundled case declares a computed slowest period and says how", "[periods][linear-modes]") {
  for (const Case& c : testing::bundled_cases()) {
    INFO(c.name);
    const double T = c.model->slowest_period_s();
    CHECK(std::isfinite(T));
    CHECK(T > 0.0);
    CHECK_FALSE(c.model->slowest_period_basis().empty());
    std::printf("linear-modes %-34s %.4g s: %s\n", c.name.c_str(), T, c.model->slowest_period_basis().c_str());
  }
}

TEST_CASE("linear modes: Model C's fastest frequency is where RK4's stability interval ends near rest",
          "[periods][linear-modes][model-c]") {
  // Model::max_frequency (referee point h-10 #1: the stability map's h_max x omega_max on Model C)
  // from the linearisation about the hanging equilibrium. Independent check: close to rest (5
  // degrees from the vertical) the motion is that linearisation, and RK4's amplification on
  // i h omega, |R(iy)|^2 = 1 - y^6/72 + y^8/576, exceeds 1 exactly beyond y* = 2 sqrt 2: at
  // 0.97 y* / omega_max a 3000-step run stays bounded (|R| = 0.81 on the fastest mode), at
  // 1.03 y* / omega_max it grows 1.24-fold a step from round-off and overflows. An omega_max too
  // large or too small by 3 % fails one of the two.
  const Case small = case_variant("C_single_multirotor", "cable_elevation_deg = 30.0", "cable_elevation_deg = 85.0");
  const auto omega = small.model->max_frequency("");
  REQUIRE(omega);
  CHECK(*omega > 10.0 * 2.0 * M_PI / small.model->slowest_period_s());  // the cable's modes, far above the swing
  std::string why_not;
  auto made = small.model->make_formulation(FormulationKind::EmbeddedOde, why_not);
  REQUIRE(made);
  const auto& ode = static_cast<const OdeFormulation&>(*made);
  const auto rk4_grows = [&](double h) {
    Eigen::VectorXd y = ode.initial_state(), k1, k2, k3, k4;
    const double size = y.norm();
    // Every mode seeded, a relative 1e-9 of the state from a fixed seed: the planar start leaves
    // modes at exactly 0 by symmetry (unseeded, RK4 stayed bounded up to 1.05 y* / omega_max).
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (Eigen::Index k = 0; k < y.size(); ++k) y(k) += 1e-9 * size * u(rng);
    double t = 0.0;
    for (int i = 0; i < 3000; ++i, t += h) {
      ode.rhs(t, y, k1);
      ode.rhs(t + 0.5 * h, Eigen::VectorXd(y + 0.5 * h * k1), k2);
      ode.rhs(t + 0.5 * h, Eigen::VectorXd(y + 0.5 * h * k2), k3);
      ode.rhs(t + h, Eigen::VectorXd(y + h * k3), k4);
      y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
      if (!y.allFinite() || y.norm() > 1e3 * size) return true;
    }
    return false;
  };
  const double y_star = 2.0 * std::sqrt(2.0);
  std::printf("linear-modes C_single_multirotor: omega_max %.5g rad/s (h at RK4's limit %.4g s)\n", *omega, y_star / *omega);
  CHECK_FALSE(rk4_grows(0.97 * y_star / *omega));
  CHECK(rk4_grows(1.03 * y_star / *omega));
}
