// The differential of SO(3)'s exponential and its inverse (numerics/so3_dexp.hpp), the pieces
// the Lie group methods of the ODE form integrate: dexp against central finite differences of
// exp, dexp_inv as its inverse, the truncated series against the closed form at the order it
// claims, and the exp/log round trip and the S^2 action they act through.

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "numerics/so3_dexp.hpp"

using namespace tb;

namespace {

Vec3 random_vector(std::mt19937& rng, double scale) {
  std::normal_distribution<double> n(0.0, 1.0);
  return scale * Vec3(n(rng), n(rng), n(rng));
}

}  // namespace

TEST_CASE("dexp: d/de exp(u + e v) exp(u)^T = hat(dexp(u) v), by central differences", "[lie_group][dexp]") {
  std::mt19937 rng(7);
  for (double scale : {1e-5, 1e-3, 0.3, 1.0, 2.5}) {
    for (int trial = 0; trial < 20; ++trial) {
      const Vec3 u = random_vector(rng, scale), v = random_vector(rng, 1.0);
      const double e = 1e-6;
      const Mat3 derivative = (so3::exp(u + e * v) - so3::exp(u - e * v)) / (2.0 * e);
      const Vec3 fd = so3::vee_skew(derivative * so3::exp(u).transpose());
      INFO("|u| = " << u.norm());
      CHECK((fd - so3::dexp(u) * v).norm() < 1e-8 * v.norm());
      // The skew part is all of it: the derivative is in the tangent space at exp(u).
      CHECK((derivative * so3::exp(u).transpose() - so3::hat(fd)).norm() < 1e-8);
    }
  }
}

TEST_CASE("dexp_inv: the inverse of dexp for |u| < 2 pi, continuous through the Taylor branch", "[lie_group][dexp]") {
  std::mt19937 rng(11);
  for (double t : {0.0, 1e-8, 9.99e-4, 1.001e-3, 0.1, 1.0, 3.0, 6.0}) {
    const Vec3 axis = random_vector(rng, 1.0).normalized();
    const Vec3 u = t * axis;
    INFO("|u| = " << t);
    CHECK((so3::dexp_inv(u) * so3::dexp(u) - Mat3::Identity()).norm() < 1e-12 * (1.0 + 1.0 / (2.0 * M_PI - t)));
  }
  // Both branches (Taylor below |u| = 1e-3, closed form above) against the closed forms in long
  // double, whose cancellation (eps_ld / t^2 ~ 1e-13 relative at t = 1e-3) stays far below the
  // double-precision round-off checked.
  const Vec3 axis(0.6, -0.8, 0.0);
  for (long double t : {5e-4L, 9.999e-4L, 1.0001e-3L, 2e-3L, 0.5L}) {
    const long double a = (1.0L - std::cos(t)) / (t * t), b = (t - std::sin(t)) / (t * t * t);
    const long double c = (1.0L - 0.5L * t / std::tan(0.5L * t)) / (t * t);
    const Vec3 u = double(t) * axis;
    const Mat3 U = so3::hat(u), U2 = U * U;
    const Mat3 dexp_ref = Mat3::Identity() + double(a) * U + double(b) * U2;
    const Mat3 dexp_inv_ref = Mat3::Identity() - 0.5 * U + double(c) * U2;
    INFO("|u| = " << double(t));
    CHECK((so3::dexp(u) - dexp_ref).norm() < 1e-15);
    CHECK((so3::dexp_inv(u) - dexp_inv_ref).norm() < 1e-15);
  }
}

TEST_CASE("dexp_inv_series: truncated after ad^q it matches the closed form to the order it leaves out", "[lie_group][dexp]") {
  std::mt19937 rng(13);
  const Vec3 axis = random_vector(rng, 1.0).normalized(), v = random_vector(rng, 1.0);
  for (int q : {0, 1, 2, 4}) {
    // The error's order, measured from two sizes of u: the first term left out is ad^(q+1), or
    // ad^(q+2) where B_(q+1) = 0 (q = 2, 4: B_3 = B_5 = 0).
    const double expected = q == 2 ? 4.0 : q == 4 ? 6.0 : q + 1.0;
    const double t1 = 0.4, t2 = 0.2;
    const double e1 = (so3::dexp_inv(t1 * axis) * v - so3::dexp_inv_series(t1 * axis, v, q)).norm();
    const double e2 = (so3::dexp_inv(t2 * axis) * v - so3::dexp_inv_series(t2 * axis, v, q)).norm();
    const double order = std::log(e1 / e2) / std::log(t1 / t2);
    INFO("q = " << q << ": errors " << e1 << ", " << e2 << ", order " << order);
    CHECK(std::abs(order - expected) < 0.1);
  }
  CHECK_THROWS_AS(so3::dexp_inv_series(axis, v, 5), std::invalid_argument);
}

TEST_CASE("exp/log round trip and the S^2 action keep the group and the sphere to round-off", "[lie_group][dexp]") {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 u = random_vector(rng, 1.0);
    if (u.norm() >= M_PI) continue;
    CHECK((so3::log(so3::exp(u)) - u).norm() < 1e-13);
    Vec3 q = random_vector(rng, 1.0).normalized();
    for (int step = 0; step < 1000; ++step) q = s2::rotate(q, 0.01 * u);  // 1000 actions
    CHECK(std::abs(q.norm() - 1.0) < 1e-13);
  }
}
