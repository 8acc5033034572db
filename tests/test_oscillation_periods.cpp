// The slowest periods the models declare for the growth laws' windows
// (mechanics/oscillation_periods.hpp): the formulas against numerical integration of the same
// motion (exact results), and every bundled case declaring one.

#include <catch2/catch.hpp>

#include <cmath>

#include "mechanics/oscillation_periods.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {

// Classical RK4 on y' = f(y) with n steps of h: the reference the formulas are checked against.
template <class Vec, class F>
Vec rk4(Vec y, double h, long n, const F& f) {
  for (long i = 0; i < n; ++i) {
    const Vec k1 = f(y), k2 = f(Vec(y + 0.5 * h * k1)), k3 = f(Vec(y + 0.5 * h * k2)), k4 = f(Vec(y + h * k3));
    y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return y;
}

}  // namespace

TEST_CASE("the pendulum's period at large amplitude is Gauss's AGM formula", "[periods]") {
  CHECK(periods::agm(1.0, 1.0 / std::sqrt(2.0)) == Approx(0.8472130847939790866).epsilon(1e-15));
  const double L = 1.3, g = 9.81;
  CHECK(periods::compound_pendulum(L * L, 1.0, L, g, 0.0) == Approx(2.0 * M_PI * std::sqrt(L / g)).epsilon(1e-14));
  // From rest at 60 degrees the pendulum reaches the bottom after a quarter period: theta(T/4) = 0.
  const double theta0 = M_PI / 3.0, T = periods::compound_pendulum(L * L, 1.0, L, g, theta0);
  const long n = 200000;
  const Eigen::Vector2d y = rk4(Eigen::Vector2d(theta0, 0.0), 0.25 * T / double(n), n, [&](const Eigen::Vector2d& s) {
    return Eigen::Vector2d(s(1), -g / L * std::sin(s(0)));
  });
  CHECK(std::abs(y(0)) < 1e-9);
  CHECK(T > 2.0 * M_PI * std::sqrt(L / g) * 1.07);  // 7.3% longer than the small-amplitude period
  // No gravity, no period.
  CHECK(std::isnan(periods::compound_pendulum(L * L, 1.0, L, 0.0, 0.0)));
}

TEST_CASE("the free rigid body's body-frame period is Landau-Lifshitz's 4 K(k) / lambda", "[periods]") {
  // Euler's equations J w' = (J w) x w integrated over the formula's period return w to its start.
  const Mat3 J = Vec3(1.0, 2.0, 3.5).asDiagonal();
  for (const Vec3& w0 : {Vec3(1.0, 0.2, 0.3), Vec3(0.1, 0.3, 1.0), Vec3(0.3, 1.0, 0.2)}) {
    const double T = periods::euler_equations_period(J, w0);
    CHECK(periods::free_rigid_body(J, w0) == Approx(std::max(T, 2.0 * M_PI / w0.norm())));
    INFO("w0 = " << w0.transpose() << ", T = " << T);
    REQUIRE(std::isfinite(T));
    const long n = 400000;
    auto euler = [&](const Vec3& w) -> Vec3 { return J.inverse() * (J * w).cross(w); };
    const Vec3 w_T = rk4(w0, T / double(n), n, euler);
    CHECK((w_T - w0).norm() < 1e-8 * w0.norm());
    // Half the period later w is elsewhere: T is the period, not a multiple of a shorter one.
    CHECK((rk4(w0, 0.5 * T / double(n), n, euler) - w0).norm() > 1e-3 * w0.norm());
  }
  // A steady spin about the major axis: the period of the motions near it,
  // 2 pi / (w sqrt((I3 - I1)(I3 - I2) / (I1 I2))); about the intermediate axis, none.
  CHECK(periods::euler_equations_period(J, Vec3(0.0, 0.0, 2.0)) ==
        Approx(2.0 * M_PI / (2.0 * std::sqrt(2.5 * 1.5 / 2.0))));
  CHECK(std::isnan(periods::euler_equations_period(J, Vec3(0.0, 2.0, 0.0))));
  CHECK(periods::free_rigid_body(J, Vec3(0.0, 2.0, 0.0)) == Approx(M_PI));
}

TEST_CASE("every bundled case's model declares a finite slowest period", "[periods]") {
  for (const Case& c : testing::bundled_cases()) {
    INFO(c.name);
    const double T = c.model->slowest_period_s();
    CHECK(std::isfinite(T));
    CHECK(T > 0.0);
    std::printf("periods %-36s slowest period %.4g s, t_end %.4g s = %.3g periods\n", c.name.c_str(), T, c.t_end,
                c.t_end / T);
  }
}
