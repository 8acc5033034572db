// Model B with elements that cannot push (issue 47: [model] cable = "tension_only"): every analytic
// derivative the reel pendulum offers, at strings whose elements alternate slack and taut, against
// central differences of what it differentiates, and the differences from the seeds' bilateral
// string that make these checks able to fail:
//  1. Mechanics: dV/dq and dV/ds against differences of V; the forces differ from the bilateral
//     string's by exactly the slack elements' (compressive) forces, V by their strain energy.
//  2. StringReelTangents: dh/d(q, s), dh/d(v, sdot) and the Carnot gradient (the guide way's element
//     taut, then slack: Q = 0 and no gradient).
//  3. The LGVI's discrete Lagrangian and forcing derivatives (both rules); L_d differs from the
//     bilateral one by exactly the slack elements' trapezoidal strain terms.
//  4. The index-1 DAE form's iteration matrix; 5. the Lie group ODE form's rate tangents M, K, C.
//  6. The cable key: a bad value is refused, naming it.  7. The energy balance of an LGVI run.
// Slack elements are 2-5 % shorter than l, taut ones 2-5 % longer: every difference step and step
// increment below moves an element's length by < 1e-3 l, so each stays on its side of the kink
// (the potential is C^1 there, not C^2). Set TB_DERIV_REPORT=1 to print the measured errors.
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "conformance/dae_checks.hpp"
#include "mechanics/body_shapes.hpp"
#include "models/reel_pendulum/discrete_lagrangian.hpp"
#include "models/reel_pendulum/forms.hpp"
#include "models/reel_pendulum/mechanics.hpp"
#include "models/reel_pendulum/model.hpp"
#include "models/reel_pendulum/string_reel_tangents.hpp"
#include "tests/case_variant.hpp"
#include "tests/finite_difference.hpp"
#include "tests/reel_support.hpp"
#include "tests/test_support.hpp"

using tb::Mat3;
using tb::Vec3;
namespace so3 = tb::so3;
namespace rp = tb::reel_pendulum;
using tb::testing::central_difference;
using tb::testing::family_error;
using tb::testing::node_gradient;
using tb::testing::rotation_gradient;
using tb::testing::Rng;
using Rule = rp::Parameters::Discretization;

namespace {

void report(const std::string& what, double value) {
  static const bool on = std::getenv("TB_DERIV_REPORT") != nullptr;
  if (on) std::printf("  %-84s %.3e\n", what.c_str(), value);
}

// SPEC "Model B" parameters (seed 002 §4) with N elements, case 3's moment, tension-only.
rp::Parameters cable_parameters(int N, bool locked = false, Rule rule = Rule::Midpoint) {
  rp::Parameters p = tb::testing::spec_reel_parameters(N, locked, 2.09);
  p.discretization = rule;
  p.tension_only = true;
  return p;
}

rp::Parameters bilateral(rp::Parameters p) {
  p.tension_only = false;
  return p;
}

constexpr double kS = 90.0;  // s_p: 10 m deployed

// A bent string hanging from the guide way whose elements alternate slack (strain -2 .. -5 %)
// and taut (+2 .. +5 %), element 1 (the guide way's) slack if guide_slack.
std::vector<Vec3> mixed_nodes(const rp::Parameters& p, double s, bool guide_slack, Rng& rng) {
  const double l = (p.L - s) / p.N;
  std::vector<Vec3> q(p.N + 1, Vec3::Zero());
  for (int a = 1; a <= p.N; ++a) {
    const bool slack = (a % 2 == 1) == guide_slack;
    const double strain = (slack ? -1.0 : 1.0) * rng.uniform(0.02, 0.05);
    q[a] = q[a - 1] + l * (1.0 + strain) * (Vec3(0.3, 0.2, 0.9) + rng.vec(0.3)).normalized();
  }
  return q;
}

bool is_slack(const rp::Parameters& p, double s, const std::vector<Vec3>& q, int a) {
  return (q[a] - q[a - 1]).norm() < (p.L - s) / p.N;
}

// The same string, moving: node velocities, the reel turning, the body spinning.
rp::State mixed_state(const rp::Parameters& p, bool guide_slack, unsigned seed) {
  Rng rng(seed);
  rp::State s;
  s.s = kS;
  s.sdot = p.reel_locked ? 0.0 : rng.signed_magnitude(1.5);
  s.q = mixed_nodes(p, s.s, guide_slack, rng);
  s.v.assign(p.N + 1, Vec3::Zero());
  for (int a = 1; a <= p.N; ++a) s.v[a] = rng.vec(1.0);
  s.R = so3::exp(rng.vec(1.5));
  s.Omega = rng.vec(2.0);
  return s;
}

Eigen::MatrixXd dense(const std::vector<Eigen::Triplet<double>>& e, int rows, int cols) {
  Eigen::SparseMatrix<double> S(rows, cols);
  S.setFromTriplets(e.begin(), e.end());
  return Eigen::MatrixXd(S);
}

// max over rows of max |J - J_fd| / max |J row| (a zero row compared absolutely): the measure of
// tests/test_reel_string_tangents.cpp, whose bounds the tangents are held to here.
double row_error(const Eigen::MatrixXd& J, const Eigen::MatrixXd& Jfd) {
  double worst = 0.0;
  for (int i = 0; i < J.rows(); ++i) {
    const double scale = std::max(J.row(i).cwiseAbs().maxCoeff(), Jfd.row(i).cwiseAbs().maxCoeff());
    const double err = (J.row(i) - Jfd.row(i)).cwiseAbs().maxCoeff();
    worst = std::max(worst, scale > 0.0 ? err / scale : err);
  }
  return worst;
}

// Central differences of F(state) in the string-and-reel coordinates (q_j, s) or (v_j, sdot).
Eigen::MatrixXd string_reel_differences(const rp::Parameters& p, const rp::State& s0, bool velocities,
                                        const std::function<Eigen::VectorXd(const rp::State&)>& F) {
  const int N = p.N, n = 3 * N + (p.reel_locked ? 0 : 1);
  Eigen::MatrixXd J(n, n);
  for (int c = 0; c < n; ++c) {
    auto nudge = [&](rp::State& s, double d) {
      if (c < 3 * N)
        (velocities ? s.v : s.q)[c / 3 + 1](c % 3) += d;
      else
        (velocities ? s.sdot : s.s) += d;
    };
    // h is quadratic in the velocities (a large step is exact up to round-off); positions 1e-6 m.
    const double e = velocities ? 1e-2 : 1e-6;
    rp::State plus = s0, minus = s0;
    nudge(plus, e);
    nudge(minus, -e);
    J.col(c) = (F(plus) - F(minus)).head(n) / (2.0 * e);
  }
  return J;
}

}  // namespace

TEST_CASE("reel pendulum, tension-only elements: forces and dV/ds are V's gradient and differ from the bilateral "
          "string's by the slack elements' pushes",
          "[reel_pendulum][derivatives][tension-only]") {
  for (bool guide_slack : {true, false}) {
    const rp::Parameters p = cable_parameters(6);
    const rp::Mechanics mech(p), seed(bilateral(p));
    const rp::State s = mixed_state(p, guide_slack, 31u + (guide_slack ? 1u : 0u));
    const double l = mech.element_length(s.s);
    INFO((guide_slack ? "the guide way's element slack" : "the guide way's element taut"));
    int slack = 0;
    for (int a = 1; a <= p.N; ++a) slack += is_slack(p, s.s, s.q, a) ? 1 : 0;
    REQUIRE(slack == 3);
    REQUIRE(is_slack(p, s.s, s.q, 1) == guide_slack);

    // V's gradient against central differences of V (step 1e-6 m; V is smooth on each side).
    std::vector<Vec3> dV_dq;
    const double dV_ds = mech.potential_gradient(s.s, s.q, dV_dq);
    auto V = [&](const rp::State& st) { return mech.potential_energy(st); };
    double err = 0.0, scale = 0.0;
    for (int a = 1; a <= p.N; ++a)
      for (int i = 0; i < 3; ++i) {
        const double fd = central_difference(s, 1e-6, V, [&](rp::State& st, double d) { st.q[a](i) += d; });
        err = std::max(err, std::abs(fd - dV_dq[a](i)));
        scale = std::max(scale, std::abs(dV_dq[a](i)));
      }
    const double fd_s = central_difference(s, 1e-6, V, [](rp::State& st, double d) { st.s += d; });
    report("dV/dq against differences of V, relative", err / scale);
    report("dV/ds against differences of V, relative", std::abs(fd_s - dV_ds) / std::abs(dV_ds));
    CHECK(err / scale < 1e-7);
    CHECK(std::abs(fd_s - dV_ds) < 1e-7 * std::abs(dV_ds));

    // The bilateral string pushes along every slack element with EA (|x| - l)/(l |x|) x: its
    // right-hand sides differ from the cable's by exactly those forces, V by their strain energy.
    Eigen::VectorXd h_cable, h_seed;
    mech.string_reel_forces(s, h_cable);
    seed.string_reel_forces(s, h_seed);
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(3 * p.N);
    double pushes = 0.0, slack_energy = 0.0;
    for (int a = 1; a <= p.N; ++a) {
      if (!is_slack(p, s.s, s.q, a)) continue;
      const Vec3 x = s.q[a] - s.q[a - 1];
      const Vec3 F = p.EA / l * (x.norm() - l) / x.norm() * x;  // the seed's tension (42), compressive here
      if (a >= 2) expected.segment<3>(3 * (a - 2)) += F;      // -dV/dq_a = ... + F_a
      expected.segment<3>(3 * (a - 1)) -= F;
      pushes = std::max(pushes, F.norm());
      slack_energy += 0.5 * p.EA / l * std::pow(x.norm() - l, 2);
    }
    const Eigen::VectorXd diff = (h_seed - h_cable).head(3 * p.N);
    report("node forces: |(bilateral - cable) - slack pushes| / max push", (diff - expected).lpNorm<Eigen::Infinity>() / pushes);
    CHECK(pushes > 0.02 * p.EA * 0.99);  // each slack element would push with EA |strain| >= EA 2 %
    CHECK((diff - expected).lpNorm<Eigen::Infinity>() < 1e-12 * pushes);
    CHECK(seed.potential_energy(s) - mech.potential_energy(s) == Approx(slack_energy).epsilon(1e-10));
    // The Carnot loss: the bilateral string's is never 0 here; the cable's is 0 exactly while slack.
    CHECK(seed.carnot_force(s) < 0.0);
    if (guide_slack) {
      CHECK(mech.carnot_force(s) == 0.0);
      CHECK(mech.guide_way_strain(s) == 0.0);
    } else {
      CHECK(mech.carnot_force(s) == seed.carnot_force(s));
    }
  }
}

TEST_CASE("reel pendulum, tension-only elements: string-and-reel tangents and the Carnot gradient with slack and taut "
          "elements against central differences",
          "[reel_pendulum][derivatives][tangents][tension-only]") {
  for (bool locked : {false, true})
    for (int N : {2, 5, 20})
      for (bool guide_slack : {true, false}) {
        const rp::Parameters p = cable_parameters(N, locked);
        const rp::Mechanics mech(p);
        const rp::StringReelTangents tangents(mech);
        const rp::State s = mixed_state(p, guide_slack, 4711u + 13u * unsigned(N) + (locked ? 1u : 0u));
        const int n = tangents.size();
        const std::string where = std::string(locked ? "locked" : "free") + ", N = " + std::to_string(N) +
                                  (guide_slack ? ", guide way slack" : ", guide way taut");
        INFO(where);
        auto h = [&](const rp::State& st) {
          Eigen::VectorXd out;
          mech.string_reel_forces(st, out);
          return out;
        };
        std::vector<Eigen::Triplet<double>> dh_dx, dh_dv;
        tangents.force_jacobian(s, dh_dx, dh_dv);
        const double ex = row_error(dense(dh_dx, n, n), string_reel_differences(p, s, false, h));
        const double ev = row_error(dense(dh_dv, n, n), string_reel_differences(p, s, true, h));
        report("dh/d(q, s), " + where, ex);
        report("dh/d(v, sdot), " + where, ev);
        CHECK(ex < 1e-6);  // the bilateral test's bounds (tests/test_reel_string_tangents.cpp)
        CHECK(ev < 1e-7);
        // A slack element's stiffness is gone: with the bilateral string's it would not be.
        std::vector<Eigen::Triplet<double>> seed_dx, seed_dv;
        const rp::Mechanics seed(bilateral(p));
        rp::StringReelTangents(seed).force_jacobian(s, seed_dx, seed_dv);
        CHECK((dense(seed_dx, n, n) - dense(dh_dx, n, n)).cwiseAbs().maxCoeff() > 0.1 * p.EA / mech.element_length(s.s));

        if (locked) continue;
        const rp::CarnotGradient g = tangents.carnot_gradient(s);
        auto Q = [&](const rp::State& st) { return mech.carnot_force(st); };
        const double e = 1e-6;
        const double fd_s = central_difference(s, e, Q, [](rp::State& st, double d) { st.s += d; });
        const double fd_sdot = central_difference(s, e, Q, [](rp::State& st, double d) { st.sdot += d; });
        Vec3 fd_q2;
        for (int i = 0; i < 3; ++i) fd_q2(i) = central_difference(s, e, Q, [i](rp::State& st, double d) { st.q[1](i) += d; });
        if (guide_slack) {  // Q = 0 on the slack side: its differences and gradient are exactly 0
          CHECK(g.ds == 0.0);
          CHECK(g.dsdot == 0.0);
          CHECK(g.dq2.norm() == 0.0);
          CHECK(fd_s == 0.0);
          CHECK(fd_sdot == 0.0);
          CHECK(fd_q2.norm() == 0.0);
        } else {
          const double scale = std::abs(g.ds) + g.dq2.norm() + std::abs(g.dsdot);
          const double err = std::max({std::abs(fd_s - g.ds), std::abs(fd_sdot - g.dsdot), (fd_q2 - g.dq2).cwiseAbs().maxCoeff()});
          report("Carnot gradient, " + where, err / scale);
          CHECK(scale > 0.0);
          CHECK(err / scale < 1e-7);
        }
      }
}

namespace {

struct StepConfig {
  double s, ds;
  std::vector<Vec3> q, dq;
  Mat3 R, F;
  double h;
  rp::StepConfiguration step() const { return rp::StepConfiguration{s, ds, q, dq, R, F, h}; }
};

// A step near a real one (seed 002's h = 5e-4 order): increments 1e-3 m, ds 1e-3 m, |c| 1e-2.
StepConfig mixed_step(const rp::Parameters& p, bool guide_slack, unsigned seed) {
  Rng rng(seed);
  StepConfig c;
  c.s = kS;
  c.ds = rng.signed_magnitude(1e-3);
  c.q = mixed_nodes(p, c.s, guide_slack, rng);
  c.dq.assign(p.N + 1, Vec3::Zero());
  for (int a = 1; a <= p.N; ++a) c.dq[a] = rng.vec(1e-3);
  c.R = so3::exp(rng.vec(1.5));
  c.F = so3::cayley(rng.vec_with_norm(1e-2));
  c.h = 1e-3;
  return c;
}

}  // namespace

TEST_CASE("reel pendulum, tension-only elements: discrete Lagrangian and forcing derivatives with slack and taut "
          "elements against central differences",
          "[reel_pendulum][derivatives][lgvi][tension-only]") {
  // Step 1e-6 and the bounds of the bilateral test (tests/test_reel_pendulum_derivatives.cpp).
  const double step = 1e-6, tol = 1e-7;
  for (int N : {5, 20})
    for (Rule rule : {Rule::Midpoint, Rule::Paper})
      for (bool guide_slack : {true, false}) {
        const rp::Parameters p = cable_parameters(N, false, rule);
        const rp::Mechanics mech(p), seed(bilateral(p));
        const StepConfig c0 = mixed_step(p, guide_slack, 2024u + unsigned(N) + (guide_slack ? 7u : 0u));
        const std::string where = "N = " + std::to_string(N) + (rule == Rule::Midpoint ? ", Midpoint" : ", Paper") +
                                  (guide_slack ? ", guide way slack" : ", guide way taut");
        INFO(where);
        // Each element on the same side of the kink at k and k+1, and at least 1e-3 l from it.
        std::vector<Vec3> q_next(N + 1);
        for (int a = 0; a <= N; ++a) q_next[a] = c0.q[a] + c0.dq[a];
        double slack_terms = 0.0;
        int slack = 0;
        for (int a = 1; a <= N; ++a) {
          const double l0 = mech.element_length(c0.s), l1 = mech.element_length(c0.s + c0.ds);
          const double now = (c0.q[a] - c0.q[a - 1]).norm(), next = (q_next[a] - q_next[a - 1]).norm();
          REQUIRE((now < l0) == (next < l1));
          REQUIRE(std::abs(now - l0) > 1e-2 * l0);
          slack += now < l0 ? 1 : 0;
          if (now < l0) slack_terms += 0.5 * p.EA / l0 * std::pow(now - l0, 2) + 0.5 * p.EA / l1 * std::pow(next - l1, 2);
        }
        REQUIRE(slack == N / 2 + (guide_slack ? N % 2 : 0));

        rp::DiscreteLagrangianDerivatives D;
        rp::discrete_lagrangian_derivatives(mech, c0.step(), D);
        const auto L = [&](const StepConfig& c) { return rp::discrete_lagrangian(mech, c.step()); };
        const double e_dq = family_error(node_gradient(c0, &StepConfig::dq, step, L), D.d_dq);
        const double e_q = family_error(node_gradient(c0, &StepConfig::q, step, L), D.d_q);
        const double e_ds =
            std::abs(central_difference(c0, step, L, [](StepConfig& c, double d) { c.ds += d; }) - D.d_ds) / std::abs(D.d_ds);
        const double e_s =
            std::abs(central_difference(c0, step, L, [](StepConfig& c, double d) { c.s += d; }) - D.d_s) / std::abs(D.d_s);
        const double e_F = (rotation_gradient(c0, &StepConfig::F, step, L) - D.d_F).norm() / D.d_F.norm();
        const double e_R = (rotation_gradient(c0, &StepConfig::R, step, L) - D.d_R).norm() / D.d_R.norm();
        report("L_d " + where + ": d_dq", e_dq);
        report("L_d " + where + ": d_q", e_q);
        report("L_d " + where + ": d_ds", e_ds);
        report("L_d " + where + ": d_s", e_s);
        CHECK(e_dq < tol);
        CHECK(e_q < tol);
        CHECK(e_ds < 1e-9);
        CHECK(e_s < tol);
        CHECK(e_F < tol);
        CHECK(e_R < tol);
        // L_d = h T - h/2 (V_k + V_{k+1}): the bilateral one less the slack elements' strain terms.
        CHECK(rp::discrete_lagrangian(seed, c0.step()) + 0.5 * c0.h * slack_terms ==
              Approx(L(c0)).epsilon(1e-13));

        // The forcing: its Carnot part's derivatives against differences (as the bilateral test).
        const rp::DiscreteForcing f0 = rp::discrete_forcing(mech, c0.step());
        const auto Q = [&](const StepConfig& c) { return rp::discrete_forcing(mech, c.step()).carnot; };
        const double fd_ds = central_difference(c0, step, Q, [](StepConfig& c, double d) { c.ds += d; });
        Vec3 fd_dq2;
        for (int i = 0; i < 3; ++i) fd_dq2(i) = central_difference(c0, step, Q, [&](StepConfig& c, double d) { c.dq[1](i) += d; });
        if (guide_slack) {  // no Carnot term while the guide way's element is slack
          CHECK(f0.carnot == 0.0);
          CHECK(f0.d_ds == 0.0);
          CHECK(f0.d_dq2.norm() == 0.0);
          CHECK(fd_ds == 0.0);
          CHECK(fd_dq2.norm() == 0.0);
          CHECK(rp::discrete_forcing(seed, c0.step()).carnot < 0.0);
        } else {
          const double l = mech.element_length(c0.s);
          const double e_f_ds = std::abs(fd_ds - f0.d_ds) / std::abs(f0.d_ds);
          const double e_f_dq2 = (fd_dq2 - f0.d_dq2).norm() / std::max(f0.d_dq2.norm(), std::abs(f0.d_ds) * l);
          report("forcing " + where + ": d_ds", e_f_ds);
          report("forcing " + where + ": d_dq2", e_f_dq2);
          CHECK(f0.carnot < 0.0);
          CHECK(e_f_ds < tol);
          CHECK(e_f_dq2 < tol);
        }
        CHECK(std::abs(f0.f - f0.carnot - c0.h * p.u / p.d) <= 1e-15 * std::abs(f0.f));
      }
}

TEST_CASE("reel pendulum, tension-only elements: the DAE form's iteration matrix with slack and taut elements against "
          "central differences",
          "[reel_pendulum][dae][tension-only]") {
  for (bool locked : {false, true})
    for (int N : {2, 5}) {
      const rp::Parameters p = cable_parameters(N, locked);
      rp::InitialCondition ic;
      ic.s0 = kS;
      rp::DaeForm form(p, ic);
      // The DAE state: a mixed string and its velocities, the body near the end node (off the
      // constraint by 1e-3, R slightly off SO(3)), the reel turning; y' anything.
      const rp::State st = mixed_state(p, N % 2 == 0, 99u + unsigned(N) + (locked ? 3u : 0u));
      Rng rng(5u + unsigned(N));
      Eigen::VectorXd y = Eigen::VectorXd::Zero(form.state_size()), yp(form.state_size());
      for (int i = 0; i < yp.size(); ++i) yp(i) = rng.uniform(-1.0, 1.0);
      for (int j = 2; j <= N + 1; ++j) {
        y.segment<3>(form.node_offset(j)) = st.q[j - 1];
        y.segment<3>(form.node_offset(j) + 3) = st.v[j - 1];
      }
      const int B = form.body_offset();
      const Mat3 R = st.R + 1e-3 * Mat3::Random();
      y.segment<3>(B) = st.q[N] + R * p.rho_c + rng.vec(1e-3);
      y.segment<3>(B + 3) = rng.vec(0.5);
      y.segment<3>(B + 6) = rng.vec(2.0);
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) y(B + 9 + 3 * i + k) = R(i, k);
      y.segment<3>(B + 18) = st.Omega;
      if (form.free_reel()) {
        const int E = form.reel_offset();
        y(E) = st.s;
        y(E + 1) = st.sdot;
        y(E + 2) = -0.3;
        y(E + 3) = 1.1;
      }
      for (const tb::BaumgarteParameters b : {tb::BaumgarteParameters{0.0, 0.0}, tb::BaumgarteParameters{20.0, 5.0}})
        for (double cj : {0.0, 3.7e2, 1e5}) {
          const double err = tb::conformance::dae_jacobian_row_relative_error(
              tb::conformance::dae_jacobian_dense(form, 0.2, y, yp, cj, b), tb::conformance::dae_jacobian_fd(form, 0.2, y, yp, cj, b));
          const std::string where = std::string(locked ? "locked" : "free") + ", N = " + std::to_string(N) +
                                    ", p = " + std::to_string(b.p) + ", cj = " + std::to_string(cj);
          report("DAE iteration matrix, " + where, err);
          INFO(where);
          CHECK(err < 1e-6);  // the bilateral test's bound (tests/test_reel_pendulum_dae.cpp)
        }
    }
}

TEST_CASE("reel pendulum, tension-only elements: the Lie group ODE form's rate tangents with slack and taut elements "
          "against central differences, entry by entry",
          "[reel_pendulum][lie_generalized_alpha][derivatives][tension-only]") {
  // As tests/test_reel_pendulum_lie_generalized_alpha.cpp judges the bilateral string's: each
  // entry within 1e-6 of itself plus ten times the differences' round-off floor eps S_i / e.
  for (bool locked : {false, true}) {
    rp::Parameters p = cable_parameters(6, locked);
    rp::InitialCondition ic;
    ic.s0 = kS;
    auto model = rp::make_model(p, ic);
    std::string why;
    auto f = model->make_formulation(tb::FormulationKind::LieGroupOde, model->default_discretisation(), why);
    REQUIRE(f);
    const auto& form = dynamic_cast<const tb::LieGroupOdeFormulation&>(*f);
    REQUIRE(form.why_not_tangents().empty());
    const tb::lie::HomogeneousProduct& mf = form.manifold();
    const int N = p.N, k = int(mf.group_size() + mf.position_size());
    // Physical layout [s, sdot, q_2..q_{N+1}, v_2..v_{N+1}, R, Omega, works] (Mechanics::pack).
    const rp::Mechanics mech(p);
    const rp::State st = mixed_state(p, true, locked ? 8u : 9u);
    Eigen::VectorXd y = mech.pack(st);
    std::vector<Eigen::Index> rate;
    for (const auto& fac : mf.rotations())
      for (int i = 0; i < 3; ++i) rate.push_back(fac.rate + i);
    for (const auto& fac : mf.positions())
      for (Eigen::Index i = 0; i < fac.size; ++i) rate.push_back(fac.rate + i);
    const Eigen::VectorXd w = Eigen::VectorXd::LinSpaced(k, -2.0, 3.0);  // a vdot off the solution
    std::vector<Eigen::Triplet<double>> Me, Ke, Ce;
    form.rate_tangent_entries(0.0, y, w, Me, Ke, Ce);
    const Eigen::MatrixXd M = dense(Me, k, k), K = dense(Ke, k, k), C = dense(Ce, k, k);
    Eigen::MatrixXd Mfd(k, k), Kfd(k, k), Cfd(k, k);
    Eigen::VectorXd rp_, rm, S, yp, ym, u = Eigen::VectorXd::Zero(mf.algebra_size());
    const double e = 1e-5;
    for (int j = 0; j < k; ++j) {
      Eigen::VectorXd wp = w, wm = w;
      wp(j) += e, wm(j) -= e;
      form.rate_residual(0.0, y, wp, rp_, S);
      form.rate_residual(0.0, y, wm, rm, S);
      Mfd.col(j) = (rp_ - rm) / (2 * e);
      u.setZero();
      u(j) = e;
      mf.act(u, y, yp);
      u(j) = -e;
      mf.act(u, y, ym);
      form.rate_residual(0.0, yp, w, rp_, S);
      form.rate_residual(0.0, ym, w, rm, S);
      Kfd.col(j) = (rp_ - rm) / (2 * e);
      yp = y, ym = y;
      yp(rate[size_t(j)]) += e, ym(rate[size_t(j)]) -= e;
      form.rate_residual(0.0, yp, w, rp_, S);
      form.rate_residual(0.0, ym, w, rm, S);
      Cfd.col(j) = (rp_ - rm) / (2 * e);
    }
    form.rate_residual(0.0, y, w, rp_, S);
    auto budget = [&](const Eigen::MatrixXd& fd, const Eigen::MatrixXd& an) {
      double ratio = 0.0;
      for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) {
          const double floor = 2.2e-16 * S(i) / e;
          ratio = std::max(ratio, std::abs(fd(i, j) - an(i, j)) / (1e-6 * std::abs(an(i, j)) + 10.0 * floor));
        }
      return ratio;
    };
    const double bM = budget(Mfd, M), bK = budget(Kfd, K), bC = budget(Cfd, C);
    report(std::string(locked ? "locked" : "free") + ": rate tangents, error budget used M", bM);
    report(std::string(locked ? "locked" : "free") + ": rate tangents, error budget used K", bK);
    report(std::string(locked ? "locked" : "free") + ": rate tangents, error budget used C", bC);
    INFO((locked ? "locked" : "free"));
    CHECK(bM < 1.0);
    CHECK(bK < 1.0);
    CHECK(bC < 1.0);
  }
}

TEST_CASE("reel pendulum: the cable key takes bilateral or tension_only and refuses anything else, naming it",
          "[reel_pendulum][input][tension-only]") {
  const std::string message = tb::testing::input_error_of_variant(
      TETHERBENCH_CASES_DIR "/B_reel_retrieval.toml", "gravity = 9.81", "gravity = 9.81\ncable = \"slack\"");
  CHECK(message.find("model.cable") != std::string::npos);
  CHECK(message.find("tension_only") != std::string::npos);
  CHECK(message.find("slack") != std::string::npos);
}

namespace {

// The bundled retrieval case (seed 002 case 3) with its string tension-only: the case file's text
// with the key added, loaded as a user's file would be.
tb::Case tension_only_retrieval() {
  namespace fs = std::filesystem;
  std::ifstream in(TETHERBENCH_CASES_DIR "/B_reel_retrieval.toml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find("gravity = 9.81");
  REQUIRE(at != std::string::npos);
  text.insert(at, "cable = \"tension_only\"\n");
  const fs::path file = fs::temp_directory_path() / ("tb_reel_tension_only_" + std::to_string(std::random_device()()) + ".toml");
  std::ofstream(file) << text;
  tb::Case c = tb::testing::load_case(file.string());
  fs::remove(file);
  return c;
}

struct BalanceRun {
  double balance_err = 0.0;  // max |E - E0 - W| over the run (J)
  double max_ke = 0.0;
  int samples_with_slack = 0, samples_guide_slack = 0, samples = 0;
  Eigen::VectorXd final_state;
};

// One run of c by the integrator `name` (the case's settings, step h) over [0, T], observed at the
// case's samples: the energy balance E - W (Mechanics::observe's energy_balance column) and the
// elements shorter than l.
BalanceRun balance_run(const tb::Case& c, const std::string& name, double T, double h) {
  const tb::IntegratorInfo& method = tb::testing::integrator(name);
  auto form = tb::testing::formulation_for(*c.model, method);
  const int N = 20;
  const double L = 100.0;
  BalanceRun out;
  double first = 0.0;
  auto observer = [&](double t, const Eigen::VectorXd& y) {
    const tb::Observation o = form->observe(t, y);
    if (out.samples == 0) first = o.extra[7];
    out.balance_err = std::max(out.balance_err, std::abs(o.extra[7] - first));
    out.max_ke = std::max(out.max_ke, o.kinetic);
    // Physical layout [s, sdot, q_2..q_{N+1}, ...] (Mechanics::pack).
    const Eigen::VectorXd x = form->physical_state(y);
    const double l = (L - x(0)) / N;
    int slack = 0;
    for (int a = 1; a <= N; ++a) {
      const Vec3 qa = a == 1 ? Vec3::Zero() : Vec3(x.segment<3>(2 + 3 * (a - 2))), qb = x.segment<3>(2 + 3 * (a - 1));
      slack += (qb - qa).norm() < l ? 1 : 0;
      if (a == 1 && (qb - qa).norm() < l) ++out.samples_guide_slack;
    }
    out.samples_with_slack += slack > 0 ? 1 : 0;
    ++out.samples;
    out.final_state = x;
  };
  tb::IntegratorSettings s = c.settings_for(name);
  s.h = h;
  const tb::IntegrationOutcome done = tb::integrate(*form, method, s, T, c.sample_interval, observer);
  REQUIRE(done.ok());
  return out;
}

}  // namespace

TEST_CASE("reel pendulum, tension-only elements: the LGVI keeps the retrieval's energy balance at the bilateral "
          "string's level while elements go slack",
          "[reel_pendulum][energy][tension-only]") {
  // Seed 002 case 3 (T = 10 s), both strings, under lgvi at the case's h and h/2, and the cable's
  // under tight rk45. Every form integrates the work of the same Q(s, q_2, sdot) that acts on s
  // (Mechanics::carnot_force; the LGVI's discrete work f ds/h is the quadrature its forcing applies),
  // so E - E0 - W of the semi-discrete system is invariant whatever Q does while the guide way's
  // element is slack: rk45 at rtol 1e-10 must hold it near its tolerance (measured 1.7e-9 J, the
  // seed's string 8.3e-11 J with half the steps: the kinks cost the error control steps).
  // The LGVI's error: on a smooth potential it is an O(h^2) oscillation without drift (the discrete
  // flow conserves a modified energy H + h^2 H_2 + ...); the cable's potential is C^1, not C^2, and
  // H_2 carries V'', which jumps by kappa at the kink, so each step across it leaves a step of
  // O(h^2 kappa v^2) and either sign in E - E0 - W. Measured (h = 5e-4, 421 of 2001 samples with a
  // slack element, 28 with the guide way's): 4.44e-4 J against the seed's 2.71e-4 J (x1.6), and at
  // h/2 2.07e-4 J against 6.24e-5 J: the cable's error halves (x2.1), the seed's quarters (x4.3) -
  // the crossings' steps, not a drift, are what it adds. Bounds: x3 the seed's at h, 1e-4 of the
  // max kinetic energy (measured 5.4e-5), at least x1/0.6 smaller at h/2.
  const tb::Case seed = tb::testing::load_case(TETHERBENCH_CASES_DIR "/B_reel_retrieval.toml");
  const tb::Case cable = tension_only_retrieval();
  const double T = seed.t_end, h = seed.h;
  const BalanceRun s1 = balance_run(seed, "lgvi", T, h), c1 = balance_run(cable, "lgvi", T, h);
  const BalanceRun s2 = balance_run(seed, "lgvi", T, h / 2), c2 = balance_run(cable, "lgvi", T, h / 2);
  const BalanceRun tight = balance_run(cable, "rk45", T, h);
  std::printf("retrieval, T = %.0f s, lgvi: max|E - E0 - W| bilateral %.3e J (h) %.3e J (h/2), tension-only %.3e J (h) "
              "%.3e J (h/2), max KE %.3f J; tension-only samples with a slack element %d of %d, the guide way's %d; "
              "rk45 (tension-only) %.3e J\n",
              T, s1.balance_err, s2.balance_err, c1.balance_err, c2.balance_err, c1.max_ke, c1.samples_with_slack,
              c1.samples, c1.samples_guide_slack, tight.balance_err);
  // The cable's string did go slack, the guide way's element too, and the motion is not the seed's.
  CHECK(c1.samples_with_slack > c1.samples / 10);
  CHECK(c1.samples_guide_slack > 0);
  CHECK((c1.final_state.head(2 + 60) - s1.final_state.head(2 + 60)).norm() > 1e-3);
  CHECK(tight.balance_err < 1e-8);
  CHECK(c1.balance_err < 3.0 * s1.balance_err);
  CHECK(c1.balance_err < 1e-4 * c1.max_ke);
  CHECK(c2.balance_err < 0.6 * c1.balance_err);
}
