// Model B (SPEC "Model B", seeds 001/002): every analytic derivative the reel pendulum's LGVI
// relies on, checked against central finite differences of the function it differentiates,
// plus independent consistency checks of the semi-discrete mechanics (mass matrix, momenta,
// energy balance, pi3, equations of motion) and of the locked-reel reduction to Model A.
//
//  1. discrete_lagrangian_derivatives() and discrete_forcing() against central differences of
//     discrete_lagrangian() and of the forcing f, for both discretizations (Midpoint, Paper).
//  2. newton_correction() solves J dx = -G with J the dense central-difference Jacobian of
//     residual(), for both discretizations, reel free and reel locked.
//  3. Newton from initial_guess (and from a spoiled guess) converges quadratically to round-off;
//     the converged step conserves the discrete momentum map about e3.
//  4. Mechanics: T = 1/2 v^T A v, the inverse Legendre transform, the Euler-Lagrange equations
//     and the energy balance dE/dt = (Q + u/d) sdot along accelerations(), pi3 conservation.
//  5. Reel locked: mass matrix and accelerations are Model A's with string length L - s.
//  6. One converged LGVI step against the exact (RK4) flow: local order 3 for Midpoint (and
//     for either rule with the reel locked), 2 for the paper's rule with the reel free — the
//     check that L_d is consistent with Mechanics, which tests 1-3 cannot see.
//
// Parameters: SPEC Model B (seed 002 §4) with N = 1, 5 and 20 elements. Configurations are random
// with fixed seeds at two points: "near a real step" (elements 1.2 m, F = Cay(c) with |c| ~ 1e-2,
// dq ~ 1e-3, ds ~ 1e-3, h = 1e-3) and "larger values" (elements 0.4 m, |c| ~ 0.4, dq ~ 5e-2,
// ds ~ 3e-2, h = 2e-2). Strings are stretched (every element longer than l) and bent.
// Set TB_DERIV_REPORT=1 to print the measured errors.
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "mechanics/body_shapes.hpp"
#include "numerics/block_tridiagonal.hpp"
#include "numerics/bordered_block_tridiagonal.hpp"
#include "core/formulation.hpp"
#include "numerics/lie_group.hpp"
#include "core/model.hpp"
#include "models/reel_pendulum/discrete_lagrangian.hpp"
#include "models/reel_pendulum/forms.hpp"
#include "models/reel_pendulum/mechanics.hpp"
#include "models/reel_pendulum/model.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"
#include "tests/finite_difference.hpp"
#include "tests/reel_support.hpp"

using tb::Mat3;
using tb::Vec3;
namespace so3 = tb::so3;
namespace rp = tb::reel_pendulum;
namespace sp = tb::string_pendulum;
using tb::testing::central_difference;
using tb::testing::derivative;
using tb::testing::family_error;
using tb::testing::newton;
using tb::testing::newton_matrix_by_differences;
using tb::testing::node_gradient;
using tb::testing::residual_of;
using tb::testing::rotation_gradient;
using tb::testing::Rng;
using tb::testing::worst_node_error;
using Rule = rp::Parameters::Discretization;

namespace {

const Vec3 kE3 = Vec3::UnitZ();

void report(const std::string& what, double value) {
  static const bool on = std::getenv("TB_DERIV_REPORT") != nullptr;
  if (on) std::printf("  %-84s %.3e\n", what.c_str(), value);
}

const char* rule_name(Rule r) { return r == Rule::Midpoint ? "Midpoint" : "Paper"; }

// SPEC "Model B" parameters (seed 002 §4) with N elements.
rp::Parameters reel_parameters(int N, Rule rule = Rule::Midpoint, bool locked = false) {
  rp::Parameters p = tb::testing::spec_reel_parameters(N, locked, 2.09);
  p.discretization = rule;
  return p;
}

struct Scenario {
  std::string name;
  unsigned seed;
  double h;
  double element;      // unstretched element length l = (L - s)/N (m)
  double dq_scale;     // discrete-Lagrangian test: node increments
  double c_scale;      // discrete-Lagrangian test: Cayley parameter of F
  double ds_scale;     // discrete-Lagrangian test: reel increment
  double bend;         // transverse noise on element directions
  double max_strain;   // element strains drawn from [0.2, 1] * max_strain
  double v_scale;      // node velocities (m/s)
  double omega_scale;  // body angular velocity (rad/s)
  double sdot_scale;   // reel rate (m/s)
};

const Scenario kNearStep{"near a real step", 20240611u, 1e-3, 1.2, 1e-3, 1e-2, 1e-3, 0.3, 0.03, 0.5, 2.0, 1.0};
const Scenario kLarge{"larger values", 777u, 2e-2, 0.4, 5e-2, 0.4, 3e-2, 0.8, 0.2, 2.0, 10.0, 2.0};

struct Case {
  const Scenario* sc;
  int N;
};
// N = 20 once (near a real step), N = 1 and 5 at both points.
const Case kCases[] = {{&kNearStep, 1}, {&kNearStep, 5}, {&kNearStep, 20}, {&kLarge, 1}, {&kLarge, 5}};

std::string label(const Case& c) { return c.sc->name + ", N = " + std::to_string(c.N); }
std::string label(const Case& c, Rule r) { return label(c) + ", " + rule_name(r); }
std::string label(const Case& c, Rule r, bool locked) { return label(c, r) + (locked ? ", locked" : ", free"); }

double reel_position(const rp::Parameters& p, const Scenario& sc) { return p.L - p.N * sc.element; }

// Stretched, bent string hanging from the guide way entrance (q_1 = 0, e3 down): element a has
// length l (1 + strain_a), strain_a in [0.2, 1] max_strain, direction = base + bend * noise.
std::vector<Vec3> random_nodes(const rp::Parameters& p, double s, const Scenario& sc, Rng& rng) {
  const double l = (p.L - s) / p.N;
  std::vector<Vec3> q(p.N + 1, Vec3::Zero());
  const Vec3 base = Vec3(0.3, 0.2, 0.9).normalized();
  for (int a = 1; a <= p.N; ++a) {
    const Vec3 dir = (base + rng.vec(sc.bend)).normalized();
    q[a] = q[a - 1] + l * (1.0 + rng.uniform(0.2, 1.0) * sc.max_strain) * dir;
  }
  return q;
}

rp::State random_state(const rp::Parameters& p, const Scenario& sc, Rng& rng) {
  rp::State s;
  s.s = reel_position(p, sc);
  s.sdot = p.reel_locked ? 0.0 : rng.signed_magnitude(sc.sdot_scale);
  s.q = random_nodes(p, s.s, sc, rng);
  s.v.assign(p.N + 1, Vec3::Zero());
  for (int a = 1; a <= p.N; ++a) s.v[a] = rng.vec(sc.v_scale);
  s.R = so3::exp(rng.vec(1.5));
  s.Omega = rng.vec(sc.omega_scale);
  return s;
}

// ---------------------------------------------------------------------------------------
// 1. Discrete Lagrangian and forcing derivatives against central finite differences.

struct Config {
  double s, ds;
  std::vector<Vec3> q, dq;
  Mat3 R, F;
  double h;
  rp::StepConfiguration step() const { return rp::StepConfiguration{s, ds, q, dq, R, F, h}; }
};

Config random_config(const rp::Parameters& p, const Scenario& sc) {
  Rng rng(sc.seed + 17u * unsigned(p.N));
  Config c;
  c.s = reel_position(p, sc);
  c.ds = rng.signed_magnitude(sc.ds_scale);
  c.q = random_nodes(p, c.s, sc, rng);
  c.dq.assign(p.N + 1, Vec3::Zero());
  for (int a = 1; a <= p.N; ++a) c.dq[a] = rng.vec(sc.dq_scale);
  c.R = so3::exp(rng.vec(1.5));
  c.F = so3::cayley(rng.vec_with_norm(sc.c_scale));
  c.h = sc.h;
  return c;
}

double Ld(const rp::Mechanics& mech, const Config& c) { return rp::discrete_lagrangian(mech, c.step()); }
double forcing(const rp::Mechanics& mech, const Config& c) { return rp::discrete_forcing(mech, c.step()).f; }
// The Carnot part of f alone: f minus the constant control term h u/d (checked separately), so
// that the differences below are not rounded at the scale of h u/d >> |Q_dk|.
double carnot(const rp::Mechanics& mech, const Config& c) { return rp::discrete_forcing(mech, c.step()).carnot; }

}  // namespace

TEST_CASE("reel pendulum: discrete Lagrangian derivatives match central differences of L_d",
          "[reel_pendulum][derivatives]") {
  // Step 1e-6 (m, rad): L_d is a cubic polynomial in the increments and smooth in the
  // configuration, so the truncation error is ~1e-13 relative; round-off ~eps |L_d| / 1e-6
  // (measured: <= 4e-8 per node, <= 2e-8 per family). A wrong factor in a term moves its family
  // by (term size) / (family scale); the few terms too small for that (reel-rate corrections
  // inside d_ds) get a tighter bound on d_ds here and are also seen by the Newton-matrix and
  // one-step tests below.
  const double step = 1e-6;
  const double tol = 1e-7;
  double worst = 0.0;
  for (const Case& cs : kCases) {
    const Scenario& sc = *cs.sc;
    const int N = cs.N;
    for (Rule rule : {Rule::Midpoint, Rule::Paper}) {
      const rp::Parameters p = reel_parameters(N, rule);
      const rp::Mechanics mech(p);
      const Config c0 = random_config(p, sc);
      const double l = mech.element_length(c0.s);
      REQUIRE(l > 0.1);
      REQUIRE(l < 2.0);
      for (int a = 1; a <= N; ++a) REQUIRE((c0.q[a] - c0.q[a - 1]).norm() > l * 1.001);
      REQUIRE(so3::is_rotation(c0.R, 1e-12));
      REQUIRE(so3::is_rotation(c0.F, 1e-12));

      rp::DiscreteLagrangianDerivatives D;
      rp::discrete_lagrangian_derivatives(mech, c0.step(), D);
      REQUIRE(int(D.d_dq.size()) == N + 1);
      REQUIRE(int(D.d_q.size()) == N + 1);

      const auto L = [&](const Config& c) { return Ld(mech, c); };
      // Every node, the guide way entrance (a = 0) included.
      const std::vector<Vec3> fd_dq = node_gradient(c0, &Config::dq, step, L);
      const std::vector<Vec3> fd_q = node_gradient(c0, &Config::q, step, L);
      const double fd_ds = central_difference(c0, step, L, [](Config& c, double d) { c.ds += d; });
      const double fd_s = central_difference(c0, step, L, [](Config& c, double d) { c.s += d; });
      // F -> F exp(e hat(e_i)), left-trivialised; R the same at fixed F and increments.
      const Vec3 fd_F = rotation_gradient(c0, &Config::F, step, L);
      const Vec3 fd_R = rotation_gradient(c0, &Config::R, step, L);

      const double e_dq = family_error(fd_dq, D.d_dq), e_q = family_error(fd_q, D.d_q);
      const double n_dq = worst_node_error(fd_dq, D.d_dq), n_q = worst_node_error(fd_q, D.d_q);
      const double e_ds = std::abs(fd_ds - D.d_ds) / std::abs(D.d_ds);
      const double e_s = std::abs(fd_s - D.d_s) / std::abs(D.d_s);
      const double e_F = (fd_F - D.d_F).norm() / D.d_F.norm();
      const double e_R = (fd_R - D.d_R).norm() / D.d_R.norm();

      // The forcing f(ds, dq_2) of the step (s, q, R, F enter only as fixed data). f = Q_dk +
      // h u/d with the second term constant (checked below): differentiate Q_dk.
      const rp::DiscreteForcing f0 = rp::discrete_forcing(mech, c0.step());
      const auto Q = [&](const Config& c) { return carnot(mech, c); };
      const double fd_f_ds = central_difference(c0, step, Q, [](Config& c, double d) { c.ds += d; });
      Vec3 fd_f_dq2;
      for (int i = 0; i < 3; ++i)
        fd_f_dq2(i) = central_difference(c0, step, Q, [&](Config& c, double d) { c.dq[1](i) += d; });
      // No other increment enters f.
      double f_other = 0.0;
      for (int a = 0; a <= N; ++a) {
        if (a == 1) continue;
        Config cp = c0;
        cp.dq[a] += Vec3(1e-3, -2e-3, 3e-3);
        f_other = std::max(f_other, std::abs(forcing(mech, cp) - f0.f));
      }
      const double e_f_ds = std::abs(fd_f_ds - f0.d_ds) / std::abs(f0.d_ds);
      // d f / d dq_2 is zero for the paper's rule (strain at step k): measure it against the
      // scale |d_ds| l of a comparable change of f, so that both rules use one tolerance.
      const double f_scale = std::max(f0.d_dq2.norm(), std::abs(f0.d_ds) * l);
      const double e_f_dq2 = (fd_f_dq2 - f0.d_dq2).norm() / f_scale;

      const std::string where = label(cs, rule);
      report("L_d " + where + ": d_dq, max|err| / max|d_dq|", e_dq);
      report("L_d " + where + ": d_dq, worst per-node relative error", n_dq);
      report("L_d " + where + ": d_q, max|err| / max|d_q|", e_q);
      report("L_d " + where + ": d_q, worst per-node relative error", n_q);
      report("L_d " + where + ": d_ds relative error", e_ds);
      report("L_d " + where + ": d_s relative error", e_s);
      report("L_d " + where + ": d_F relative error", e_F);
      report("L_d " + where + ": d_R relative error", e_R);
      report("forcing " + where + ": d_ds relative error", e_f_ds);
      report("forcing " + where + ": d_dq2 error / max(|d_dq2|, |d_ds| l)", e_f_dq2);
      INFO(where);
      CHECK(e_dq < tol);
      CHECK(e_q < tol);
      // d_ds is dominated by (mu s + kappa_d) ds / h, which would hide an error in its small
      // terms (gamma_s, the couplings) at 1e-7; its finite difference is accurate to ~1e-10.
      CHECK(e_ds < 1e-9);
      CHECK(e_s < tol);
      CHECK(e_F < tol);
      CHECK(e_R < tol);
      // Per node too: a derivative wrong only at one node must not hide behind the family scale.
      CHECK(n_dq < 1e-6);
      CHECK(n_q < 1e-6);
      CHECK(e_f_ds < tol);
      CHECK(e_f_dq2 < tol);
      CHECK(f_other == 0.0);
      if (rule == Rule::Paper) {
        CHECK(f0.d_dq2.norm() == 0.0);
        CHECK(f0.weight_before == 1.0);
        CHECK(f0.weight_after == 0.0);
      } else {
        CHECK(f0.d_dq2.norm() > 0.0);
        CHECK(f0.weight_before == 0.5);
        CHECK(f0.weight_after == 0.5);
      }
      // f - Q_dk is the constant control term h u/d (so d f = d Q_dk).
      CHECK(std::abs(f0.f - f0.carnot - c0.h * p.u / p.d) <= 1e-15 * std::abs(f0.f) + 1e-18);
      {
        Config cp = c0;
        cp.ds += 1e-3;
        cp.dq[1] += Vec3(1e-3, -2e-3, 3e-3);
        const rp::DiscreteForcing f1 = rp::discrete_forcing(mech, cp.step());
        CHECK(std::abs((f1.f - f1.carnot) - (f0.f - f0.carnot)) <= 1e-15 * std::abs(f0.f));
      }
      CHECK(f0.carnot <= 0.0);
      for (double e : {e_dq, e_q, e_ds, e_s, e_F, e_R, e_f_ds, e_f_dq2}) worst = std::max(worst, e);
    }
  }
  report("L_d and forcing: worst relative error over every case", worst);
}

// ---------------------------------------------------------------------------------------
// 2.-3. The LGVI step in position-momentum form.

namespace {

struct Lgvi {
  rp::Parameters p;
  std::shared_ptr<const tb::Model> model;
  std::unique_ptr<tb::Formulation> form;
  const rp::LieGroupForm* lg = nullptr;
  std::unique_ptr<tb::DiscreteLieGroupStep> step;
};

Lgvi make_lgvi(int N, Rule rule, bool locked, const Scenario& sc) {
  Lgvi out;
  out.p = reel_parameters(N, rule, locked);
  rp::InitialCondition ic;
  ic.s0 = reel_position(out.p, sc);
  out.model = rp::make_model(out.p, ic);
  std::string why;
  out.form = out.model->make_formulation(tb::FormulationKind::DiscreteLieGroup, why);
  REQUIRE(out.form != nullptr);
  out.lg = dynamic_cast<const rp::LieGroupForm*>(out.form.get());
  REQUIRE(out.lg != nullptr);
  out.step = out.lg->make_step();
  REQUIRE(out.step != nullptr);
  REQUIRE(out.step->unknowns() == 3 * N + 3 + (locked ? 0 : 1));
  return out;
}

// Position-momentum layout of LieGroupForm: [s, q_2..q_{N+1}, R, p_2..p_{N+1}, Pi, p_s, works].
int momenta_offset(int N) { return 10 + 3 * N; }
double momenta_scale(const Eigen::VectorXd& y, int N) { return y.segment(momenta_offset(N), 3 * N + 4).norm(); }

// Discrete momentum map about e3: e3 . (sum_j q_j x p_j + R Pi) (s is rotation invariant).
double momentum_map_e3(const Eigen::VectorXd& y, int N) {
  Vec3 L = Vec3::Zero();
  for (int j = 2; j <= N + 1; ++j)
    L += Vec3(y.segment<3>(1 + 3 * (j - 2))).cross(Vec3(y.segment<3>(momenta_offset(N) + 3 * (j - 2))));
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) R(i, k) = y(1 + 3 * N + 3 * i + k);
  return kE3.dot(L + R * Vec3(y.segment<3>(10 + 6 * N)));
}

}  // namespace

TEST_CASE("reel pendulum: the LGVI Newton matrix is the Jacobian of the residual",
          "[reel_pendulum][derivatives][lgvi]") {
  // Central differences of residual(): steps 1e-7 m for dq and ds, 1e-6 for c. The residual
  // is polynomial in dq and ds apart from the guide way strain, and smooth in c.
  const double tol = 1e-7;
  double worst = 0.0;
  for (const Case& cs : kCases) {
    const Scenario& sc = *cs.sc;
    const int N = cs.N;
    for (Rule rule : {Rule::Midpoint, Rule::Paper}) {
      for (bool locked : {false, true}) {
        Lgvi L = make_lgvi(N, rule, locked, sc);
        Rng rng(sc.seed + 31u * unsigned(N) + (locked ? 5u : 0u));
        const rp::State s = random_state(L.p, sc, rng);
        const Eigen::VectorXd y = L.lg->from_physical(s);
        L.step->begin(y, sc.h);
        const int n = L.step->unknowns();
        const int nc = 3 * N;  // first Cayley entry; ds (free reel) is entry 3N + 3

        // A random x near the solution: solve, then perturb every entry by ~10-30 % of the size
        // of its group (node increments, Cayley parameters, reel increment).
        Eigen::VectorXd x;
        L.step->initial_guess(x);
        newton(*L.step, x, 8);
        const double dq_size = x.head(3 * N).cwiseAbs().maxCoeff();
        const double c_size = x.segment<3>(nc).norm();
        for (int k = 0; k < 3 * N; ++k) x(k) += rng.uniform(-0.3, 0.3) * dq_size;
        x.segment<3>(nc) += rng.vec(0.3 * c_size);
        if (!locked) x(nc + 3) *= 1.0 + rng.signed_magnitude(0.3);

        const Eigen::VectorXd G = residual_of(*L.step, x);
        const Eigen::MatrixXd J = newton_matrix_by_differences(
            *L.step, x, [&](Eigen::Index k) { return (k >= nc && k < nc + 3) ? 1e-6 : 1e-7; });

        // (a) The correction at x solves J dx = -G, overall and per group of rows (their scales
        //     differ by orders of magnitude).
        Eigen::VectorXd dx;
        REQUIRE(L.step->newton_correction(x, G, dx));
        REQUIRE(dx.size() == n);
        const Eigen::VectorXd res = J * dx + G;
        const double e_all = res.norm() / G.norm();
        const double e_trans = res.head(3 * N).norm() / G.head(3 * N).norm();
        const double e_rot = res.segment<3>(nc).norm() / G.segment<3>(nc).norm();
        const double e_reel = locked ? 0.0 : std::abs(res(nc + 3)) / std::abs(G(nc + 3));

        // (b) The whole matrix: with G = e_k the correction is column k of -J_analytic^{-1}, so
        //     J_fd X = -I. Checks every block, the border included.
        Eigen::MatrixXd X(n, n);
        for (int k = 0; k < n; ++k) {
          Eigen::VectorXd col;
          REQUIRE(L.step->newton_correction(x, Eigen::VectorXd::Unit(n, k), col));
          X.col(k) = col;
        }
        const double e_matrix = (J * X + Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff();

        const std::string where = label(cs, rule, locked);
        report("Newton matrix " + where + ": |J_fd dx + G| / |G|", e_all);
        report("Newton matrix " + where + ": node rows / |G_nodes|", e_trans);
        report("Newton matrix " + where + ": rotational rows / |G_rot|", e_rot);
        if (!locked) report("Newton matrix " + where + ": reel row / |G_s|", e_reel);
        report("Newton matrix " + where + ": max |J_fd J_an^-1 + I|", e_matrix);
        INFO(where);
        CHECK(e_all < tol);
        CHECK(e_trans < tol);
        CHECK(e_rot < tol);
        CHECK(e_reel < tol);
        CHECK(e_matrix < tol);
        for (double e : {e_all, e_trans, e_rot, e_reel, e_matrix}) worst = std::max(worst, e);
      }
    }
  }
  report("Newton matrix: worst relative error over every case", worst);
}

TEST_CASE("reel pendulum: the LGVI Newton iteration converges quadratically and conserves pi3",
          "[reel_pendulum][derivatives][lgvi]") {
  double worst_C_all = 0.0, worst_floor = 0.0, worst_pi = 0.0;
  int most_iterations = 0;
  for (const Case& cs : kCases) {
    const Scenario& sc = *cs.sc;
    const int N = cs.N;
    for (Rule rule : {Rule::Midpoint, Rule::Paper}) {
      for (bool locked : {false, true}) {
        Lgvi L = make_lgvi(N, rule, locked, sc);
        Rng rng(sc.seed + 57u * unsigned(N) + (locked ? 3u : 0u));
        const rp::State s = random_state(L.p, sc, rng);
        const Eigen::VectorXd y = L.lg->from_physical(s);
        // Round-off level of |G|: 1e-13 of the momenta G balances, plus a few ulps of the
        // attitude row's largest terms, (Jd F - F^T Jd)/h ~ |J|/h, which cancel to ~|J| c / h
        // (|J|/h = 40 here; it dominates with the reel locked, where |momenta| lacks p_s ~ 3).
        const double scale = momenta_scale(y, N);
        const double floor = 1e-13 * scale + 1e-15 * L.p.J.norm() / sc.h;
        const std::string where = label(cs, rule, locked);
        INFO(where);

        // (a) From initial_guess (x = h v, c = h Omega / 2, ds = h sdot): round-off within a
        //     few iterations.
        L.step->begin(y, sc.h);
        Eigen::VectorXd x0;
        L.step->initial_guess(x0);
        Eigen::VectorXd x = x0;
        const std::vector<double> plain = newton(*L.step, x, 8);
        int iterations = 0;
        while (iterations < int(plain.size()) && plain[iterations] > floor) ++iterations;
        most_iterations = std::max(most_iterations, iterations);
        report("Newton iteration " + where + ": iterations from initial_guess to round-off", iterations);
        CHECK(iterations <= 5);
        CHECK(plain.back() <= floor);
        const Eigen::VectorXd x_star = x;

        // (b) From a spoiled guess (|dc| = 0.2, ds off by 50 %) so that the nonlinear part has
        //     to converge over several iterations: e_{k+1} <= C e_k^2, e_k = |x_k - x*| (the
        //     Cayley parameters and ds dominate; the residual is linear in dq but for the reel
        //     coupling). C = O(1) measured; bound 10. A Jacobian with a wrong entry converges
        //     linearly with some rate q and fails as soon as e_k < q / 10.
        x = x0;
        x.segment<3>(3 * N) += rng.vec_with_norm(0.2);
        if (!locked) x(3 * N + 3) += 0.5 * x0(3 * N + 3);
        std::vector<Eigen::VectorXd> xs;
        const std::vector<double> norms = newton(*L.step, x, 8, &xs);
        CHECK((x - x_star).norm() <= 1e-12 * x_star.norm());
        std::string seq;
        for (size_t k = 0; k < norms.size(); ++k) {
          char buf[64];
          std::snprintf(buf, sizeof buf, " (%.1e, %.1e)", norms[k] / scale, (xs[k] - x).norm());
          seq += buf;
        }
        INFO("(|G_k| / |momenta|, |x_k - x*|):" + seq);
        int checked = 0;
        double worst_C = 0.0, smallest_checked = 1.0;
        for (size_t k = 0; k + 2 < xs.size(); ++k) {
          const double ek = (xs[k] - x).norm(), en = (xs[k + 1] - x).norm();
          if (ek <= 1e-13) break;  // at round-off
          if (en > 1e-13) worst_C = std::max(worst_C, en / (ek * ek));
          smallest_checked = std::min(smallest_checked, ek);
          CHECK(en <= 10.0 * ek * ek + 1e-14);
          ++checked;
        }
        report("Newton iteration " + where + ": spoiled guess, steps checked above round-off", checked);
        report("Newton iteration " + where + ": spoiled guess, smallest e_k checked", smallest_checked);
        report("Newton iteration " + where + ": spoiled guess, worst e_{k+1} / e_k^2", worst_C);
        report("Newton iteration " + where + ": final |G| / |momenta|", norms.back() / scale);
        CHECK(checked >= 3);
        CHECK(smallest_checked < 1e-5);
        CHECK(norms.back() <= floor);
        worst_C_all = std::max(worst_C_all, worst_C);
        worst_floor = std::max({worst_floor, norms.back() / scale, plain.back() / scale});

        // The converged step conserves the discrete momentum map about e3: the forcing acts on
        // s alone, which rotations about e3 leave fixed.
        Eigen::VectorXd y_next;
        L.step->complete(x, y_next);
        REQUIRE(y_next.size() == y.size());
        const double pi_before = momentum_map_e3(y, N), pi_after = momentum_map_e3(y_next, N);
        const double e_pi = std::abs(pi_after - pi_before) / scale;  // |q| ~ 1-20 m
        report("Newton iteration " + where + ": |Delta pi3| / |momenta|", e_pi);
        CHECK(e_pi <= 1e-12 * std::max(1.0, N * sc.element));
        worst_pi = std::max(worst_pi, e_pi);
        if (locked) CHECK(y_next(0) == y(0));
      }
    }
  }
  report("Newton iteration: most iterations from initial_guess", most_iterations);
  report("Newton iteration: worst e_{k+1} / e_k^2 over every case", worst_C_all);
  report("Newton iteration: worst final |G| / |momenta|", worst_floor);
  report("Newton iteration: worst |Delta pi3| / |momenta|", worst_pi);
}

// ---------------------------------------------------------------------------------------
// 4. Mechanics: independent formulations of the same quantities.

namespace {

// Velocities (v_2..v_{N+1}, Omega, sdot) of a state.
Eigen::VectorXd packed_velocities(const rp::State& st, int N) {
  Eigen::VectorXd v(3 * N + 4);
  for (int j = 2; j <= N + 1; ++j) v.segment<3>(3 * (j - 2)) = st.v[j - 1];
  v.segment<3>(3 * N) = st.Omega;
  v(3 * N + 3) = st.sdot;
  return v;
}

// State displaced along the flow by time e to first order: q + e v, v + e vdot,
// R exp(e Omega), Omega + e Omegadot, s + e sdot, sdot + e sddot.
rp::State displaced(const rp::State& s, const Eigen::VectorXd& acc, double e) {
  const int N = int(s.q.size()) - 1;
  rp::State out = s;
  for (int j = 2; j <= N + 1; ++j) {
    out.q[j - 1] = s.q[j - 1] + e * s.v[j - 1];
    out.v[j - 1] = s.v[j - 1] + e * acc.segment<3>(3 * (j - 2));
  }
  out.R = s.R * so3::exp(e * s.Omega);
  out.Omega = s.Omega + e * acc.segment<3>(3 * N);
  out.s = s.s + e * s.sdot;
  out.sdot = s.sdot + e * acc(3 * N + 3);
  return out;
}

// The derivatives along the flow below are fourth-order central differences (derivative(),
// tests/finite_difference.hpp). The energy contains the reel potential V_r ~ mu g b s ~ 12 J,
// which does not cancel in the differences: a step of 1e-4 keeps round-off at
// ~1e-16 * 12 / 1e-4 ~ 1e-11 W while the truncation error, O(e^4), stays below 1e-13.

}  // namespace

TEST_CASE("reel pendulum: mechanics quantities agree with independent formulations",
          "[reel_pendulum][derivatives][mechanics]") {
  double worst_T = 0.0, worst_inv = 0.0, worst_E = 0.0, worst_pi = 0.0, worst_EL = 0.0;
  for (const Case& cs : kCases) {
    const Scenario& sc = *cs.sc;
    const int N = cs.N;
    for (bool locked : {false, true}) {
      const rp::Parameters p = reel_parameters(N, Rule::Midpoint, locked);
      const rp::Mechanics mech(p);
      Rng rng(sc.seed + 91u * unsigned(N) + (locked ? 7u : 0u));
      const rp::State s = random_state(p, sc, rng);
      const std::string where = label(cs) + (locked ? ", locked" : ", free");
      INFO(where);

      // Mass matrix: symmetric, and T = 1/2 v^T A v.
      tb::BorderedBlockTridiagonal3 A;
      mech.assemble_mass_matrix(s, A);
      REQUIRE(A.blocks() == N + 1);
      const tb::BlockTridiagonal3& K = A.core();
      double sym = 0.0;
      for (int i = 0; i + 1 <= N; ++i) sym = std::max(sym, (K.upper(i) - K.lower(i + 1).transpose()).cwiseAbs().maxCoeff());
      for (int i = 0; i <= N; ++i) sym = std::max(sym, (K.diag(i) - K.diag(i).transpose()).cwiseAbs().maxCoeff());
      sym = std::max(sym, (A.border_column() - A.border_row()).cwiseAbs().maxCoeff());
      CHECK(sym <= 1e-15);
      if (locked) CHECK(A.border_column().cwiseAbs().maxCoeff() == 0.0);
      const Eigen::VectorXd v = packed_velocities(s, N);
      const double T = mech.kinetic_energy(s);
      const double e_T = std::abs(T - 0.5 * v.dot(A.multiply(v))) / T;
      CHECK(e_T < 1e-13);

      // Inverse Legendre transform recovers (v, Omega, sdot).
      const Eigen::VectorXd mom = mech.momenta(s);
      REQUIRE(mom.size() == 3 * N + 4);
      CHECK((mom - A.multiply(v)).norm() <= 1e-14 * mom.norm());
      rp::State back;
      back.s = s.s;
      back.q = s.q;
      back.R = s.R;
      mech.set_velocities_from_momenta(mom, back);
      const double e_inv = (packed_velocities(back, N) - v).norm() / v.norm();
      CHECK(e_inv < 1e-12);
      CHECK(back.v[0].norm() == 0.0);

      // Along the flow (displaced() with accelerations(), fourth-order differences):
      //  (i) energy balance dE/dt = (Q + u/d) sdot (locked: dE/dt = 0), relative to the power
      //      scale |dT/dt| + |dV/dt| (measured <= 4e-10; bound 1e-8);
      //  (ii) pi3 = e3 . (sum q x p + R Pi) is conserved (Noether: the forcing acts on s only,
      //      which rotations about e3 leave fixed), relative to the sum of its terms' magnitudes
      //      (measured <= 4e-12; bound 1e-10);
      //  (iii) the Euler-Lagrange equations, each side from finite differences of momenta(),
      //      kinetic_energy() and potential_energy() alone:
      //      dp_j/dt = dT/dq_j - dV/dq_j, dPi/dt = Pi x Omega + D_R (T - V) (left-trivialised),
      //      dp_s/dt = dT/ds - dV/ds + Q + u/d (free reel) (measured <= 3e-10; bound 1e-8).
      Eigen::VectorXd acc;
      mech.accelerations(s, acc);
      REQUIRE(acc.size() == 3 * N + 4);
      REQUIRE(acc.allFinite());
      if (locked) CHECK(acc(3 * N + 3) == 0.0);
      // Along the flow: central differences in e of functions of displaced(s, acc, e); the
      // curve has the flow's tangent at e = 0, so d/de at 0 is the time derivative.
      const double et = 1e-4;
      auto along = [&](auto&& f) { return derivative([&](double e) { return f(displaced(s, acc, e)); }, et); };
      auto energy = [&](const rp::State& st) { return mech.kinetic_energy(st) + mech.potential_energy(st); };
      const double dE = along(energy);
      const double dT = along([&](const rp::State& st) { return mech.kinetic_energy(st); });
      const double dV = along([&](const rp::State& st) { return mech.potential_energy(st); });
      const double power = locked ? 0.0 : (mech.carnot_force(s) + p.u / p.d) * s.sdot;
      const double power_scale = std::abs(dT) + std::abs(dV);
      REQUIRE(power_scale > 1e-3);  // far from equilibrium: a meaningful scale
      const double e_E = std::abs(dE - power) / power_scale;
      CHECK(e_E < 1e-8);

      // pi3: measured against the sum of the magnitudes of its terms (per second).
      double pi_scale = (s.R * Vec3(mom.segment<3>(3 * N))).norm();
      for (int j = 2; j <= N + 1; ++j) pi_scale += s.q[j - 1].cross(Vec3(mom.segment<3>(3 * (j - 2)))).norm();
      const double dpi = along([&](const rp::State& st) { return mech.angular_momentum_e3(st); });
      const double e_pi = std::abs(dpi) / pi_scale;
      CHECK(e_pi < 1e-10);

      const Eigen::VectorXd dp = along([&](const rp::State& st) { return Eigen::VectorXd(mech.momenta(st)); });
      Eigen::VectorXd rhs = Eigen::VectorXd::Zero(3 * N + 4);
      const double eq = 1e-4;  // configuration step (m, rad), fourth-order differences
      auto lagrangian = [&](const rp::State& st) { return mech.kinetic_energy(st) - mech.potential_energy(st); };
      for (int j = 2; j <= N + 1; ++j) {
        for (int i = 0; i < 3; ++i) {
          rhs(3 * (j - 2) + i) = derivative(
              [&](double e) {
                rp::State st = s;
                st.q[j - 1](i) += e;
                return lagrangian(st);
              },
              eq);
        }
      }
      Vec3 DR;
      for (int i = 0; i < 3; ++i) {
        DR(i) = derivative(
            [&](double e) {
              rp::State st = s;
              st.R = s.R * so3::exp(e * Vec3::Unit(i));
              return lagrangian(st);
            },
            eq);
      }
      rhs.segment<3>(3 * N) = Vec3(mom.segment<3>(3 * N)).cross(s.Omega) + DR;
      double e_s = 0.0;
      if (!locked) {
        const double dL_ds = derivative(
            [&](double e) {
              rp::State st = s;
              st.s += e;
              return lagrangian(st);
            },
            eq);
        rhs(3 * N + 3) = dL_ds + mech.carnot_force(s) + p.u / p.d;
        e_s = std::abs(dp(3 * N + 3) - rhs(3 * N + 3)) / std::abs(rhs(3 * N + 3));
      }
      const double e_nodes = (dp.head(3 * N) - rhs.head(3 * N)).norm() / rhs.head(3 * N).norm();
      const double e_rot = (dp.segment<3>(3 * N) - rhs.segment<3>(3 * N)).norm() / rhs.segment<3>(3 * N).norm();
      CHECK(e_nodes < 1e-8);
      CHECK(e_rot < 1e-8);
      CHECK(e_s < 1e-8);

      report("mechanics " + where + ": T vs 1/2 v^T A v (relative)", e_T);
      report("mechanics " + where + ": velocities from momenta(s) (relative)", e_inv);
      report("mechanics " + where + ": |dE/dt - (Q + u/d) sdot| / (|dT/dt| + |dV/dt|)", e_E);
      report("mechanics " + where + ": |dpi3/dt| / sum of |terms of pi3|", e_pi);
      report("mechanics " + where + ": dp/dt vs dL/dq (relative)", e_nodes);
      report("mechanics " + where + ": dPi/dt vs Pi x Omega + D_R L (relative)", e_rot);
      if (!locked) report("mechanics " + where + ": dp_s/dt vs dL/ds + Q + u/d (relative)", e_s);
      worst_T = std::max(worst_T, e_T);
      worst_inv = std::max(worst_inv, e_inv);
      worst_E = std::max(worst_E, e_E);
      worst_pi = std::max(worst_pi, e_pi);
      worst_EL = std::max({worst_EL, e_nodes, e_rot, e_s});
    }
  }
  report("mechanics: worst T vs 1/2 v^T A v", worst_T);
  report("mechanics: worst inverse Legendre transform", worst_inv);
  report("mechanics: worst energy balance", worst_E);
  report("mechanics: worst pi3 rate", worst_pi);
  report("mechanics: worst Euler-Lagrange residual", worst_EL);
}

// ---------------------------------------------------------------------------------------
// 5. Reel locked: Model A with a string of length L - s.

TEST_CASE("reel pendulum: with the reel locked the mechanics are Model A's",
          "[reel_pendulum][derivatives][mechanics]") {
  double worst_block = 0.0, worst_acc = 0.0;
  for (const Case& cs : kCases) {
    const Scenario& sc = *cs.sc;
    const int N = cs.N;
    const rp::Parameters p = reel_parameters(N, Rule::Midpoint, true);
    const rp::Mechanics mech(p);
    Rng rng(sc.seed + 113u * unsigned(N));
    const rp::State s = random_state(p, sc, rng);
    REQUIRE(s.sdot == 0.0);

    sp::Parameters pa;
    pa.N = N;
    pa.mu = p.mu;
    pa.length = p.L - s.s;
    pa.EA = p.EA;
    pa.M = p.M;
    pa.rho_c = p.rho_c;
    pa.J = p.J;
    pa.g = p.g;
    const sp::Mechanics model_a(pa);
    sp::State sa;
    sa.r = s.q;
    sa.v = s.v;
    sa.R = s.R;
    sa.Omega = s.Omega;
    const std::string where = label(cs);
    INFO(where);

    tb::BorderedBlockTridiagonal3 A;
    mech.assemble_mass_matrix(s, A);
    tb::BlockTridiagonal3 B;
    model_a.assemble_mass_matrix(s.R, B);
    REQUIRE(B.blocks() == N + 1);
    REQUIRE(A.blocks() == N + 1);
    const tb::BlockTridiagonal3& K = A.core();
    double e_block = 0.0, block_scale = 0.0;
    for (int i = 0; i <= N; ++i) {
      e_block = std::max(e_block, (K.diag(i) - B.diag(i)).cwiseAbs().maxCoeff());
      block_scale = std::max(block_scale, B.diag(i).cwiseAbs().maxCoeff());
      if (i > 0) e_block = std::max(e_block, (K.lower(i) - B.lower(i)).cwiseAbs().maxCoeff());
      if (i < N) e_block = std::max(e_block, (K.upper(i) - B.upper(i)).cwiseAbs().maxCoeff());
    }
    e_block /= block_scale;
    CHECK(e_block <= 1e-15);
    CHECK(A.border_column().cwiseAbs().maxCoeff() == 0.0);
    CHECK(A.border_row().cwiseAbs().maxCoeff() == 0.0);

    Eigen::VectorXd acc_b, acc_a;
    mech.accelerations(s, acc_b);
    model_a.accelerations(sa, acc_a);
    REQUIRE(acc_a.size() == 3 * N + 3);
    REQUIRE(acc_b.size() == 3 * N + 4);
    const double e_nodes = (acc_b.head(3 * N) - acc_a.head(3 * N)).norm() / acc_a.head(3 * N).norm();
    const double e_rot = (acc_b.segment<3>(3 * N) - acc_a.segment<3>(3 * N)).norm() / acc_a.segment<3>(3 * N).norm();
    CHECK(e_nodes < 1e-12);
    CHECK(e_rot < 1e-12);
    CHECK(acc_b(3 * N + 3) == 0.0);
    // Same energy and pi3 (Model B's potential adds the constant reel potential V_r(s)).
    const double T_b = mech.kinetic_energy(s), T_a = model_a.kinetic_energy(sa);
    CHECK(std::abs(T_b - T_a) <= 1e-13 * T_a);
    const double pi_b = mech.angular_momentum_e3(s), pi_a = model_a.angular_momentum_e3(sa);
    CHECK(std::abs(pi_b - pi_a) <= 1e-13 * std::max(1.0, std::abs(pi_a)));

    report("locked vs Model A " + where + ": mass matrix blocks, max |diff| / max |block|", e_block);
    report("locked vs Model A " + where + ": node accelerations (relative)", e_nodes);
    report("locked vs Model A " + where + ": Omegadot (relative)", e_rot);
    worst_block = std::max(worst_block, e_block);
    worst_acc = std::max({worst_acc, e_nodes, e_rot});
  }
  report("locked vs Model A: worst mass-matrix block difference", worst_block);
  report("locked vs Model A: worst acceleration difference", worst_acc);
}

// ---------------------------------------------------------------------------------------
// 6. Consistency of L_d with the continuous mechanics: one LGVI step against the exact flow.

TEST_CASE("reel pendulum: one LGVI step matches the exact flow to the rule's order",
          "[reel_pendulum][derivatives][lgvi]") {
  // From a random physical state, one converged LGVI step (configuration from x, momenta from
  // complete()) against the ODE flow (RK4, 64 substeps). Midpoint is second order: local error
  // O(h^3) in configuration and momenta, halving h divides it by ~8. The paper's rule is a
  // one-sided quadrature of the kinetic energy and the forcing: first order when the reel
  // moves, local error O(h^2) (ratio ~4); with the reel locked it is the midpoint rule.
  // Tests 1-3 cannot see a term of L_d that differs from Mechanics::kinetic_energy (its
  // derivatives and Newton matrix would be consistent with the wrong L_d); this one can.
  const int N = 5;
  for (Rule rule : {Rule::Midpoint, Rule::Paper}) {
    for (bool locked : {false, true}) {
      Lgvi L = make_lgvi(N, rule, locked, kNearStep);
      Rng rng(4242u + (locked ? 1u : 0u));
      const rp::State s0 = random_state(L.p, kNearStep, rng);
      std::string why;
      const auto ode_form = L.model->make_formulation(tb::FormulationKind::EmbeddedOde, why);
      REQUIRE(ode_form != nullptr);
      const auto* ode = dynamic_cast<const tb::OdeFormulation*>(ode_form.get());
      REQUIRE(ode != nullptr);
      const rp::Mechanics& mech = L.lg->mechanics();

      auto exact = [&](double h) { return mech.unpack(tb::testing::flow_by_fine_rk4(*ode, mech.pack(s0), h)); };

      struct Errors {
        double s, q, R, p, Pi, ps;
      };
      auto local_errors = [&](double h) {
        const Eigen::VectorXd y0 = L.lg->from_physical(s0);
        L.step->begin(y0, h);
        Eigen::VectorXd x, y1;
        L.step->initial_guess(x);
        const std::vector<double> norms = newton(*L.step, x, 6);
        REQUIRE(norms.back() <= 1e-13 * momenta_scale(y0, N) + 1e-15 * L.p.J.norm() / h);
        L.step->complete(x, y1);
        const rp::State s1 = L.lg->to_physical(y1), se = exact(h);
        const Eigen::VectorXd pe = mech.momenta(se);
        Errors e{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        e.s = std::abs(s1.s - se.s);
        for (int a = 1; a <= N; ++a) e.q = std::max(e.q, (s1.q[a] - se.q[a]).norm());
        e.R = so3::log(se.R.transpose() * s1.R).norm();
        e.p = (y1.segment(momenta_offset(N), 3 * N) - pe.head(3 * N)).norm();
        e.Pi = (Vec3(y1.segment<3>(10 + 6 * N)) - Vec3(pe.segment<3>(3 * N))).norm();
        e.ps = std::abs(y1(13 + 6 * N) - pe(3 * N + 3));
        return e;
      };

      const double h1 = 2e-4, h2 = 1e-4;
      const Errors a = local_errors(h1), b = local_errors(h2);
      const std::string where = std::string(rule_name(rule)) + (locked ? ", locked" : ", free");
      INFO(where);
      // Paper rule, reel free: every local error at least O(h^2), and s, p_s exactly O(h^2)
      // (the node momenta happen to stay O(h^3)); otherwise everything O(h^3).
      const bool first_order = rule == Rule::Paper && !locked;
      auto order = [](double ea, double eb) { return std::log2(ea / eb); };
      struct Item {
        const char* name;
        double ea, eb;
      };
      std::vector<Item> items = {{"q", a.q, b.q}, {"R", a.R, b.R}, {"p", a.p, b.p}, {"Pi", a.Pi, b.Pi}};
      if (!locked) {
        items.push_back({"s", a.s, b.s});
        items.push_back({"p_s", a.ps, b.ps});
      } else {
        CHECK(a.s == 0.0);
        CHECK(a.ps == 0.0);
      }
      for (const Item& it : items) {
        const double o = order(it.ea, it.eb);
        report("one step " + where + std::string(": h = 2e-4, error in ") + it.name, it.ea);
        report("one step " + where + std::string(": local order, ") + it.name, o);
        INFO(it.name << ": errors " << it.ea << ", " << it.eb << ", order " << o);
        const bool exactly_second = first_order && (std::string(it.name) == "s" || std::string(it.name) == "p_s");
        CHECK(o > (first_order ? 1.7 : 2.7));
        CHECK(o < (exactly_second ? 2.3 : 3.3));
      }
    }
  }
}
