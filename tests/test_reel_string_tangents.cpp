// Model B (SPEC "Model B", seeds 001/002): the shared string-and-reel tangents
// (models/reel_pendulum/string_reel_tangents.hpp) against central differences of what they
// differentiate: d(A(s, q) z)/d(q, s) of Mechanics::assemble_string_reel_mass_matrix times a fixed
// z, and dh/d(q, s), dh/d(v, sdot) of Mechanics::string_reel_forces, at random stretched, bent,
// moving strings (reel free and locked, N = 1, 2, 5, 20), and the Carnot gradient of
// Mechanics::carnot_force. Set TB_DERIV_REPORT=1 to print the measured errors.
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "mechanics/body_shapes.hpp"
#include "models/reel_pendulum/mechanics.hpp"
#include "models/reel_pendulum/string_reel_tangents.hpp"
#include "tests/finite_difference.hpp"
#include "tests/reel_support.hpp"

using tb::Mat3;
using tb::Vec3;
namespace rp = tb::reel_pendulum;
using tb::testing::Rng;

namespace {

void report(const std::string& what, double value) {
  static const bool on = std::getenv("TB_DERIV_REPORT") != nullptr;
  if (on) std::printf("  %-84s %.3e\n", what.c_str(), value);
}

rp::Parameters parameters(int N, bool locked) { return tb::testing::spec_reel_parameters(N, locked, 2.09); }  // SPEC "Model B"

// A stretched (strain 2-20 %), bent string with random node velocities and reel rate.
rp::State random_state(const rp::Parameters& p, unsigned seed) {
  Rng rng(seed);
  rp::State s;
  s.s = p.L - p.N * rng.uniform(0.3, 1.5);
  s.sdot = p.reel_locked ? 0.0 : rng.signed_magnitude(1.5);
  const double l = (p.L - s.s) / p.N;
  s.q.assign(p.N + 1, Vec3::Zero());
  s.v.assign(p.N + 1, Vec3::Zero());
  for (int a = 1; a <= p.N; ++a) {
    const Vec3 dir = (Vec3(0.3, 0.2, 0.9) + rng.vec(0.5)).normalized();
    s.q[a] = s.q[a - 1] + l * (1.0 + rng.uniform(0.02, 0.2)) * dir;
    s.v[a] = rng.vec(1.0);
  }
  return s;
}

Eigen::MatrixXd dense(const std::vector<Eigen::Triplet<double>>& e, int n) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);
  for (const auto& t : e) J(t.row(), t.col()) += t.value();
  return J;
}

// Central differences of F(state) in the string-and-reel coordinates: the positions (q_j, s)
// or the velocities (v_j, sdot).
Eigen::MatrixXd central_differences(const rp::Parameters& p, const rp::State& s0, bool velocities,
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
    // h is quadratic in (v, sdot), so a central difference in them is exact up to round-off and
    // takes a large step; positions: 1e-6 of their size.
    const double e = velocities ? 1e-2 : 1e-6 * (c < 3 * N ? 1.0 : s0.s);
    rp::State plus = s0, minus = s0;
    nudge(plus, e);
    nudge(minus, -e);
    J.col(c) = (F(plus) - F(minus)).head(n) / (2.0 * e);
  }
  return J;
}

// max over rows of max |J - J_fd| / max |J row| (rows of zeros compared absolutely).
double row_relative_error(const Eigen::MatrixXd& J, const Eigen::MatrixXd& Jfd) {
  double worst = 0.0;
  for (int i = 0; i < J.rows(); ++i) {
    const double scale = std::max(J.row(i).cwiseAbs().maxCoeff(), Jfd.row(i).cwiseAbs().maxCoeff());
    const double err = (J.row(i) - Jfd.row(i)).cwiseAbs().maxCoeff();
    worst = std::max(worst, scale > 0.0 ? err / scale : err);
  }
  return worst;
}

}  // namespace

TEST_CASE("reel pendulum: string-and-reel tangents match central differences of A(s, q) z and h",
          "[reel_pendulum][derivatives][tangents]") {
  double worst_mass = 0.0, worst_x = 0.0, worst_v = 0.0;
  for (bool locked : {false, true}) {
    for (int N : {1, 2, 5, 20}) {
      const rp::Parameters p = parameters(N, locked);
      const rp::Mechanics mech(p);
      const rp::StringReelTangents tangents(mech);
      const rp::State s = random_state(p, 4711u + 13u * unsigned(N) + (locked ? 1u : 0u));
      const int n = tangents.size();
      REQUIRE(n == 3 * N + (locked ? 0 : 1));
      const std::string where = std::string(locked ? "locked" : "free") + ", N = " + std::to_string(N);
      INFO(where);

      // d(A z)/d(q, s) at a fixed random z.
      Rng rng(99u + unsigned(N));
      Eigen::VectorXd z(3 * N + 1);
      for (int i = 0; i < z.size(); ++i) z(i) = rng.uniform(-3.0, 3.0);
      if (locked) z(3 * N) = 0.0;
      auto Az = [&](const rp::State& st) {
        tb::BorderedBlockTridiagonal3 A;
        mech.assemble_string_reel_mass_matrix(st, A);
        return Eigen::VectorXd(A.multiply(z));
      };
      std::vector<Eigen::Triplet<double>> dAz, dh_dx, dh_dv;
      tangents.mass_times_jacobian(s, z, dAz);
      const Eigen::MatrixXd fd_mass = central_differences(p, s, false, Az);
      const Eigen::MatrixXd an_mass = dense(dAz, n);
      if (locked) {
        CHECK(dAz.empty());
        CHECK(fd_mass.cwiseAbs().maxCoeff() == 0.0);  // A constant: nothing to differentiate
      } else {
        const double e = row_relative_error(an_mass, fd_mass);
        report("d(A z)/d(q, s), " + where, e);
        worst_mass = std::max(worst_mass, e);
        CHECK(e < 1e-7);
      }

      // dh/d(q, s) and dh/d(v, sdot).
      auto h = [&](const rp::State& st) {
        Eigen::VectorXd out;
        mech.string_reel_forces(st, out);
        return out;
      };
      tangents.force_jacobian(s, dh_dx, dh_dv);
      const double ex = row_relative_error(dense(dh_dx, n), central_differences(p, s, false, h));
      const double ev = row_relative_error(dense(dh_dv, n), central_differences(p, s, true, h));
      report("dh/d(q, s), " + where, ex);
      report("dh/d(v, sdot), " + where, ev);
      worst_x = std::max(worst_x, ex);
      worst_v = std::max(worst_v, ev);
      CHECK(ex < 1e-6);  // central-difference error; a wrong or missing term is O(1)
      CHECK(ev < 1e-7);
      if (locked) CHECK(dh_dv.empty());  // no velocity terms with the reel locked

      // The Carnot gradient.
      if (!locked) {
        const rp::CarnotGradient g = tangents.carnot_gradient(s);
        auto Q = [&](const rp::State& st) { return Eigen::VectorXd::Constant(1, mech.carnot_force(st)); };
        const double e = 1e-6;
        auto diff = [&](const std::function<void(rp::State&, double)>& nudge) {
          rp::State plus = s, minus = s;
          nudge(plus, e);
          nudge(minus, -e);
          return (Q(plus)(0) - Q(minus)(0)) / (2.0 * e);
        };
        const double scale = std::abs(g.ds) + g.dq2.norm() + std::abs(g.dsdot);
        double err = std::abs(diff([](rp::State& st, double d) { st.s += d; }) - g.ds);
        err = std::max(err, std::abs(diff([](rp::State& st, double d) { st.sdot += d; }) - g.dsdot));
        for (int i = 0; i < 3; ++i)
          err = std::max(err, std::abs(diff([i](rp::State& st, double d) { st.q[1](i) += d; }) - g.dq2(i)));
        report("Carnot gradient, " + where, err / scale);
        CHECK(err / scale < 1e-7);
      }
    }
  }
  report("worst d(A z)/d(q, s)", worst_mass);
  report("worst dh/d(q, s)", worst_x);
  report("worst dh/d(v, sdot)", worst_v);
}
