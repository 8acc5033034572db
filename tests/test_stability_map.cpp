// The stability map (studies/stability_map.hpp): the search finds known stability limits to
// its stated precision, the criterion counts growth and not damping, the exponent fit
// recovers a known exponent and its standard error, and bad --param values exit 2 naming the key.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <sys/wait.h>

#include "app/summary.hpp"
#include "studies/stability_map.hpp"
#include "tests/test_support.hpp"

namespace fs = std::filesystem;
using namespace tb;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Dir {
  fs::path path;
  Dir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("tb_stability_" + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~Dir() { fs::remove_all(path); }
};

// A linear oscillator inside the elastic pendulum: no gravity, displaced along e3 from the
// rest length and released at rest, so the motion stays on the e3 axis with |r| in
// [0.8, 1.2] m and m z'' = -k (z - l0) exactly: omega = sqrt(k / m) = 2 rad/s. Sampled every
// step (sample_interval below h), over t_end (the horizon).
fs::path oscillator_case(const fs::path& dir, double t_end) {
  const fs::path p = dir / "oscillator.toml";
  std::ofstream(p) << "[case]\nname = \"oscillator\"\nmodel = \"elastic_pendulum\"\n"
                      "description = \"linear oscillator along e3, omega = 2 rad/s\"\n"
                   << "t_end = " << t_end << "\nh = 0.05\nsample_interval = 1.0e-3\n"
                   << "[model]\nmass = 0.5\nstiffness = 2.0\nrest_length = 1.0\ngravity = 0.0\n"
                      "[initial]\nposition = [0.0, 0.0, 1.2]\nvelocity = [0.0, 0.0, 0.0]\n"
                      "[report]\nreference_t_end = 1.0\nsteps = [0.05]\ntolerances = [1.0e-6]\ngate_t_end = 1.0\n";
  return p;
}

constexpr double kOmega = 2.0;

StabilitySearch search(const Case& c, const std::string& integrator, double precision) {
  const IntegratorInfo& info = testing::integrator(integrator);
  const RunKey key{&c, &info, c.model->default_discretisation()};
  return find_h_max(key, c.settings_for(integrator), c.h, ProbeHorizon::fixed(c.t_end), c.sample_interval,
                    StabilityCriterion{}, precision);
}

}  // namespace

TEST_CASE("bisection finds RK4's limit h omega = 2 sqrt 2 on a linear oscillator to the stated precision",
          "[stability]") {
  Dir dir;
  const Case c = testing::load_case(oscillator_case(dir.path, 1500.0).string());
  for (double precision : {0.05, 0.005}) {
    const StabilitySearch s = search(c, "rk4", precision);
    const double limit = 2.0 * std::sqrt(2.0) / kOmega;  // |R(i y)|^2 = 1 - y^6/72 + y^8/576 = 1 at y = 2 sqrt 2
    REQUIRE(s.bound == StabilitySearch::Bound::Bracketed);
    CHECK(s.h_fail / s.h_max - 1.0 <= precision);
    // The limit lies in the final bracket; the horizon (>= 500 steps) detects a growth of
    // 14 (h/h* - 1) per step in energy, so only a probe within 1e-4 of the limit could pass unseen.
    CHECK(s.h_max <= limit * (1.0 + 1e-4));
    CHECK(s.h_fail >= limit);
    CHECK(std::abs(s.h_max / limit - 1.0) <= precision);
    // Every probe is recorded, and the ones below the limit are stable, the ones above not.
    for (const auto& p : s.probes)
      if (std::abs(p.h / limit - 1.0) > 1e-4) CHECK(p.stable() == (p.h < limit));
  }
}

TEST_CASE("bisection finds Stormer-Verlet's limit h omega = 2 (rattle without constraints) to the stated precision",
          "[stability]") {
  Dir dir;
  const Case c = testing::load_case(oscillator_case(dir.path, 1500.0).string());
  const double precision = 0.01;
  const StabilitySearch s = search(c, "rattle", precision);
  const double limit = 2.0 / kOmega;  // eigenvalues of the Verlet map: lambda + 1/lambda = 2 - (h omega)^2
  REQUIRE(s.bound == StabilitySearch::Bound::Bracketed);
  CHECK(s.h_fail / s.h_max - 1.0 <= precision);
  CHECK(s.h_max <= limit * (1.0 + 1e-4));
  CHECK(s.h_fail >= limit);
  // Released at rest, Verlet's energy never exceeds E(0) below the limit (its modified energy
  // 1/2 v^2 + 1/2 w^2 z^2 (1 - (h w)^2/4) is conserved), so no probe below fails for energy.
  for (const auto& p : s.probes)
    if (p.h < limit) CHECK(p.energy_gain_rel <= 1e-9);
}

TEST_CASE("the criterion counts energy growth, not a method's damping", "[stability]") {
  Dir dir;
  const Case c = testing::load_case(oscillator_case(dir.path, 200.0).string());
  const IntegratorInfo& rk4 = testing::integrator("rk4");
  const RunKey key{&c, &rk4, c.model->default_discretisation()};
  // y = h omega = sqrt 6: |R|^2 = 1 - 3 + 2.25 = 1/4 per step, the energy gone within a few
  // steps: stable (no growth), the loss recorded.
  const StabilityProbe damped = probe_stability(key, c.settings_for("rk4"), std::sqrt(6.0) / kOmega, c.t_end,
                                                c.sample_interval, StabilityCriterion{});
  CHECK(damped.stable());
  CHECK(damped.energy_gain_rel <= 1e-12);
  CHECK(damped.energy_loss_rel > 0.99);
  // y = 3: |R|^2 = 1 - 729/72 + 6561/576 = 2.27 per step: unstable, with its reason.
  const StabilityProbe growing = probe_stability(key, c.settings_for("rk4"), 3.0 / kOmega, c.t_end, c.sample_interval,
                                                 StabilityCriterion{});
  CHECK_FALSE(growing.stable());
  CHECK((growing.reason.starts_with("energy gain") || growing.reason.starts_with("non-finite")));
  CHECK_FALSE(growing.solver_failure());
  // A tighter energy fraction is still passed by the damped run: the criterion is one-sided.
  StabilityCriterion strict;
  strict.energy_fraction = 1e-6;
  CHECK(probe_stability(key, c.settings_for("rk4"), std::sqrt(6.0) / kOmega, c.t_end, c.sample_interval, strict).stable());
}

TEST_CASE("the power-law fit recovers a known exponent and its standard error", "[stability]") {
  const std::vector<double> x{1, 2, 4, 8};
  SECTION("exact data") {
    std::vector<double> y;
    for (double v : x) y.push_back(3e-3 * std::pow(v, -1.0));
    const PowerLawFit f = fit_power_law(x, y);
    CHECK(f.p == Approx(-1.0).margin(1e-12));
    CHECK(std::exp(f.a) == Approx(3e-3).epsilon(1e-12));
    CHECK(f.se <= 1e-12);
    CHECK(f.points == 4);
  }
  SECTION("residuals orthogonal to the fit: p unchanged, se = e sqrt(2/5) / ln 2") {
    const double e = 0.05;
    const double r[] = {e, -e, -e, e};  // sum 0 and orthogonal to log x - mean
    std::vector<double> y;
    for (size_t i = 0; i < x.size(); ++i) y.push_back(2.0 * std::pow(x[i], -0.5) * std::exp(r[i]));
    const PowerLawFit f = fit_power_law(x, y);
    CHECK(f.p == Approx(-0.5).margin(1e-12));
    const double se = e * std::sqrt(2.0 / 5.0) / std::log(2.0);  // sqrt(SSR / (n-2) / Sxx), SSR = 4 e^2, Sxx = 5 ln^2 2
    CHECK(f.se == Approx(se).epsilon(1e-10));
    CHECK(f.ci95 == Approx(4.303 * se).epsilon(1e-10));  // t(0.975, 2)
  }
  SECTION("two points: a slope, no interval") {
    const PowerLawFit f = fit_power_law({10, 20}, {1e-3, 5e-4});
    CHECK(f.p == Approx(-1.0).margin(1e-12));
    CHECK(std::isnan(f.ci95));
  }
}

TEST_CASE("the study runs every fixed-step integrator of the registry and writes the map", "[stability][cli]") {
  Dir dir;
  const fs::path case_file = oscillator_case(dir.path, 100.0);
  const fs::path out = dir.path / "out";
  const std::string cmd = std::string(TETHERBENCH_BINARY) + " study stability_map " + case_file.string() +
                          " --param horizon_steps=2000 --param sweeps=oscillator:stiffness=0.5,2,8 --out " +
                          out.string() + " >" + (dir.path / "log").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  INFO(slurp(dir.path / "log"));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  const Case c = testing::load_case(case_file.string());
  const std::string csv = slurp(out / "stability_map.csv"), md = slurp(out / "stability_map.md");
  const std::string fits = slurp(out / "stability_exponents.csv");
  for (const auto& info : testing::catalogue().integrators) {
    if (info.adaptive || why_not_applicable(c, info, c.model->default_discretisation())) continue;
    CHECK(csv.find("\noscillator," + info.name + ",,") != std::string::npos);
    CHECK(md.find("| " + info.name + " |") != std::string::npos);
    // h_max against the stiffness k (omega = sqrt(k/m)) over one horizon in seconds: a method
    // with a stability interval [0, y*] on the imaginary axis has h_max omega = y*, p = -1/2
    // exactly on this linear system; one without (explicit midpoint RK2: |R(iy)|^2 = 1 + y^4/4)
    // gains energy at every h, so its limit is the horizon's, n y^4 / 4 ~ const with n = T/h:
    // h^3 omega^4 = const, p = -2/3. Every method of the registry is one or the other; the
    // bisection at 5% over a factor 16 in k puts p within 0.04.
    const auto at = fits.find("oscillator,stiffness," + info.name + ",3,");
    REQUIRE(at != std::string::npos);
    std::stringstream row(fits.substr(at));
    std::string field;
    for (int i = 0; i < 5; ++i) std::getline(row, field, ',');
    const double p = std::stod(field);
    INFO(info.name << ": p = " << p);
    CHECK((std::abs(p + 0.5) <= 0.04 || std::abs(p + 2.0 / 3.0) <= 0.04));
    if (info.name == "rk2") CHECK(p == Approx(-2.0 / 3.0).margin(0.04));
    if (info.name == "rk4" || info.name == "rattle") CHECK(p == Approx(-0.5).margin(0.04));
  }
  CHECK(slurp(out / "stability_probes.csv").find(",no,") != std::string::npos);  // failed probes are kept
  // "same bracket as": on this linear oscillator the LGVI and RATTLE are both Stoermer-Verlet, so
  // their searches end on the same bracket and each row names the other; explicit RK4 does not.
  CHECK(md.find("| same bracket as |") != std::string::npos);
  auto row_of = [&](const std::string& run) {
    const auto at = md.find("\n| " + run + " |");
    REQUIRE(at != std::string::npos);
    return md.substr(at + 1, md.find('\n', at + 1) - at - 1);
  };
  const std::string lgvi = row_of("lgvi"), rattle = row_of("rattle"), rk4 = row_of("rk4");
  INFO(lgvi << "\n" << rattle << "\n" << rk4);
  CHECK(lgvi.find("rattle") != std::string::npos);
  CHECK(rattle.find("lgvi") != std::string::npos);
  CHECK(rk4.find("lgvi") == std::string::npos);
}

TEST_CASE("bad stability_map parameters exit 2 naming the key", "[stability][cli][input]") {
  Dir dir;
  const fs::path case_file = oscillator_case(dir.path, 10.0);
  for (const std::string bad : {"precision=0", "precision=abc", "energy_fraction=-1", "constraint_bound=0",
                                 "horizon_steps=5", "horizon_steps=12.5", "min_steps=-1", "min_steps=1.5", "sweeps=oscillator:stiffness=2",
                                 "sweeps=oscillator:nope=1,2", "sweeps=nocase:stiffness=1,2", "sweeps=oscillator"}) {
    const std::string key = bad.substr(0, bad.find('='));
    const fs::path out = dir.path / "out";
    const std::string cmd = std::string(TETHERBENCH_BINARY) + " study stability_map " + case_file.string() +
                            " --param " + bad + " --out " + out.string() + " >/dev/null 2>" + (dir.path / "err").string();
    const int status = std::system(cmd.c_str());
    INFO(bad);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
    CHECK(slurp(dir.path / "err").find("--param " + key + "=") != std::string::npos);
    CHECK_FALSE(fs::exists(out / "stability_map.csv"));
  }
}

// The criterion of every run's status (core/stability_criterion.hpp), on metrics made up to lie
// just inside and just outside each bound.
TEST_CASE("the instability criterion on synthetic metrics: both sides of each bound", "[stability][criterion]") {
  ConservationMetrics m;
  m.samples = 100;
  m.kinetic_max = 10.0;
  m.energy_magnitude = 30.0;
  const StabilityCriterion criterion;  // 0.1 x max KE, 1e-2
  CHECK_FALSE(judge_stability(m, criterion));
  SECTION("energy gain") {
    m.energy_gain_max = 0.99;
    m.energy_gain_t = 2.5;
    CHECK_FALSE(judge_stability(m, criterion));
    m.energy_gain_max = 1.01;
    const auto beyond = judge_stability(m, criterion);
    REQUIRE(beyond);
    CHECK(beyond->bound == Instability::Bound::EnergyGain);
    CHECK(beyond->value == Approx(0.101));
    CHECK(beyond->describe() == "energy gain 0.101 × max KE at t = 2.5 s");
    // A tighter fraction moves the bound.
    StabilityCriterion loose;
    loose.energy_fraction = 0.2;
    CHECK_FALSE(judge_stability(m, loose));
  }
  SECTION("a gain within round-off of the energy is not growth, even without kinetic energy") {
    m.kinetic_max = 0.0;
    m.energy_gain_max = 0.5 * kRoundOffGain * m.energy_magnitude;
    CHECK_FALSE(judge_stability(m, criterion));
    m.energy_gain_max = 2.0 * kRoundOffGain * m.energy_magnitude;
    REQUIRE(judge_stability(m, criterion));
    CHECK(std::isinf(energy_gain_rel(m)));
  }
  SECTION("constraint and orthogonality errors") {
    struct Bound {
      double ConservationMetrics::*value;
      double ConservationMetrics::*t;
      Instability::Bound kind;
      std::string text;
    };
    for (const Bound& b : {Bound{&ConservationMetrics::constraint_err_max, &ConservationMetrics::constraint_err_t,
                                 Instability::Bound::Constraint, "constraint error 0.0101 > 0.01 at t = 1 s"},
                           Bound{&ConservationMetrics::orthogonality_err_max, &ConservationMetrics::orthogonality_err_t,
                                 Instability::Bound::Orthogonality, "orthogonality error 0.0101 > 0.01 at t = 1 s"}}) {
      ConservationMetrics one = m;
      one.*b.value = 0.0099;
      one.*b.t = 1.0;
      CHECK_FALSE(judge_stability(one, criterion));
      one.*b.value = 0.0101;
      const auto beyond = judge_stability(one, criterion);
      REQUIRE(beyond);
      CHECK(beyond->bound == b.kind);
      CHECK(beyond->describe() == b.text);
    }
  }
  SECTION("a non-finite energy") {
    m.energy_gain_max = std::numeric_limits<double>::quiet_NaN();
    const auto beyond = judge_stability(m, criterion);
    REQUIRE(beyond);
    CHECK(beyond->bound == Instability::Bound::NonFinite);
  }
  SECTION("the per-sample check: non-finite energy, constraint, orthogonality") {
    Observation o;
    o.energy = 1.0;
    o.kinetic = 0.5;
    o.constraint_err = 0.0099;
    o.orthogonality_err = 0.0099;
    CHECK_FALSE(judge_sample(0.5, o, criterion));
    o.constraint_err = 0.0101;
    REQUIRE(judge_sample(0.5, o, criterion));
    CHECK(judge_sample(0.5, o, criterion)->bound == Instability::Bound::Constraint);
    o.constraint_err = 0.0;
    o.orthogonality_err = 0.0101;
    REQUIRE(judge_sample(0.5, o, criterion));
    CHECK(judge_sample(0.5, o, criterion)->bound == Instability::Bound::Orthogonality);
    o.orthogonality_err = 0.0;
    o.energy = std::numeric_limits<double>::infinity();
    REQUIRE(judge_sample(0.5, o, criterion));
    CHECK(judge_sample(0.5, o, criterion)->bound == Instability::Bound::NonFinite);
  }
}

TEST_CASE("the metrics record the signed energy gain and when it was reached", "[stability][criterion]") {
  MetricsAccumulator acc;
  // E - E0 - W: 0, -3 (a loss, larger in magnitude), +0.5 at t = 2, +0.25.
  const double energy[] = {10.0, 7.0, 10.5, 10.25};
  for (int k = 0; k < 4; ++k) {
    Observation o;
    o.energy = energy[k];
    o.kinetic = 1.0;
    o.constraint_err = k == 1 ? 0.5 : 0.0;
    acc.add(double(k), o);
  }
  const ConservationMetrics m = acc.result();
  CHECK(m.energy_err_max == Approx(3.0));     // the loss counts in the error
  CHECK(m.energy_gain_max == Approx(0.5));    // not in the gain
  CHECK(m.energy_gain_t == Approx(2.0));
  CHECK(m.constraint_err_t == Approx(1.0));
}

TEST_CASE("a completed run that gains energy is unstable in every table and a stable one stays ok",
          "[stability][criterion]") {
  Dir dir;
  const Case c = testing::load_case(oscillator_case(dir.path, 25.0).string());
  // Every fixed-step method without an imaginary-axis interval gains energy on an undamped
  // oscillator at every h: at h omega = 0.5 the explicit midpoint rule's |R(iy)|^2 = 1 + y^4/4
  // multiplies the energy by 1.0156 per step, 4.7 over 100 steps: far beyond 0.1 x max KE, and
  // finite. Methods with the interval run at the case's h (h omega = 0.1) and stay ok.
  int gaining = 0, stable = 0;
  for (const auto& info : testing::catalogue().integrators) {
    if (info.adaptive || why_not_applicable(c, info, c.model->default_discretisation())) continue;
    RunOptions options;
    options.min_timed_s = 0.0;
    INFO(info.name);
    if (!info.traits.imaginary_axis_stable) {
      options.h = 0.5 / kOmega;
      const SummaryRow row = run_case(c, info, options);
      CHECK(row.outcome.unstable());
      CHECK(row.outcome.no_result());
      CHECK(row.outcome.fails());  // what a gate's "outcome,fails" row expects
      CHECK_FALSE(row.outcome.incomplete());  // it reached its end
      CHECK(row.status().starts_with("unstable at h = 0.25 (energy gain "));
      CHECK(row.status().find("× max KE at t = 25 s)") != std::string::npos);
      CHECK(row.metrics.energy_gain_max > 0.1 * row.metrics.kinetic_max);  // kept for diagnosis
      // The tables show no metrics for it.
      const auto values = summary_values(row);
      const auto& columns = summary_columns();
      for (size_t i = 0; i < columns.size(); ++i)
        if (columns[i] == "energy_err_max") CHECK(values[i].empty());
      ++gaining;
    } else {
      const SummaryRow row = run_case(c, info, options);
      CHECK(row.outcome.ok());
      CHECK(row.status() == "ok");
      ++stable;
    }
  }
  CHECK(gaining >= 1);
  CHECK(stable >= 1);
  // An adaptive run is unstable at its tolerance, not at its first step.
  RunOutcome adaptive;
  adaptive.kind = RunOutcome::Kind::Unstable;
  adaptive.adaptive = true;
  adaptive.h = 1e-3;
  adaptive.rtol = 1e-6;
  adaptive.reason = "energy gain 0.98 × max KE at t = 1000 s";
  CHECK(adaptive.describe() == "unstable at rtol = 1e-06 (energy gain 0.98 × max KE at t = 1000 s)");
}

TEST_CASE("a method without an imaginary-axis interval has a horizon-dependent h_max and one with it has not",
          "[stability]") {
  Dir dir;
  const Case c = testing::load_case(oscillator_case(dir.path, 800.0).string());
  // Fixed horizons T and T/8: h_max ~ T^(-1/3) for a growth 1 + O(y^4) per step, ratio 1/2;
  // unchanged (to the bisection's precision) for a method with a stability interval.
  const double precision = 0.02;
  int dependent = 0;
  for (const auto& info : testing::catalogue().integrators) {
    if (info.adaptive || why_not_applicable(c, info, c.model->default_discretisation())) continue;
    const RunKey key{&c, &info, c.model->default_discretisation()};
    auto search_over = [&](double T) {
      return find_h_max(key, c.settings_for(info.name), c.h, ProbeHorizon::fixed(T), c.sample_interval,
                        StabilityCriterion{}, precision);
    };
    const StabilitySearch longer = search_over(800.0), shorter = search_over(100.0);
    const bool bracketed = longer.bound == StabilitySearch::Bound::Bracketed &&
                           shorter.bound == StabilitySearch::Bound::Bracketed;
    const double ratio = longer.h_max / shorter.h_max;
    INFO(info.name << ": h_max(800 s) / h_max(100 s) = " << ratio);
    if (!info.traits.imaginary_axis_stable) {
      REQUIRE(bracketed);
      CHECK(ratio == Approx(0.5).margin(0.05));
      ++dependent;
    } else if (bracketed && !longer.limited_by_solver() && !shorter.limited_by_solver()) {
      // A stability interval: the same limit over both horizons, to the bisection's precision
      // (the longer horizon sees a slower growth just above it, so it may end a little lower).
      CHECK(ratio <= 1.0 + 2.5 * precision);
      CHECK(ratio >= 1.0 - 2.5 * precision);
    }
  }
  CHECK(dependent >= 1);
}

TEST_CASE("the probe horizon is the larger of the base and min_steps steps at the probe's h and at most t_end",
          "[stability]") {
  const ProbeHorizon horizon{0.2, 1e4, 5.0};
  CHECK(horizon.at(1e-5) == Approx(0.2));   // 10^4 steps = 0.1 s < base
  CHECK(horizon.at(1e-4) == Approx(1.0));   // 10^4 steps
  CHECK(horizon.at(1e-3) == Approx(5.0));   // 10 s: the case ends first
  CHECK(ProbeHorizon::fixed(3.0).at(1e-1) == Approx(3.0));
}

TEST_CASE("the map prints omega_max where the model knows it: h_max omega_max = 2 sqrt 2 for RK4", "[stability][cli]") {
  Dir dir;
  const fs::path case_file = oscillator_case(dir.path, 100.0);
  const fs::path out = dir.path / "out";
  const std::string cmd = std::string(TETHERBENCH_BINARY) + " study stability_map " + case_file.string() +
                          " --param sweeps=none --param precision=0.01 --out " + out.string() + " >" +
                          (dir.path / "log").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  INFO(slurp(dir.path / "log"));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  const Case c = testing::load_case(case_file.string());
  REQUIRE(c.model->max_frequency(c.model->default_discretisation()));
  CHECK(*c.model->max_frequency(c.model->default_discretisation()) == Approx(kOmega));
  const std::string md = slurp(out / "stability_map.md");
  const auto at = md.find("\n| rk4 |");
  REQUIRE(at != std::string::npos);
  const std::string row = md.substr(at + 1, md.find('\n', at + 1) - at - 1);
  INFO(row);
  // | run | h_max: instability | h_max: solver failure | h_max / h | h_max x omega_max | ...
  std::vector<std::string> cells;
  std::stringstream in(row);
  for (std::string cell; std::getline(in, cell, '|');) cells.push_back(cell);
  REQUIRE(cells.size() > 5);
  CHECK(std::stod(cells[5]) == Approx(2.0 * std::sqrt(2.0)).epsilon(0.02));
  // The horizon checks of the methods without an imaginary-axis interval have their section.
  CHECK(md.find("## Horizon-dependent methods") != std::string::npos);
}
