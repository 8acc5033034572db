// Model A (SPEC "Model A", seed 000): every analytic derivative the LGVI relies on, checked
// against central finite differences of the function it differentiates, plus independent
// consistency checks of the semi-discrete mechanics (mass matrix, momenta, pi3, equations of
// motion) and of the LGVI step (Newton matrix, quadratic convergence, discrete momentum map,
// local order against the exact flow).
//
// Configurations are random with fixed seeds, for N = 1 and N = 5 elements, at two points:
// "near a real step" (F = Cay(c) with |c| ~ 1e-2, dr ~ 1e-3, h = 1e-3) and "larger values"
// (|c| ~ 0.4, dr ~ 5e-2, h = 2e-2). Strings are stretched (every element longer than u) and
// bent. Set TB_DERIV_REPORT=1 to print the measured errors.
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "numerics/block_tridiagonal.hpp"
#include "core/formulation.hpp"
#include "numerics/lie_group.hpp"
#include "models/string_pendulum/discrete_lagrangian.hpp"
#include "models/string_pendulum/forms.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"
#include "models/string_pendulum/model.hpp"
#include "tests/finite_difference.hpp"
#include "tests/test_support.hpp"

using tb::Mat3;
using tb::Vec3;
namespace so3 = tb::so3;
namespace sp = tb::string_pendulum;

namespace {

const Vec3 kE3 = Vec3::UnitZ();

void report(const std::string& what, double value) {
  static const bool on = std::getenv("TB_DERIV_REPORT") != nullptr;
  if (on) std::printf("  %-72s %.3e\n", what.c_str(), value);
}

using tb::testing::displaced;
using tb::testing::family_error;
using tb::testing::newton;
using tb::testing::node_gradient;
using tb::testing::rotation_gradient;
using tb::testing::newton_matrix_by_differences;
using tb::testing::paper_parameters;
using tb::testing::residual_of;
using tb::testing::Rng;
using tb::testing::worst_node_error;

struct Scenario {
  std::string name;
  unsigned seed;
  double h;
  double dr_scale;     // discrete-Lagrangian test: node increments
  double c_scale;      // discrete-Lagrangian test: Cayley parameter of F
  double bend;         // transverse noise on element directions
  double max_strain;   // element strains drawn from [0.2, 1] * max_strain
  double v_scale;      // LGVI tests: node velocities (m/s)
  double omega_scale;  // LGVI tests: body angular velocity (rad/s)
};

const Scenario kNearStep{"near a real step", 20240611u, 1e-3, 1e-3, 1e-2, 0.3, 0.03, 0.5, 2.0};
const Scenario kLarge{"larger values", 777u, 2e-2, 5e-2, 0.4, 0.8, 0.2, 2.0, 10.0};

std::string label(const Scenario& sc, int N) { return sc.name + ", N = " + std::to_string(N); }

// Stretched, bent string hanging from the pivot: element a has length u (1 + strain_a) with
// strain_a in [0.2, 1] max_strain, direction = base + bend * noise.
std::vector<Vec3> random_nodes(const sp::Parameters& p, const Scenario& sc, Rng& rng) {
  std::vector<Vec3> r(p.N + 1, Vec3::Zero());
  const Vec3 base = Vec3(0.8, 0.3, 0.6).normalized();
  for (int a = 1; a <= p.N; ++a) {
    const Vec3 dir = (base + rng.vec(sc.bend)).normalized();
    r[a] = r[a - 1] + p.u() * (1.0 + rng.uniform(0.2, 1.0) * sc.max_strain) * dir;
  }
  return r;
}

sp::State random_state(const sp::Parameters& p, const Scenario& sc, Rng& rng) {
  sp::State s;
  s.r = random_nodes(p, sc, rng);
  s.v.assign(p.N + 1, Vec3::Zero());
  for (int a = 1; a <= p.N; ++a) s.v[a] = rng.vec(sc.v_scale);
  s.R = so3::exp(rng.vec(1.5));
  s.Omega = rng.vec(sc.omega_scale);
  return s;
}

// ---------------------------------------------------------------------------------------
// 1. Discrete Lagrangian derivatives against central finite differences of L_d.

struct Config {
  std::vector<Vec3> r, dr;
  Mat3 R, F;
  double h;
};

Config random_config(const sp::Parameters& p, const Scenario& sc) {
  Rng rng(sc.seed + 17u * unsigned(p.N));
  Config c;
  c.r = random_nodes(p, sc, rng);
  c.dr.assign(p.N + 1, Vec3::Zero());
  for (int a = 1; a <= p.N; ++a) c.dr[a] = rng.vec(sc.dr_scale);
  c.R = so3::exp(rng.vec(1.5));
  c.F = so3::cayley(rng.vec_with_norm(sc.c_scale));
  c.h = sc.h;
  return c;
}

double Ld(const sp::Parameters& p, const Config& c) {
  return sp::discrete_lagrangian(p, sp::StepConfiguration{c.r, c.dr, c.R, c.F, c.h});
}

}  // namespace

TEST_CASE("string pendulum: discrete Lagrangian derivatives match central differences of L_d",
          "[string_pendulum][derivatives]") {
  // Step 1e-6 (m and rad, both ~1e-6 of the configuration scale): truncation error ~1e-13 and
  // round-off ~eps |L_d| / 1e-6 ~1e-12 relative to the smallest derivative family. A wrong
  // factor in any term moves its family by > 1e-5 relative (the smallest term, h/4 m g e3 in
  // d_dr, is ~1e-4 of that family's scale).
  const double step = 1e-6;
  const double tol = 1e-7;
  for (const Scenario& sc : {kNearStep, kLarge}) {
    for (int N : {1, 5}) {
      const sp::Parameters p = paper_parameters(N);
      const Config c0 = random_config(p, sc);
      // The configuration is the intended one: stretched, F near identity for "near a real step".
      for (int a = 1; a <= N; ++a) REQUIRE((c0.r[a] - c0.r[a - 1]).norm() > p.u() * 1.001);
      REQUIRE(so3::is_rotation(c0.R, 1e-12));
      REQUIRE(so3::is_rotation(c0.F, 1e-12));

      sp::DiscreteLagrangianDerivatives D;
      sp::discrete_lagrangian_derivatives(p, sp::StepConfiguration{c0.r, c0.dr, c0.R, c0.F, c0.h}, D);
      REQUIRE(int(D.d_dr.size()) == N + 1);
      REQUIRE(int(D.d_r.size()) == N + 1);

      const auto L = [&](const Config& c) { return Ld(p, c); };
      // Every node, the pivot (a = 0) and the attachment (a = N) included.
      const std::vector<Vec3> fd_dr = node_gradient(c0, &Config::dr, step, L);
      const std::vector<Vec3> fd_r = node_gradient(c0, &Config::r, step, L);
      // F -> F exp(e hat(e_i)), left-trivialised; R the same at fixed F and dr.
      const Vec3 fd_F = rotation_gradient(c0, &Config::F, step, L);
      const Vec3 fd_R = rotation_gradient(c0, &Config::R, step, L);

      const double e_dr = family_error(fd_dr, D.d_dr);
      const double e_r = family_error(fd_r, D.d_r);
      const double e_F = (fd_F - D.d_F).norm() / D.d_F.norm();
      const double e_R = (fd_R - D.d_R).norm() / D.d_R.norm();
      const std::string where = label(sc, N);
      report("L_d " + where + ": d_dr, max|err| / max|d_dr|", e_dr);
      report("L_d " + where + ": d_dr, worst per-node relative error", worst_node_error(fd_dr, D.d_dr));
      report("L_d " + where + ": d_r, max|err| / max|d_r|", e_r);
      report("L_d " + where + ": d_r, worst per-node relative error", worst_node_error(fd_r, D.d_r));
      report("L_d " + where + ": d_F relative error", e_F);
      report("L_d " + where + ": d_R relative error", e_R);
      INFO(where);
      CHECK(e_dr < tol);
      CHECK(e_r < tol);
      CHECK(e_F < tol);
      CHECK(e_R < tol);
      // Per node too: a derivative that is wrong only at one node (pivot, attachment) must not
      // hide behind a larger family scale.
      CHECK(worst_node_error(fd_dr, D.d_dr) < 1e-6);
      CHECK(worst_node_error(fd_r, D.d_r) < 1e-6);
    }
  }
}

// ---------------------------------------------------------------------------------------
// 2.-3. and 5. The LGVI step in position-momentum form.

namespace {

struct Lgvi {
  sp::Parameters p;
  std::unique_ptr<tb::Formulation> form;
  const sp::LieGroupForm* lg = nullptr;
  std::unique_ptr<tb::DiscreteLieGroupStep> step;
  std::shared_ptr<const tb::Model> model;
};

Lgvi make_lgvi(int N) {
  Lgvi out;
  out.p = paper_parameters(N);
  out.model = sp::make_model(out.p, sp::InitialCondition{});
  std::string why;
  out.form = out.model->make_formulation(tb::FormulationKind::DiscreteLieGroup, why);
  REQUIRE(out.form != nullptr);
  REQUIRE(dynamic_cast<const tb::DiscreteLieGroupFormulation*>(out.form.get()) != nullptr);
  out.lg = dynamic_cast<const sp::LieGroupForm*>(out.form.get());
  REQUIRE(out.lg != nullptr);
  out.step = out.lg->make_step();
  REQUIRE(out.step != nullptr);
  REQUIRE(out.step->unknowns() == 3 * N + 3);
  return out;
}

// Discrete momentum map about e3 of a position-momentum state y = [r, R, p, Pi].
double momentum_map_e3(const sp::LieGroupForm& lg, const Eigen::VectorXd& y) {
  const int N = lg.mechanics().params().N;
  Vec3 L = Vec3::Zero();
  for (int a = 0; a < N; ++a) L += Vec3(y.segment<3>(3 * a)).cross(Vec3(y.segment<3>(3 * N + 9 + 3 * a)));
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = y(3 * N + 3 * i + j);
  return kE3.dot(L + R * Vec3(y.segment<3>(6 * N + 9)));
}

}  // namespace

TEST_CASE("string pendulum: the LGVI Newton matrix is the Jacobian of the residual",
          "[string_pendulum][derivatives][lgvi]") {
  // Central differences of residual(): it is linear in dr (exact up to round-off) and smooth
  // in c; steps 1e-7 m for dr, 1e-6 for c.
  const double tol = 1e-7;
  for (const Scenario& sc : {kNearStep, kLarge}) {
    for (int N : {1, 5}) {
      Lgvi L = make_lgvi(N);
      Rng rng(sc.seed + 31u * unsigned(N));
      const sp::State s = random_state(L.p, sc, rng);
      const Eigen::VectorXd y = L.lg->from_physical(s);
      L.step->begin(y, sc.h);
      const int n = L.step->unknowns();

      // A random x near the solution: solve, then perturb every block by ~10-30 % of its size.
      Eigen::VectorXd x;
      L.step->initial_guess(x);
      newton(*L.step, x, 8);
      const double dr_size = x.head(3 * N).cwiseAbs().maxCoeff();
      const double c_size = x.tail<3>().norm();
      for (int k = 0; k < 3 * N; ++k) x(k) += rng.uniform(-0.3, 0.3) * dr_size;
      x.tail<3>() += rng.vec(0.3 * c_size);

      const Eigen::VectorXd G = residual_of(*L.step, x);
      const Eigen::MatrixXd J =
          newton_matrix_by_differences(*L.step, x, [&](Eigen::Index k) { return k < 3 * N ? 1e-7 : 1e-6; });

      // (a) The correction at x solves J dx = -G: relative to |G|, and separately for the
      //     translational and the rotational rows (their scales differ by orders of magnitude).
      Eigen::VectorXd dx;
      REQUIRE(L.step->newton_correction(x, G, dx));
      REQUIRE(dx.size() == n);
      const Eigen::VectorXd res = J * dx + G;
      const double e_all = res.norm() / G.norm();
      const double e_trans = res.head(3 * N).norm() / G.head(3 * N).norm();
      const double e_rot = res.tail<3>().norm() / G.tail<3>().norm();

      // (b) The whole matrix: with G = e_k the correction is column k of -J_analytic^{-1}, so
      //     J_fd X = -I. Checks every block, including ones G above barely excites.
      Eigen::MatrixXd X(n, n);
      for (int k = 0; k < n; ++k) {
        Eigen::VectorXd col;
        REQUIRE(L.step->newton_correction(x, Eigen::VectorXd::Unit(n, k), col));
        X.col(k) = col;
      }
      const double e_matrix = (J * X + Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff();

      const std::string where = label(sc, N);
      report("Newton " + where + ": |J_fd dx + G| / |G|", e_all);
      report("Newton " + where + ": translational rows, relative to |G_trans|", e_trans);
      report("Newton " + where + ": rotational rows, relative to |G_rot|", e_rot);
      report("Newton " + where + ": max |J_fd J_an^-1 - I|", e_matrix);
      INFO(where);
      CHECK(e_all < tol);
      CHECK(e_trans < tol);
      CHECK(e_rot < tol);
      CHECK(e_matrix < tol);
    }
  }
}

TEST_CASE("string pendulum: the LGVI Newton iteration converges quadratically and conserves pi3",
          "[string_pendulum][derivatives][lgvi]") {
  for (const Scenario& sc : {kNearStep, kLarge}) {
    for (int N : {1, 5}) {
      Lgvi L = make_lgvi(N);
      Rng rng(sc.seed + 57u * unsigned(N));
      const sp::State s = random_state(L.p, sc, rng);
      const Eigen::VectorXd y = L.lg->from_physical(s);
      L.step->begin(y, sc.h);
      Eigen::VectorXd x;
      L.step->initial_guess(x);
      // Spoil the rotational part of the guess (|dc| = 0.2, ~10-100 times |c|) so that the
      // nonlinear (Cayley) part has to converge over several iterations.
      x.tail<3>() += rng.vec_with_norm(0.2);
      std::vector<Eigen::VectorXd> xs;
      const std::vector<double> norms = newton(*L.step, x, 8, &xs);

      const double scale = y.segment(3 * N + 9, 3 * N + 3).norm();  // the momenta G balances
      const double floor = 1e-13 * scale;                           // round-off level of |G|
      const std::string where = label(sc, N);
      INFO(where);
      std::string seq;
      for (size_t k = 0; k < norms.size(); ++k) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " (%.1e, %.1e)", norms[k] / scale, (xs[k].tail<3>() - x.tail<3>()).norm());
        seq += buf;
      }
      INFO("(|G_k| / |momenta|, |c_k - c*|):" + seq);

      // Quadratic convergence until round-off. The residual is linear in dr, so the Newton
      // error recursion is quadratic in the error of the Cayley parameter alone:
      // e_{k+1} <= C e_k^2 with e_k = |c_k - c*| (c* the converged iterate), and C = O(1)
      // (measured <= 1; the bound is C = 10). A linearly convergent iteration (a wrong
      // Jacobian with rate q) fails this as soon as e_k < q / 10.
      int checked = 0;
      double worst_C = 0.0, smallest_checked = 1.0;
      for (size_t k = 0; k + 2 < xs.size(); ++k) {
        const double ek = (xs[k].tail<3>() - x.tail<3>()).norm(), en = (xs[k + 1].tail<3>() - x.tail<3>()).norm();
        if (ek <= 1e-13) break;  // at round-off in c
        if (en > 1e-13) worst_C = std::max(worst_C, en / (ek * ek));
        smallest_checked = std::min(smallest_checked, ek);
        CHECK(en <= 10.0 * ek * ek + 1e-14);
        ++checked;
      }
      report("Newton iteration " + where + ": steps checked above round-off", checked);
      report("Newton iteration " + where + ": smallest e_k checked", smallest_checked);
      report("Newton iteration " + where + ": worst e_{k+1} / e_k^2 (e_{k+1} above round-off)", worst_C);
      report("Newton iteration " + where + ": final |G| / |momenta|", norms.back() / scale);
      CHECK(checked >= 3);
      CHECK(smallest_checked < 1e-5);  // the checks reached deep into the quadratic regime
      // and the residual reaches round-off
      CHECK(norms.back() <= floor);

      // At the solution the step conserves the discrete momentum map about e3 (SPEC: the LGVI
      // reports it, conserved to solver tolerance).
      Eigen::VectorXd y_next;
      L.step->complete(x, y_next);
      const double pi_before = momentum_map_e3(*L.lg, y), pi_after = momentum_map_e3(*L.lg, y_next);
      const double pi_scale = y.segment(3 * N + 9, 3 * N + 3).norm();  // |r| ~ 1 m
      report("Newton iteration " + where + ": |Delta pi3| / |momenta|", std::abs(pi_after - pi_before) / pi_scale);
      CHECK(std::abs(pi_after - pi_before) <= 1e-12 * pi_scale);
      // and the observation's pi3 (from the physical state) is the same momentum map
      const double observed = L.lg->observe(0.0, y_next).momentum;
      CHECK(std::abs(observed - pi_after) <= 1e-13 * pi_scale);
    }
  }
}

// ---------------------------------------------------------------------------------------
// 4. Mechanics: independent formulations of the same quantities.

TEST_CASE("string pendulum: mechanics quantities agree with independent formulations",
          "[string_pendulum][derivatives][mechanics]") {
  for (const Scenario& sc : {kNearStep, kLarge}) {
    for (int N : {1, 5}) {
      const sp::Parameters p = paper_parameters(N);
      const sp::Mechanics mech(p);
      Rng rng(sc.seed + 91u * unsigned(N));
      const sp::State s = random_state(p, sc, rng);
      const std::string where = label(sc, N);
      INFO(where);

      tb::BlockTridiagonal3 A;
      mech.assemble_mass_matrix(s.R, A);
      REQUIRE(A.blocks() == N + 1);
      auto packed_velocities = [&](const sp::State& st) {
        Eigen::VectorXd v(3 * (N + 1));
        for (int a = 2; a <= N + 1; ++a) v.segment<3>(3 * (a - 2)) = st.v[a - 1];
        v.segment<3>(3 * N) = st.Omega;
        return v;
      };
      const Eigen::VectorXd v = packed_velocities(s);

      // Mass matrix is symmetric and is the Hessian of T: T = 1/2 v^T M v, and by polarisation
      // T(v + w) - T(v) - T(w) = v^T M w for independent random v, w.
      double sym = 0.0;
      for (int i = 0; i + 1 <= N; ++i) sym = std::max(sym, (A.upper(i) - A.lower(i + 1).transpose()).cwiseAbs().maxCoeff());
      for (int i = 0; i <= N; ++i) sym = std::max(sym, (A.diag(i) - A.diag(i).transpose()).cwiseAbs().maxCoeff());
      CHECK(sym <= 1e-15);
      const double T = mech.kinetic_energy(s);
      const double e_T = std::abs(T - 0.5 * v.dot(A.multiply(v))) / T;
      CHECK(e_T < 1e-13);
      sp::State w = random_state(p, sc, rng), vw = s;
      w.r = s.r, w.R = s.R;
      for (int a = 0; a <= N; ++a) vw.v[a] = s.v[a] + w.v[a];
      vw.Omega = s.Omega + w.Omega;
      const double bilinear = packed_velocities(w).dot(A.multiply(v));
      const double e_polar =
          std::abs(mech.kinetic_energy(vw) - T - mech.kinetic_energy(w) - bilinear) / (T + mech.kinetic_energy(w));
      CHECK(e_polar < 1e-13);

      // Momenta and pi3 = e3 . (sum_a r_a x p_a + R Pi), the momentum map of rotations about e3.
      const Eigen::VectorXd mom = mech.momenta(s);
      REQUIRE(mom.size() == 3 * (N + 1));
      Vec3 Lmap = s.R * Vec3(mom.segment<3>(3 * N));
      double pi_scale = (s.R * Vec3(mom.segment<3>(3 * N))).norm();
      for (int a = 2; a <= N + 1; ++a) {
        const Vec3 ra_x_pa = s.r[a - 1].cross(Vec3(mom.segment<3>(3 * (a - 2))));
        Lmap += ra_x_pa;
        pi_scale += ra_x_pa.norm();
      }
      const double e_pi = std::abs(mech.angular_momentum_e3(s) - kE3.dot(Lmap)) / pi_scale;
      CHECK(e_pi < 1e-13);

      // Inverse Legendre transform recovers the velocities.
      sp::State back;
      back.r = s.r;
      back.R = s.R;
      mech.set_velocities_from_momenta(mom, back);
      const double e_inv = (packed_velocities(back) - v).norm() / v.norm();
      CHECK(e_inv < 1e-12);
      CHECK(back.v[0].norm() == 0.0);

      // Equations of motion: along sdot = (v, vdot, R hat(Omega), Omegadot) from accelerations(),
      //  (i) energy is stationary: dE/dt ~ 0 relative to the kinetic power dT/dt;
      //  (ii) Lagrange / Euler-Poincare equations hold, each side from finite differences of
      //       momenta(), kinetic_energy() and potential_energy() alone:
      //       dp_a/dt = -dV/dr_a (T does not depend on r),
      //       dPi/dt  = Pi x Omega + D_R (T - V) (left-trivialised, R -> R exp(e hat(z)) at fixed v, Omega).
      Eigen::VectorXd acc;
      mech.accelerations(s, acc);
      REQUIRE(acc.allFinite());
      const double et = 1e-6;  // time step of the central differences (s)
      const sp::State sp_ = displaced(s, acc, et), sm_ = displaced(s, acc, -et);
      auto energy = [&](const sp::State& st) { return mech.kinetic_energy(st) + mech.potential_energy(st); };
      const double dE = (energy(sp_) - energy(sm_)) / (2.0 * et);
      const double dT = (mech.kinetic_energy(sp_) - mech.kinetic_energy(sm_)) / (2.0 * et);
      REQUIRE(std::abs(dT) > 1e-3);  // the state is far from equilibrium: a meaningful power scale
      const double e_E = std::abs(dE) / std::abs(dT);
      CHECK(e_E < 1e-7);

      const Eigen::VectorXd dp = (mech.momenta(sp_) - mech.momenta(sm_)) / (2.0 * et);
      Eigen::VectorXd rhs(3 * (N + 1));
      const double eq = 1e-6;  // configuration step (m, rad)
      for (int a = 2; a <= N + 1; ++a) {
        for (int i = 0; i < 3; ++i) {
          sp::State qp = s, qm = s;
          qp.r[a - 1](i) += eq;
          qm.r[a - 1](i) -= eq;
          rhs(3 * (a - 2) + i) = -(mech.potential_energy(qp) - mech.potential_energy(qm)) / (2.0 * eq);
        }
      }
      Vec3 DR;
      for (int i = 0; i < 3; ++i) {
        sp::State qp = s, qm = s;
        qp.R = s.R * so3::exp(eq * Vec3::Unit(i));
        qm.R = s.R * so3::exp(-eq * Vec3::Unit(i));
        auto lagrangian = [&](const sp::State& st) { return mech.kinetic_energy(st) - mech.potential_energy(st); };
        DR(i) = (lagrangian(qp) - lagrangian(qm)) / (2.0 * eq);
      }
      rhs.segment<3>(3 * N) = Vec3(mom.segment<3>(3 * N)).cross(s.Omega) + DR;
      const double e_trans = (dp.head(3 * N) - rhs.head(3 * N)).norm() / rhs.head(3 * N).norm();
      const double e_rot = (dp.tail<3>() - rhs.tail<3>()).norm() / rhs.tail<3>().norm();
      CHECK(e_trans < 1e-7);
      CHECK(e_rot < 1e-7);

      report("mechanics " + where + ": T vs 1/2 v^T M v (relative)", e_T);
      report("mechanics " + where + ": polarisation T(v+w)-T(v)-T(w) vs v^T M w", e_polar);
      report("mechanics " + where + ": pi3 vs e3.(sum r x p + R Pi), rel. to sum of |terms|", e_pi);
      report("mechanics " + where + ": velocities from momenta(s) (relative)", e_inv);
      report("mechanics " + where + ": |dE/dt| / |dT/dt|", e_E);
      report("mechanics " + where + ": dp/dt vs -dV/dr (relative)", e_trans);
      report("mechanics " + where + ": dPi/dt vs Pi x Omega + D_R L (relative)", e_rot);
    }
  }
}

// ---------------------------------------------------------------------------------------
// 5. Discrete Legendre consistency: one LGVI step against the exact flow.

TEST_CASE("string pendulum: one LGVI step matches the exact flow to third order",
          "[string_pendulum][derivatives][lgvi]") {
  // From a random physical state, one converged LGVI step (p_{k+1} = D_dr L_d and Pi_{k+1} =
  // d_F from complete()) against the ODE flow (RK4, 64 substeps: error ~1e-17 here). A
  // second-order method has local error O(h^3) in configuration and momenta: halving h divides
  // both by ~8. Any inconsistency between L_d and the continuous Lagrangian (a wrong factor in
  // a term) leaves an O(h) or O(h^2) local error in the momenta.
  const int N = 5;
  Lgvi L = make_lgvi(N);
  Rng rng(4242u);
  const sp::State s0 = random_state(L.p, kNearStep, rng);
  std::string why;
  const auto ode_form = L.model->make_formulation(tb::FormulationKind::EmbeddedOde, why);
  REQUIRE(ode_form != nullptr);
  const auto* ode = dynamic_cast<const tb::OdeFormulation*>(ode_form.get());
  REQUIRE(ode != nullptr);
  const sp::Mechanics& mech = L.lg->mechanics();

  auto exact = [&](double h) { return mech.unpack(tb::testing::flow_by_fine_rk4(*ode, mech.pack(s0), h)); };

  struct Errors {
    double r, R, p, Pi;
  };
  auto local_errors = [&](double h) {
    const Eigen::VectorXd y0 = L.lg->from_physical(s0);
    L.step->begin(y0, h);
    Eigen::VectorXd x, y1;
    L.step->initial_guess(x);
    const std::vector<double> norms = newton(*L.step, x, 6);
    REQUIRE(norms.back() <= 1e-13 * y0.segment(3 * N + 9, 3 * N + 3).norm());
    L.step->complete(x, y1);
    const sp::State s1 = L.lg->to_physical(y1), se = exact(h);
    const Eigen::VectorXd pe = mech.momenta(se);
    Errors e{0.0, 0.0, 0.0, 0.0};
    for (int a = 1; a <= N; ++a) e.r = std::max(e.r, (s1.r[a] - se.r[a]).norm());
    e.R = so3::log(se.R.transpose() * s1.R).norm();
    e.p = (y1.segment(3 * N + 9, 3 * N) - pe.head(3 * N)).norm();
    e.Pi = (Vec3(y1.segment<3>(6 * N + 9)) - Vec3(pe.tail<3>())).norm();
    return e;
  };

  const double h1 = 2e-4, h2 = 1e-4;
  const Errors a = local_errors(h1), b = local_errors(h2);
  const double order_r = std::log2(a.r / b.r), order_R = std::log2(a.R / b.R);
  const double order_p = std::log2(a.p / b.p), order_Pi = std::log2(a.Pi / b.Pi);
  report("one step, h = 2e-4: |r - r_exact|", a.r);
  report("one step, h = 2e-4: |log(R_exact^T R)|", a.R);
  report("one step, h = 2e-4: |p - p_exact|", a.p);
  report("one step, h = 2e-4: |Pi - Pi_exact|", a.Pi);
  report("one step: local order, r", order_r);
  report("one step: local order, R", order_R);
  report("one step: local order, p", order_p);
  report("one step: local order, Pi", order_Pi);
  INFO("local orders r " << order_r << ", R " << order_R << ", p " << order_p << ", Pi " << order_Pi);
  CHECK(order_r > 2.7);
  CHECK(order_r < 3.3);
  CHECK(order_R > 2.7);
  CHECK(order_R < 3.3);
  CHECK(order_p > 2.7);
  CHECK(order_p < 3.3);
  CHECK(order_Pi > 2.7);
  CHECK(order_Pi < 3.3);
}

TEST_CASE("string pendulum, tension-only elements: L_d's, the forces' and the stiffness's derivatives with slack and taut "
          "elements against central differences",
          "[string_pendulum][derivatives][tension-only]") {
  // Issue 47: a slack element (shorter than u) contributes nothing. The configuration alternates
  // taut (+3 % strain) and slack (-3 %) elements, and the step's increments (1e-3 m) keep every
  // element on its side of the kink at both ends of the step (|strain| >> |dr| / u).
  sp::Parameters p = paper_parameters(5);
  p.tension_only = true;
  Rng rng(4711u);
  Config c;
  c.r.assign(p.N + 1, Vec3::Zero());
  const Vec3 base = Vec3(0.8, 0.3, 0.6).normalized();
  for (int a = 1; a <= p.N; ++a)
    c.r[a] = c.r[a - 1] + p.u() * (a % 2 ? 1.03 : 0.97) * (base + rng.vec(0.3)).normalized();
  c.dr.assign(p.N + 1, Vec3::Zero());
  for (int a = 1; a <= p.N; ++a) c.dr[a] = rng.vec(1e-3);
  c.R = so3::exp(rng.vec(1.5));
  c.F = so3::cayley(rng.vec_with_norm(1e-2));
  c.h = 1e-3;
  int slack = 0;
  for (int a = 1; a <= p.N; ++a) {
    const double now = (c.r[a] - c.r[a - 1]).norm(), next = (c.r[a] + c.dr[a] - c.r[a - 1] - c.dr[a - 1]).norm();
    REQUIRE((now < p.u()) == (next < p.u()));  // the same side of the kink over the step
    slack += now < p.u() ? 1 : 0;
  }
  REQUIRE(slack == 2);
  sp::DiscreteLagrangianDerivatives D;
  sp::discrete_lagrangian_derivatives(p, sp::StepConfiguration{c.r, c.dr, c.R, c.F, c.h}, D);
  const auto L = [&](const Config& x) { return Ld(p, x); };
  CHECK(family_error(node_gradient(c, &Config::dr, 1e-6, L), D.d_dr) < 1e-7);
  CHECK(family_error(node_gradient(c, &Config::r, 1e-6, L), D.d_r) < 1e-7);
  // The slack elements' strain terms are gone: L_d differs from the seed's string's by exactly them.
  sp::Parameters seed = p;
  seed.tension_only = false;
  double slack_terms = 0.0;
  for (int a = 1; a <= p.N; ++a)
    for (const Vec3& x : {Vec3(c.r[a] - c.r[a - 1]), Vec3(c.r[a] + c.dr[a] - c.r[a - 1] - c.dr[a - 1])})
      if (x.norm() < p.u()) slack_terms += 0.25 * p.kappa() * std::pow(x.norm() - p.u(), 2);
  CHECK(Ld(seed, c) + c.h * slack_terms == Approx(Ld(p, c)).epsilon(1e-14));

  // The semi-discrete mechanics: string_forces = -dV/dr (V's strain energy without the slack
  // elements) and element_stiffness = dF/dx on either side of the kink.
  const sp::Mechanics mech(p);
  sp::State s;
  s.r = c.r;
  s.v.assign(p.N + 1, Vec3::Zero());
  s.R = c.R;
  s.Omega = Vec3::Zero();
  Eigen::VectorXd f;
  mech.string_forces(s.r, f);
  for (int a = 1; a < p.N; ++a)  // the nodes below the pivot, the attachment's body terms aside
    for (int i = 0; i < 3; ++i) {
      sp::State plus = s, minus = s;
      plus.r[a](i) += 1e-6;
      minus.r[a](i) -= 1e-6;
      const double dV = (mech.potential_energy(plus) - mech.potential_energy(minus)) / 2e-6;
      CHECK(f(3 * (a - 1) + i) == Approx(-dV).margin(1e-6 * f.cwiseAbs().maxCoeff()));
    }
  for (int a = 1; a <= p.N; ++a) {
    const Vec3 x = c.r[a] - c.r[a - 1];
    const Mat3 K = mech.element_stiffness(x);
    for (int i = 0; i < 3; ++i) {
      Vec3 e = Vec3::Zero();
      e(i) = 1e-6;
      const Vec3 dF = (mech.element_force(x + e) - mech.element_force(x - e)) / 2e-6;
      CHECK((K.col(i) - dF).norm() <= 1e-6 * p.kappa());
    }
    if (x.norm() < p.u()) CHECK(K.norm() == 0.0);
  }
}
