// Long-time growth laws (core/growth.hpp): the envelope fit on synthetic series with known
// laws (c t, c sqrt t, a random walk from fixed seeds, a bounded oscillation, decay, round-off
// noise), then on real runs: a non-symplectic method's energy drifts linearly, a variational
// integrator's stays bounded; and the study's --param checked as input.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>

#include "core/gates.hpp"
#include "core/growth.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {

// |e(t)| sampled at t = i dt, i = 0..n, streamed through the envelope and fitted.
GrowthFit fit_series(long n, double dt, const std::function<double(long, double)>& e) {
  GrowthEnvelope env;
  for (long i = 0; i <= n; ++i) env.add(i * dt, std::abs(e(i, i * dt)));
  return fit_growth(env.points(), env.max());
}

void show(const char* what, const GrowthFit& f) {
  std::printf("growth %-28s law %-9s p %.4f (95%% CI %.4f .. %.4f), R^2 %.3f, %d points over %.3g .. %.3g\n", what,
              f.law.c_str(), f.exponent, f.ci95_low, f.ci95_high, f.r2, f.points, f.t_from, f.t_to);
}

}  // namespace

TEST_CASE("the envelope max over [t/2, t] on log-spaced windows keeps O(log n) points", "[growth]") {
  // 10^5 samples: 4 windows per octave over ~17 octaves, minus the empty first windows of the
  // integer grid; the envelope of e = t is the window's last time (exactly, on this grid).
  GrowthEnvelope env;
  for (long i = 0; i <= 100000; ++i) env.add(1.0 + 0.01 * i, 0.01 * i);  // t0 = 1: times are since t0
  const auto pts = env.points();
  CHECK(pts.size() > 50);
  CHECK(pts.size() < 70);
  for (const auto& p : pts) CHECK(p.value == Approx(p.t).epsilon(1e-12));
  CHECK(pts.back().t == Approx(1000.0));
  CHECK(env.max() == Approx(1000.0));
}

TEST_CASE("growth laws of synthetic series are classified with their exponents", "[growth]") {
  const long n = 200000;
  const double dt = 1e-3;
  SECTION("linear drift with an oscillation on top: p = 1 within 0.1") {
    // A non-symplectic method's energy error: secular c t plus the orbit's O(h^p) oscillation,
    // which dominates the first second and still adds to the envelope at the fit's start
    // (2 s): measured p = 0.944.
    const auto f = fit_series(n, dt, [](long, double t) { return 1e-8 * t + 1e-8 * std::sin(7.0 * t); });
    show("1e-8 t + 1e-8 sin 7t", f);
    CHECK(f.law == "linear");
    CHECK(f.exponent == Approx(1.0).margin(0.1));
    CHECK(f.r2 > 0.99);
  }
  SECTION("c sqrt(t): p = 1/2 within 0.01") {
    const auto f = fit_series(n, dt, [](long, double t) { return 3e-12 * std::sqrt(t); });
    show("3e-12 sqrt t", f);
    CHECK(f.law == "sqrt_t");
    CHECK(f.exponent == Approx(0.5).margin(0.01));
    CHECK(f.coefficient == Approx(3e-12).epsilon(0.05));
  }
  SECTION("bounded oscillation: p = 0 within 0.05") {
    // A symplectic method's energy error: a bounded oscillation (two frequencies, so the peaks
    // are not all equal), with a period of 0.9 s against a 200 s run.
    const auto f =
        fit_series(n, dt, [](long, double t) { return 1e-6 * std::sin(7.0 * t) + 3e-7 * std::sin(2.3 * t + 1.0); });
    show("bounded two-frequency", f);
    CHECK(f.law == "bounded");
    CHECK(std::abs(f.exponent) < 0.05);
  }
  SECTION("faster than linear and decaying") {
    const auto fast = fit_series(n, dt, [](long, double t) { return 1e-9 * t * t; });
    show("1e-9 t^2", fast);
    CHECK(fast.law == "faster");
    CHECK(fast.exponent == Approx(2.0).margin(0.02));
    // A transient dying out like 1/t (after the first sample).
    const auto decay = fit_series(n, dt, [](long i, double t) { return i == 0 ? 0.0 : 1e-3 / t; });
    show("1e-3 / t", decay);
    CHECK(decay.law == "decays");
    CHECK(decay.exponent == Approx(-1.0).margin(0.05));
  }
  SECTION("no error at all, and a run too short to fit") {
    CHECK(fit_series(1000, dt, [](long, double) { return 0.0; }).law == "zero");
    const auto short_run = fit_series(5, dt, [](long, double t) { return t; });
    CHECK(short_run.law == "too_short");
  }
}

TEST_CASE("a random walk fits p = 1/2, and the 95% interval covers it for most seeds", "[growth]") {
  // Round-off accumulating with random signs: e_n = |sum of n steps of +-1| (seeded: the test is
  // reproducible; mt19937_64's bits are the same on every platform). 200 walks of 10^5 steps.
  // One walk's exponent over two decades is a random variable of its own (measured: 0.14 ..
  // 0.82, mean 0.497); the mean is within 0.03 of 1/2, each within 0.4 (measured 0.36); the interval, which
  // is that of one run's exponent, covers 1/2 for at least 85% of them (measured 183 of 200,
  // 91.5%), and the law is sqrt_t for at least 85% (measured 185).
  const int walks = 200;
  double sum = 0.0;
  int covered = 0, sqrt_t = 0;
  double lo = 1.0, hi = 0.0;
  for (int seed = 1; seed <= walks; ++seed) {
    std::mt19937_64 rng(seed);
    long w = 0;
    const auto f = fit_series(100000, 1.0, [&](long i, double) {
      if (i > 0) w += (rng() >> 63) ? 1 : -1;
      return double(w);
    });
    sum += f.exponent;
    lo = std::min(lo, f.exponent), hi = std::max(hi, f.exponent);
    covered += f.ci95_low <= 0.5 && 0.5 <= f.ci95_high;
    sqrt_t += f.law == "sqrt_t";
    CHECK(std::abs(f.exponent - 0.5) < 0.4);
  }
  std::printf("growth random walk: mean p %.4f over %d seeds (range %.3f .. %.3f), CI covers 1/2 in %d, law sqrt_t in %d\n",
              sum / walks, walks, lo, hi, covered, sqrt_t);
  CHECK(std::abs(sum / walks - 0.5) < 0.03);
  CHECK(covered >= 0.85 * walks);
  CHECK(sqrt_t >= 0.85 * walks);
}

TEST_CASE("round-off-level noise is classified round_off against the Brouwer floor of the gates", "[growth]") {
  // A conserved quantity of magnitude ~1 J recomputed each step with a few ulps of rounding:
  // |e| ~ 2 eps sqrt(n) (a walk of 2-ulp steps), under the gates' floor 8 eps scale sqrt(n).
  const long n = 100000;
  const double eps = std::numeric_limits<double>::epsilon();
  std::mt19937_64 rng(7);
  double w = 0.0;
  const auto f = fit_series(n, 1e-3, [&](long i, double) {
    if (i > 0) w += ((rng() >> 63) ? 2.0 : -2.0) * eps;
    return w;
  });
  SummaryRow row;
  row.metrics.energy_magnitude = 1.0;
  row.counters.steps = n;
  row.t_end = n * 1e-3;
  const double floor = round_off_floor("energy_err_max", row);
  const GrowthFit g = with_round_off_floor(f, floor);
  show("2-ulp walk", g);
  std::printf("growth 2-ulp walk: max %.3g, floor %.3g\n", g.err_max, floor);
  CHECK(floor == Approx(8.0 * eps * std::sqrt(double(n))));
  CHECK(g.law == "round_off");
  // The same series ten times larger is above the floor: a law, not round-off.
  GrowthFit big = f;
  big.err_max *= 10.0;
  CHECK(with_round_off_floor(big, floor).law == f.law);
  CHECK(f.law != "round_off");
}

TEST_CASE("the laws' boundaries are the documented ones", "[growth]") {
  CHECK(classify_growth(0.1, 0.05, 0.15) == "bounded");
  CHECK(classify_growth(0.2, -0.1, 0.5) == "bounded");  // the interval contains 0, nearer 0 than 1/2
  CHECK(classify_growth(0.4, -0.1, 0.9) == "sqrt_t");   // contains 0 too, but nearer 1/2
  CHECK(classify_growth(0.4, 0.3, 0.5) == "sqrt_t");
  CHECK(classify_growth(0.8, 0.7, 0.9) == "linear");
  CHECK(classify_growth(1.3, 1.2, 1.4) == "linear");
  CHECK(classify_growth(1.31, 1.2, 1.4) == "faster");
  CHECK(classify_growth(-0.5, -0.7, -0.3) == "decays");
  CHECK(classify_growth(-0.5, -0.9, 0.1) == "bounded");
  CHECK(student_t975(1) == Approx(12.706));
  CHECK(student_t975(10) == Approx(2.228));
  CHECK(student_t975(1e9) == Approx(1.96).epsilon(1e-6));
}

TEST_CASE("real runs: rk4's energy drifts linearly, the variational integrators' stays bounded", "[growth]") {
  // The bundled planar pendulum from 60 deg at h = 0.05 s (about 42 steps a period of 2.15 s)
  // over 1000 s (2e4 steps, ~470 periods): RK4 is not symplectic, its energy error drifts
  // secularly, O(t h^4) (HLW IX.8); RATTLE is symplectic and symmetric, its energy error is a
  // bounded O(h^2) oscillation. Bounds: p = 1 +- 0.15 and |p| <= 0.15 (the laws' own bands).
  const Case pendulum = testing::load_case(std::string(TETHERBENCH_CASES_DIR) + "/T_planar_pendulum_60deg.toml");
  RunOptions o;
  o.h = 0.05;
  o.t_end = 1000.0;
  const SummaryRow rk4 = run_case(pendulum, testing::integrator("rk4"), o);
  const SummaryRow rattle = run_case(pendulum, testing::integrator("rattle"), o);
  REQUIRE(rk4.outcome.ok());
  REQUIRE(rattle.outcome.ok());
  show("rk4 planar pendulum", rk4.metrics.energy_growth);
  show("rattle planar pendulum", rattle.metrics.energy_growth);
  CHECK(rk4.metrics.energy_growth.law == "linear");
  CHECK(rk4.metrics.energy_growth.exponent == Approx(1.0).margin(0.15));
  CHECK(rattle.metrics.energy_growth.law == "bounded");
  CHECK(std::abs(rattle.metrics.energy_growth.exponent) <= 0.15);
  // The conservative case has no external work, and the floors are the gates' Brouwer floors.
  CHECK(rk4.metrics.external_work_max == 0.0);
  CHECK(rk4.metrics.energy_growth.round_off_floor == Approx(round_off_floor("energy_err_max", rk4)));

  // The elastic pendulum at its case step (1 ms) over 100 s (1e5 steps): the LGVI (Stormer-
  // Verlet on this model) keeps a bounded energy error and its angular momentum about the
  // vertical at round-off (a variational integrator with the rotational symmetry: Noether).
  const Case spring = testing::load_case(std::string(TETHERBENCH_CASES_DIR) + "/T_elastic_pendulum.toml");
  RunOptions s;
  s.t_end = 100.0;
  const SummaryRow lgvi = run_case(spring, testing::integrator("lgvi"), s);
  REQUIRE(lgvi.outcome.ok());
  show("lgvi elastic pendulum", lgvi.metrics.energy_growth);
  CHECK(lgvi.metrics.energy_growth.law == "bounded");
  CHECK(std::abs(lgvi.metrics.energy_growth.exponent) <= 0.15);
  CHECK(lgvi.metrics.momentum_growth.law == "round_off");
}
