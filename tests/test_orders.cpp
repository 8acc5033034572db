// Convergence orders measured over the asymptotic range only (numerics/statistics.hpp,
// asymptotic_order; issue 24 item 3), on synthetic sweeps whose answer is known: a clean
// power law, one that reaches a round-off floor, one that starts outside the asymptotic range,
// too few points, and unusable points (failed runs, errors below the references' agreement).

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "numerics/statistics.hpp"

using namespace tb;

namespace {
std::vector<double> halving(double h0, int n) {
  std::vector<double> h;
  for (int i = 0; i < n; ++i) h.push_back(h0 / std::pow(2.0, i));
  return h;
}
}  // namespace

TEST_CASE("asymptotic_order: a clean power law is measured exactly, with a tight interval", "[orders]") {
  const std::vector<double> h = halving(1e-3, 5);
  std::vector<double> e;
  for (double x : h) e.push_back(3.0 * std::pow(x, 4));
  const AsymptoticOrder a = asymptotic_order(h, e, std::vector<bool>(h.size(), true));
  REQUIRE(a.fitted);
  CHECK(a.fit.p == Approx(4.0).margin(1e-9));
  CHECK(a.fit.ci95 < 1e-6);
  CHECK(a.steps.size() == 5);
  for (double q : a.local_orders) CHECK(q == Approx(4.0).margin(1e-9));
}

TEST_CASE("asymptotic_order: points at a round-off floor and a pre-asymptotic start are left out", "[orders]") {
  // Order 4 from the 2nd to the 4th point (1.6e-9, 1e-10, 6.25e-12); the first is outside the
  // asymptotic range (local order 1.5); from the 5th on the errors sit on a floor of 1e-12 (the
  // C_cooperative lgvi4 sweep's shape), where three flat points agree with each other as well:
  // the run at the larger steps is the one measured.
  const std::vector<double> h = halving(4e-4, 7);
  std::vector<double> e;
  for (size_t i = 0; i < h.size(); ++i) e.push_back(std::max(1e6 * std::pow(h[i], 4), 1e-12));
  e[0] = e[1] * std::pow(2.0, 1.5);
  const AsymptoticOrder a = asymptotic_order(h, e, std::vector<bool>(h.size(), true));
  REQUIRE(a.fitted);
  CHECK(a.fit.p == Approx(4.0).margin(1e-9));
  CHECK(a.steps.front() == h[1]);
  CHECK(a.steps.back() == h[3]);
  CHECK(a.local_orders[0] == Approx(1.5).margin(1e-9));
}

TEST_CASE("asymptotic_order: too few usable or agreeing points is inconclusive, with the reason", "[orders]") {
  const std::vector<double> h = halving(1e-3, 4);
  std::vector<double> e;
  for (double x : h) e.push_back(x * x);
  SECTION("two points") {
    const AsymptoticOrder a = asymptotic_order({h[0], h[1]}, {e[0], e[1]}, {true, true});
    CHECK_FALSE(a.fitted);
    CHECK(a.why_not.find("fewer than 3") != std::string::npos);
  }
  SECTION("an unusable point breaks the run") {
    const AsymptoticOrder a = asymptotic_order(h, e, {true, true, false, true});
    CHECK_FALSE(a.fitted);
    CHECK(std::isnan(a.local_orders[1]));
  }
  SECTION("local orders that disagree") {
    const AsymptoticOrder a = asymptotic_order(h, {1.0, 0.25, 0.2, 0.01}, std::vector<bool>(4, true));
    CHECK_FALSE(a.fitted);
    CHECK(a.why_not.find("agree") != std::string::npos);
  }
}
