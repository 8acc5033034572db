// Property tests (manif style) for core/lie_group: each property is checked on identity/zero,
// 1e-8-small random vectors and O(1) random vectors (fixed seed), plus near-π cases for log.
#include "numerics/lie_group.hpp"

#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using tb::Mat3;
using tb::Vec3;
namespace so3 = tb::so3;
namespace s2 = tb::s2;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kSamples = 20;

Vec3 random_vec(std::mt19937& g, double scale) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  return scale * Vec3(d(g), d(g), d(g));
}

Vec3 random_unit(std::mt19937& g) {
  Vec3 v;
  do v = random_vec(g, 1.0); while (v.norm() < 0.1);
  return v.normalized();
}

struct InputSet {
  std::string name;
  std::vector<Vec3> v;
};

// The three standard input sets: zero, 1e-8-small random, O(1) random (|x| <= sqrt(3) < π).
std::vector<InputSet> input_sets() {
  std::mt19937 g(20240502u);
  InputSet zero{"zero", {Vec3::Zero()}};
  InputSet small{"small(1e-8)", {}};
  InputSet rnd{"random", {}};
  for (int i = 0; i < kSamples; ++i) small.v.push_back(random_vec(g, 1e-8));
  for (int i = 0; i < kSamples; ++i) rnd.v.push_back(random_vec(g, 1.0));
  return {zero, small, rnd};
}

// Rotation vectors with angle close to (or exactly) π, random axes.
std::vector<Vec3> near_pi_vectors() {
  std::mt19937 g(7u);
  std::vector<Vec3> out;
  for (double delta : {1e-1, 1e-2, 1e-4, 1e-6, 1e-8, 1e-10}) {
    for (int i = 0; i < 4; ++i) out.push_back((kPi - delta) * random_unit(g));
  }
  return out;
}

Mat3 random_mat(std::mt19937& g) {
  Mat3 M;
  M << random_vec(g, 1.0), random_vec(g, 1.0), random_vec(g, 1.0);
  return M;
}

// Magnitudes spread log-uniformly over [1e-7, 1e-2]: exercises both sides of the exp/log Taylor switches.
std::vector<Vec3> mid_scale_vectors() {
  std::mt19937 g(23u);
  std::uniform_real_distribution<double> e(-7.0, -2.0);
  std::vector<Vec3> out;
  for (int i = 0; i < kSamples; ++i) out.push_back(std::pow(10.0, e(g)) * random_unit(g));
  return out;
}

double max_abs(const Mat3& A) { return A.cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("hat/vee: round trips and hat(x) y == x × y", "[lie_group][so3]") {
  std::mt19937 g(11u);
  for (const auto& set : input_sets()) {
    for (const Vec3& x : set.v) {
      INFO(set.name << " x = " << x.transpose());
      const Mat3 X = so3::hat(x);
      CHECK((X + X.transpose()).norm() == 0.0);  // exactly skew
      CHECK((so3::vee(X) - x).norm() == 0.0);
      CHECK((so3::vee_skew(X) - x).norm() == 0.0);
      CHECK((so3::hat(so3::vee(X)) - X).norm() == 0.0);
      const Vec3 y = random_vec(g, 1.0);
      CHECK((X * y - x.cross(y)).norm() <= 2e-16 * x.norm() * y.norm());
      // vee_skew ignores a symmetric part; plain vee (documented: skew input only) does not.
      const Mat3 S = random_mat(g);
      const Mat3 Ssym = S + S.transpose();
      CHECK((so3::vee_skew(X + Ssym) - x).norm() <= 1e-15 * (1.0 + x.norm()));
    }
  }
  const Mat3 Ssym = (Mat3() << 1, 2, 3, 2, 4, 5, 3, 5, 6).finished();
  CHECK((so3::vee(Ssym) - Vec3(5, 3, 2)).norm() == 0.0);
  CHECK(so3::vee_skew(Ssym).norm() == 0.0);
}

TEST_CASE("cayley: rotation, closed form = definition, inverse, angle 2 atan|c|", "[lie_group][so3][cayley]") {
  auto sets = input_sets();
  {  // larger parameters too (angle approaching π)
    std::mt19937 g(3u);
    InputSet big{"large", {}};
    for (int i = 0; i < kSamples; ++i) big.v.push_back(random_vec(g, 20.0));
    sets.push_back(big);
  }
  for (const auto& set : sets) {
    for (const Vec3& c : set.v) {
      INFO(set.name << " c = " << c.transpose());
      const Mat3 F = so3::cayley(c);
      CHECK(so3::orthogonality_error(F) < 4e-15);  // observed max ~1.8e-15 for |c| up to 35
      CHECK(std::abs(F.determinant() - 1.0) < 4e-15);
      CHECK(so3::is_rotation(F, 4e-15));

      const Mat3 C = so3::hat(c);
      const Mat3 Fdef = (Mat3::Identity() + C) * (Mat3::Identity() - C).inverse();
      CHECK(max_abs(F - Fdef) < 1e-14);

      const double cn = c.norm();
      const Vec3 ci = so3::cayley_inverse(F);
      CHECK((ci - c).norm() <= 1e-15 * cn * (1.0 + cn * cn));  // conditioning ~ eps·|c|²

      const double angle = Eigen::AngleAxisd(F).angle();
      CHECK(std::abs(angle - 2.0 * std::atan(cn)) <= 2e-15 * angle);
      if (cn > 0.0) {  // same axis: F = exp(2 atan|c| · c/|c|)
        CHECK(max_abs(F - so3::exp((2.0 * std::atan(cn) / cn) * c)) < 2e-15);
      }
    }
  }
  CHECK(so3::cayley(Vec3::Zero()) == Mat3::Identity());
}

TEST_CASE("cayley_inverse: throws at rotation by π", "[lie_group][so3][cayley]") {
  const Mat3 Rpi = Eigen::Vector3d(1.0, -1.0, -1.0).asDiagonal();  // rotation by π about x: 1 + tr = 0
  CHECK_THROWS_AS(so3::cayley_inverse(Rpi), std::domain_error);
  const Mat3 Rpi2 = so3::exp(kPi * Vec3(1, 2, 3).normalized());
  CHECK_THROWS_AS(so3::cayley_inverse(Rpi2), std::domain_error);
  CHECK_NOTHROW(so3::cayley_inverse(so3::exp((kPi - 1e-3) * Vec3(1, 2, 3).normalized())));
}

TEST_CASE("cayley_left_jacobian: F(c)ᵀ dF = hat(T dc), checked by central differences", "[lie_group][so3][cayley]") {
  const double eps = 1e-5;
  for (const auto& set : input_sets()) {
    for (const Vec3& c : set.v) {
      INFO(set.name << " c = " << c.transpose());
      const Mat3 T = so3::cayley_left_jacobian(c);
      const Mat3 F = so3::cayley(c);
      Mat3 Tfd, Tfd_right;
      for (int i = 0; i < 3; ++i) {
        const Vec3 e = Vec3::Unit(i);
        const Mat3 dF = (so3::cayley(c + eps * e) - so3::cayley(c - eps * e)) / (2.0 * eps);
        Tfd.col(i) = so3::vee_skew(F.transpose() * dF);
        Tfd_right.col(i) = so3::vee_skew(dF * F.transpose());
        // Fᵀ dF must itself be skew (tangent to SO(3) at F, left-trivialised)
        CHECK(((F.transpose() * dF) + (F.transpose() * dF).transpose()).norm() < 1e-9);
      }
      CHECK((Tfd - T).norm() <= 1e-8 * T.norm());
      // The right-trivialised Jacobian (dF Fᵀ) is the other sign: 2/(1+|c|²)(I + ĉ).
      const Mat3 Tright = (2.0 / (1.0 + c.squaredNorm())) * (Mat3::Identity() + so3::hat(c));
      CHECK((Tfd_right - Tright).norm() <= 1e-8 * Tright.norm());
    }
  }
  CHECK(so3::cayley_left_jacobian(Vec3::Zero()) == 2.0 * Mat3::Identity());
}

TEST_CASE("exp: Rodrigues vs Eigen AngleAxis, small-angle accuracy, exp(0) = I", "[lie_group][so3][exp]") {
  CHECK(so3::exp(Vec3::Zero()) == Mat3::Identity());
  auto sets = input_sets();
  sets.push_back({"near_pi", near_pi_vectors()});
  sets.push_back({"mid_scale", mid_scale_vectors()});
  for (const auto& set : sets) {
    for (const Vec3& w : set.v) {
      INFO(set.name << " w = " << w.transpose());
      const Mat3 R = so3::exp(w);
      CHECK(so3::orthogonality_error(R) < 2e-15);
      CHECK(std::abs(R.determinant() - 1.0) < 4e-15);
      CHECK((R * w - w).norm() <= 1e-15 * w.norm());  // axis is fixed
      if (w.norm() > 0.0) {
        const Mat3 Rref = Eigen::AngleAxisd(w.norm(), w.normalized()).toRotationMatrix();
        CHECK(max_abs(R - Rref) < 1e-15);
      }
    }
  }
  // |w| = 1e-8: agrees with I + ŵ + ŵ²/2 (truncation O(|w|³) = 1e-24); ŵ² (~1e-16) is resolved in the off-diagonals.
  std::mt19937 g(5u);
  for (int i = 0; i < kSamples; ++i) {
    const Vec3 w = 1e-8 * random_unit(g);
    const Mat3 W = so3::hat(w);
    const Mat3 R = so3::exp(w);
    const Mat3 Rt = Mat3::Identity() + W + 0.5 * W * W;
    INFO("w = " << w.transpose());
    CHECK(max_abs(R - Rt) <= 1e-16);
    // Sharper, off-diagonal only (diagonal 1 + O(1e-16) is below round-off of 1):
    const Mat3 skew = 0.5 * (R - R.transpose());
    Mat3 sym = 0.5 * (R + R.transpose());
    sym.diagonal().setZero();
    Mat3 W2 = 0.5 * W * W;
    W2.diagonal().setZero();
    CHECK(max_abs(skew - W) <= 1e-15 * 1e-8);   // first-order coefficient sin θ/θ = 1
    CHECK(max_abs(sym - W2) <= 1e-6 * 1e-16);   // second-order coefficient (1−cos θ)/θ² = 1/2
  }
  // Both sides of the Taylor/closed-form switch at |w| = 1e-3 agree with Eigen's AngleAxis to round-off.
  const Vec3 u = Vec3(0.3, -0.5, 0.8).normalized();
  for (double t : {0.999e-3, 1e-3 * (1 - 1e-15), 1e-3, 1.001e-3}) {
    INFO("t = " << t);
    CHECK(max_abs(so3::exp(t * u) - Eigen::AngleAxisd(t, u).toRotationMatrix()) <= 2.3e-16);
  }
}

TEST_CASE("log: inverse of exp both ways, incl. small angles and angles near π", "[lie_group][so3][log]") {
  CHECK(so3::log(Mat3::Identity()) == Vec3::Zero());
  auto sets = input_sets();
  sets.push_back({"near_pi", near_pi_vectors()});
  sets.push_back({"mid_scale", mid_scale_vectors()});
  for (const auto& set : sets) {
    for (const Vec3& w : set.v) {
      INFO(set.name << " w = " << w.transpose() << " |w| = " << w.norm());
      const Vec3 wl = so3::log(so3::exp(w));
      CHECK((wl - w).norm() <= 1e-15 * w.norm() + 1e-300 + (w.norm() > 1e-3 ? 4e-15 : 0.0));
    }
  }
  // exp(log(R)) == R for arbitrary rotations (|w| up to 3π, so log must wrap to [0, π]).
  std::mt19937 g(9u);
  for (int i = 0; i < 3 * kSamples; ++i) {
    const Vec3 w = random_vec(g, 3.0 * kPi / std::sqrt(3.0));
    const Mat3 R = so3::exp(w);
    const Vec3 wl = so3::log(R);
    INFO("w = " << w.transpose());
    CHECK(wl.norm() <= kPi + 1e-15);
    CHECK(max_abs(so3::exp(wl) - R) < 4e-15);
  }
  // Exactly π: either sign of the axis is valid.
  const Mat3 Rx = Eigen::Vector3d(1.0, -1.0, -1.0).asDiagonal();
  const Vec3 lx = so3::log(Rx);
  CHECK(std::abs(lx.norm() - kPi) < 1e-15);
  CHECK(std::abs(std::abs(lx(0)) - kPi) < 1e-15);
  const Vec3 a = Vec3(-0.2, 0.9, 0.4).normalized();
  const Mat3 Ra = 2.0 * a * a.transpose() - Mat3::Identity();  // rotation by π about a
  const Vec3 la = so3::log(Ra);
  CHECK(std::abs(la.norm() - kPi) < 1e-15);
  CHECK(max_abs(so3::exp(la) - Ra) < 4e-15);
  CHECK(std::abs(std::abs(la.dot(a)) - kPi) < 1e-14);
  // Slightly non-orthogonal input (tr R − 1)/2 outside [−1, 1] must not produce NaN.
  CHECK(so3::log((1.0 + 1e-14) * Mat3::Identity()).allFinite());
  CHECK(so3::log((1.0 + 1e-14) * Rx).allFinite());
}

TEST_CASE("orthogonality_error and is_rotation", "[lie_group][so3]") {
  CHECK(so3::orthogonality_error(Mat3::Identity()) == 0.0);
  Mat3 P = Mat3::Identity();
  P(0, 1) = 1e-6;
  const double e = so3::orthogonality_error(P);
  CHECK(e > 0.9e-6 * std::sqrt(2.0));  // I − PᵀP has ±1e-6 at (0,1),(1,0) and −1e-12 at (1,1)
  CHECK(e < 1.1e-6 * std::sqrt(2.0));
  CHECK(so3::orthogonality_error(2.0 * Mat3::Identity()) == Approx(3.0 * std::sqrt(3.0)));  // ‖I − 4I‖_F
  CHECK(so3::is_rotation(so3::exp(Vec3(0.1, 0.2, 0.3)), 1e-14));
  CHECK_FALSE(so3::is_rotation(P, 1e-9));
  CHECK_FALSE(so3::is_rotation(-Mat3::Identity(), 1e-14));  // orthonormal but a reflection
  CHECK_FALSE(so3::is_rotation(-so3::exp(Vec3(0.1, 0.2, 0.3)), 1e-14));
}

TEST_CASE("nonstandard inertia: round trip and hat(Jω) = ŵ Jd + Jd ŵ", "[lie_group][so3]") {
  std::mt19937 g(13u);
  const Mat3 Jdiag = Eigen::Vector3d(1.0, 2.0, 4.0).asDiagonal();
  CHECK(so3::nonstandard_inertia(Jdiag).isApprox(Mat3(Eigen::Vector3d(2.5, 1.5, -0.5).asDiagonal()), 1e-15));
  for (int i = 0; i < kSamples; ++i) {
    const Mat3 M = random_mat(g);
    const Mat3 J = M * M.transpose() + Mat3::Identity();  // SPD
    const Mat3 Jd = so3::nonstandard_inertia(J);
    CHECK((so3::inertia_from_nonstandard(Jd) - J).norm() <= 1e-15 * J.norm());
    CHECK((so3::nonstandard_inertia(so3::inertia_from_nonstandard(Jd)) - Jd).norm() <= 1e-15 * J.norm());
    for (const auto& set : input_sets()) {
      for (const Vec3& w : set.v) {
        const Mat3 W = so3::hat(w);
        CHECK((so3::hat(J * w) - (W * Jd + Jd * W)).norm() <= 1e-15 * J.norm() * w.norm());
      }
    }
  }
}

TEST_CASE("s2: projector, tangent projection, unit-length-preserving rotate", "[lie_group][s2]") {
  std::mt19937 g(17u);
  for (int i = 0; i < kSamples; ++i) {
    const Vec3 q = random_unit(g);
    const Vec3 v = random_vec(g, 1.0);
    const Mat3 P = s2::tangent_projector(q);
    const Mat3 Q = so3::hat(q);
    CHECK((P + Q * Q).norm() < 1e-15);
    CHECK((P * P - P).norm() < 1e-15);
    CHECK(std::abs(q.dot(s2::project_tangent(q, v))) < 1e-15 * v.norm());
    CHECK((s2::project_tangent(q, v) - P * v).norm() < 1e-15 * v.norm());
    CHECK(s2::unit_length_error(q) < 1e-15);
  }
  CHECK(s2::unit_length_error(Vec3(0.0, 0.0, 1.0 + 1e-10)) == Approx(1e-10).epsilon(1e-5));

  // Compounding updates q_{k+1} = exp(w_k) q_k, |w_k| ~ 1e-2, 1e5 steps. Honest bound: | |q| − 1 | is NOT held
  // to 1e-15; per-step round-off (~1e-16) accumulates (observed ~2e-14 after 1e5 steps, up to ~1.2e-13 after 1e6).
  // No renormalisation is done, so a non-orthogonal update would fail this check.
  const int N = 100000;
  Vec3 q = random_unit(g);
  Vec3 q_euler = q;  // naive first-order update q + w × q, as a contrast: |q| grows like exp(N |w|²/2)
  double max_err = 0.0;
  for (int k = 0; k < N; ++k) {
    const Vec3 w = random_vec(g, 1e-2);
    q = s2::rotate(q, w);
    if (k < 1000) q_euler = q_euler + w.cross(q_euler);
    max_err = std::max(max_err, s2::unit_length_error(q));
  }
  INFO("max | |q| - 1 | over " << N << " steps = " << max_err);
  CHECK(max_err < 1e-13);
  CHECK(s2::unit_length_error(q_euler) > 1e-3);  // the bound above is not vacuous
}

TEST_CASE("cayley_momentum: closed vector form = (1/h) vee(F Jd - Jd F^T), Jacobian by central differences",
          "[lie_group][so3][cayley]") {
  std::mt19937 g(31u);
  const double h = 1e-3;
  for (int i = 0; i < kSamples; ++i) {
    const Mat3 M = random_mat(g);
    const Mat3 J = M * M.transpose() + Mat3::Identity();  // SPD, not diagonal
    const Mat3 Jd = so3::nonstandard_inertia(J);
    for (const auto& set : input_sets()) {
      for (const Vec3& c : set.v) {
        INFO(set.name << " c = " << c.transpose());
        const Mat3 F = so3::cayley(c);
        const Vec3 matrix_form = so3::vee_skew(F * Jd - Jd * F.transpose()) / h;
        const Vec3 closed = so3::cayley_momentum(J, c, h);
        CHECK((closed - matrix_form).norm() <= 1e-14 * J.norm() / h * (1.0 + c.norm()));
        // Its Jacobian against central differences of the closed form, and against the matrix
        // form's (rotational_momentum_jacobian, an independent derivation).
        const Mat3 D = so3::cayley_momentum_jacobian(J, c, h);
        const double eps = 1e-6;
        Mat3 Dfd;
        for (int k = 0; k < 3; ++k) {
          const Vec3 e = eps * Vec3::Unit(k);
          Dfd.col(k) = (so3::cayley_momentum(J, c + e, h) - so3::cayley_momentum(J, c - e, h)) / (2.0 * eps);
        }
        CHECK((D - Dfd).norm() <= 1e-7 * D.norm());
        CHECK((D - so3::rotational_momentum_jacobian(F, Jd, c, h)).norm() <= 1e-12 * D.norm());
        // The Newton correction solves D dc = -g to the accuracy of a backward-stable solve: the
        // residual against the explicit Jacobian, relative to |D| |dc| + |g|, at round-off.
        const Vec3 rhs = Vec3(0.3, -1.7, 0.9) * (J.norm() / h);
        Vec3 dc;
        REQUIRE(so3::cayley_momentum_correction(J, c, h, rhs, dc));
        const Vec3 lu = D.partialPivLu().solve(-rhs);
        INFO("D cond ~ " << D.norm() * D.inverse().norm());
        CHECK((D * dc + rhs).norm() <= 1e-13 * (D.norm() * dc.norm() + rhs.norm()) * D.norm() * D.inverse().norm());
        CHECK((dc - lu).norm() <= 1e-12 * D.norm() * D.inverse().norm() * lu.norm());
      }
    }
  }
}

TEST_CASE("cayley_momentum_correction: refuses a singular Jacobian instead of returning garbage", "[lie_group][so3][cayley]") {
  // J = 0 makes the Jacobian the zero matrix: no correction exists.
  Vec3 dc = Vec3::Constant(7.0);
  CHECK_FALSE(so3::cayley_momentum_correction(Mat3::Zero(), Vec3(0.1, 0.2, 0.3), 1e-3, Vec3(1.0, 0.0, 0.0), dc));
  // A non-finite right-hand side gives a non-finite correction, refused as well.
  CHECK_FALSE(so3::cayley_momentum_correction(Mat3::Identity(), Vec3(0.1, 0.2, 0.3), 1e-3,
                                              Vec3(std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0), dc));
}

TEST_CASE("increment forms equal their definitions: F - I, R F, F^T p - p, the S^2 rotation onto q + e", "[lie][roundoff]") {
  // The LGVI updates R, Pi and q_i by these increments (issue 23); each must be the same map as
  // the product it replaces, and the S^2 one must land on the direction of q + e with |q| = 1.
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const tb::Vec3 c(u(gen), u(gen), u(gen)), p(u(gen), u(gen), u(gen));
    const double scale = std::pow(10.0, -6.0 * (trial % 3));  // |c| ~ 1, 1e-6, 1e-12
    const tb::Vec3 cs = scale * c;
    const tb::Mat3 F = tb::so3::cayley(cs), R = tb::so3::exp(tb::Vec3(u(gen), u(gen), u(gen)));
    CHECK((tb::so3::cayley_minus_identity(cs) - (F - tb::Mat3::Identity())).cwiseAbs().maxCoeff() <= 1e-15);
    CHECK((tb::so3::times_cayley(R, cs) - R * F).cwiseAbs().maxCoeff() <= 1e-15);
    CHECK((p + tb::so3::cayley_transpose_increment(cs, p) - F.transpose() * p).cwiseAbs().maxCoeff() <= 1e-15);
    // The increment itself is exact relative to its own size (forming F first would lose it at |c| = 1e-12).
    const tb::Vec3 increment = tb::so3::cayley_transpose_increment(cs, p);
    const tb::Vec3 first_order = -2.0 * cs.cross(p);
    if (trial % 3 == 2) CHECK((increment - first_order).norm() <= 1e-10 * first_order.norm());

    // e up to 0.3 (a link turning by up to ~17 degrees in one step: far beyond any stable step),
    // down to 1e-12.
    const tb::Vec3 q = tb::Vec3(u(gen), u(gen), u(gen)).normalized(), e = 0.3 * scale * tb::Vec3(u(gen), u(gen), u(gen));
    const tb::Vec3 next = q + tb::s2::rotation_onto_increment(q, e);
    CHECK(std::abs(next.norm() - 1.0) <= 1e-15);
    INFO("trial " << trial << ": |e| = " << e.norm() << ", q.e = " << q.dot(e) << ", off by " << (next - (q + e).normalized()).norm());
    CHECK((next - (q + e).normalized()).norm() <= 1e-15);  // a few ulps of a unit vector
    // |c|-independent relative accuracy: the increment matches e's component normal to q to first order.
    if (trial % 3 == 2) {
      const tb::Vec3 normal = e - q.dot(e) * q;
      CHECK((tb::s2::rotation_onto_increment(q, e) - normal).norm() <= 1e-10 * normal.norm());
    }
  }
}
