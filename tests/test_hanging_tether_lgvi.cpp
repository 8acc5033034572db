// The hanging tether's variational integrator (models/hanging_tether/lie_group_form.cpp, the shared
// step mechanics/trapezoidal_vector_space_step.hpp): the trapezoidal discrete Lagrangian in the
// node positions with the damping by the discrete Lagrange-d'Alembert principle.
//   1. Its discrete forced Legendre transforms and its dissipated work against central differences
//      of L_d built here from the model's energies, and its Newton matrix against central
//      differences of its residual (both discretisations, damped);
//   2. undamped, it is Stoermer-Verlet, i.e. RATTLE on the constrained form: they agree to
//      round-off, and its energy error stays bounded (no drift) over a long run;
//   3. in the linear limit (a small displacement along a mode about the static equilibrium) it
//      follows the exact damped oscillator a(t) = A e^{-zeta t/2} (cos w_d t + zeta/(2 w_d) sin w_d t);
//   4. on the bundled damped cases, over their horizon, its energy balance E - E0 + W is bounded
//      and second order (lgvi) and fourth order (lgvi4) in h, with the orders measured.
// (Symmetry, the round trip, the round-off floor and the self-convergence orders on the fixtures
// are the generic LGVI tests': test_lgvi_composition.cpp, test_lgvi_roundoff.cpp.)

#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <random>

#include "core/composition.hpp"
#include "core/metrics.hpp"
#include "integrators/lgvi_step_solver.hpp"
#include "models/hanging_tether/model.hpp"
#include "models/hanging_tether/shapes.hpp"
#include "models/hanging_tether/static_equilibrium.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;
namespace ht = tb::hanging_tether;

namespace {

ht::Parameters small_tether(int N, ht::Discretisation d, double zeta) {
  ht::Parameters p;
  p.N = N;
  p.mu = 0.5;
  p.length = 4.0;
  p.EA = 300.0;
  p.g = 9.81;
  p.A = Vec3(0.2, -0.1, 0.3);
  p.B = Vec3(3.0, 0.8, 0.5);
  p.damping_rate = zeta;
  p.discretisation = d;
  return p;
}

std::unique_ptr<ht::LieGroupTetherForm> lgvi_form(const ht::Parameters& p, ht::InitialShape shape) {
  return std::make_unique<ht::LieGroupTetherForm>(p, shape);
}

// A generic state: nodes off the parabola by a few percent of an element, random momenta, some work done.
Eigen::VectorXd random_lgvi_state(const ht::LieGroupTetherForm& form, unsigned seed) {
  const ht::Parameters& p = form.mechanics().params();
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Eigen::VectorXd y = form.initial_state();
  const int n = 3 * (p.N - 1);
  const std::vector<Vec3> r = ht::parabola_shape(p, p.length);
  for (int j = 1; j < p.N; ++j) y.segment<3>(3 * (j - 1)) = r[j] + 0.05 * p.u() * Vec3(U(g), U(g), U(g));
  for (int i = 0; i < n; ++i) y(n + i) = 0.3 * U(g);
  y(2 * n) = 0.4;
  return y;
}

// L_d(q0, q1) = 1/(2h) dq^T M dq - h/2 (V(q0) + V(q1)), from the model's mass matrix and potential.
double discrete_lagrangian(const ht::Mechanics& mech, const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, double h) {
  const Eigen::VectorXd dq = q1 - q0;
  auto V = [&](const Eigen::VectorXd& q) {
    ht::State s;
    s.r = mech.nodes_from_free(0.0, q);
    return mech.potential_energy(s);
  };
  return dq.dot(mech.mass_matrix().multiply(dq)) / (2.0 * h) - 0.5 * h * (V(q0) + V(q1));
}

// One LGVI step from y (the solver the integrators use).
Eigen::VectorXd lgvi_step(const DiscreteLieGroupFormulation& form, const Eigen::VectorXd& y, double h) {
  StepCounters counters;
  LgviStepSolver solver(form, settings_of("lgvi", h), counters);
  StepFailure failure;
  Eigen::VectorXd next;
  INFO(failure.reason);
  REQUIRE(solver.solve(0.0, y, h, next, failure));
  return next;
}

}  // namespace

TEST_CASE("tether LGVI: the discrete forced Legendre transforms and the dissipated work match central differences of L_d",
          "[hanging-tether][lgvi][derivatives]") {
  // p_k = -D_1 L_d - f_d^-, p_{k+1} = D_2 L_d + f_d^+ with f_d^- = f_d^+ = -(zeta/2) M dq (Marsden &
  // West 2001 (3.2.7)), and W_{k+1} - W_k = -(f_d^- + f_d^+) . dq / h. D L_d by central differences
  // of L_d (the model's potential energy, not its forces), step 1e-6 m. Measured: max relative
  // error 9e-11 (full), 9e-11 (lumped), the FD truncation and round-off of L_d; the work 9e-15, 1e-15.
  for (auto d : {ht::Discretisation::Full, ht::Discretisation::Lumped}) {
    const ht::Parameters p = small_tether(5, d, 0.7);
    const auto form = lgvi_form(p, ht::InitialShape::Parabola);
    const ht::Mechanics& mech = form->mechanics();
    const int n = 3 * (p.N - 1);
    const double h = 1e-3;
    const Eigen::VectorXd y0 = random_lgvi_state(*form, 11u);
    const Eigen::VectorXd y1 = lgvi_step(*form, y0, h);
    const Eigen::VectorXd q0 = y0.head(n), q1 = y1.head(n), dq = q1 - q0;
    const Eigen::VectorXd f_d = -0.5 * p.damping_rate * mech.mass_matrix().multiply(dq);  // f_d^- = f_d^+
    Eigen::VectorXd D1(n), D2(n);
    const double e = 1e-6;
    for (int i = 0; i < n; ++i) {
      Eigen::VectorXd a = q0, b = q0;
      a(i) += e, b(i) -= e;
      D1(i) = (discrete_lagrangian(mech, a, q1, h) - discrete_lagrangian(mech, b, q1, h)) / (2 * e);
      a = q1, b = q1;
      a(i) += e, b(i) -= e;
      D2(i) = (discrete_lagrangian(mech, q0, a, h) - discrete_lagrangian(mech, q0, b, h)) / (2 * e);
    }
    const Eigen::VectorXd pk = -D1 - f_d, pk1 = D2 + f_d;
    const double err_k = (pk - y0.segment(n, n)).lpNorm<Eigen::Infinity>() / y0.segment(n, n).lpNorm<Eigen::Infinity>();
    const double err_k1 = (pk1 - y1.segment(n, n)).lpNorm<Eigen::Infinity>() / y1.segment(n, n).lpNorm<Eigen::Infinity>();
    const double work = -(2.0 * f_d).dot(dq) / h;
    const double err_w = std::abs((y1(2 * n) - y0(2 * n)) - work) / std::abs(work);
    std::printf("tether LGVI %-6s: FD of L_d vs p_k %.1e, p_k+1 %.1e; dissipated work per step %.3e J, error %.1e\n",
                ht::to_string(d).c_str(), err_k, err_k1, work, err_w);
    CHECK(work > 0.0);
    CHECK(err_k < 1e-6);
    CHECK(err_k1 < 1e-6);
    CHECK(err_w < 1e-12);
  }
}

TEST_CASE("tether LGVI: the Newton matrix is the derivative of the residual (central differences, column by column)",
          "[hanging-tether][lgvi][derivatives]") {
  // J_fd(:, j) = (G(x + e e_j) - G(x - e e_j)) / (2e), e = 1e-7 |x|; newton_correction(v) = -J^{-1} v,
  // so J_fd times it must give -v. Measured: max relative error 1.0e-9 (full), 4.5e-10 (lumped).
  // A Newton matrix without the damping's zeta/2 M term misses by zeta h / 2 ~ 4e-4.
  for (auto d : {ht::Discretisation::Full, ht::Discretisation::Lumped}) {
    const ht::Parameters p = small_tether(5, d, 0.7);
    const auto form = lgvi_form(p, ht::InitialShape::Parabola);
    const double h = 1e-3;
    auto step = form->make_step();
    step->begin(random_lgvi_state(*form, 5u), h);
    Eigen::VectorXd x;
    step->initial_guess(x);
    const int n = step->unknowns();
    const double e = 1e-7 * x.lpNorm<Eigen::Infinity>();
    Eigen::MatrixXd J(n, n);
    for (int j = 0; j < n; ++j) {
      Eigen::VectorXd a = x, b = x, Ga, Gb;
      a(j) += e, b(j) -= e;
      step->residual(a, Ga);
      step->residual(b, Gb);
      J.col(j) = (Ga - Gb) / (2 * e);
    }
    std::mt19937 gen(3u);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    double worst = 0.0;
    for (int trial = 0; trial < 3; ++trial) {
      Eigen::VectorXd v(n), dx;
      for (int i = 0; i < n; ++i) v(i) = U(gen);
      REQUIRE(step->newton_correction(x, v, dx));
      worst = std::max(worst, (J * dx + v).lpNorm<Eigen::Infinity>() / v.lpNorm<Eigen::Infinity>());
    }
    std::printf("tether LGVI %-6s: |J_fd J^-1 v + v| / |v| = %.1e\n", ht::to_string(d).c_str(), worst);
    CHECK(worst < 1e-6);
  }
}

TEST_CASE("tether LGVI: undamped it is Stoermer-Verlet - RATTLE's states to round-off - and its energy does not drift",
          "[hanging-tether][lgvi][energy]") {
  for (auto d : {ht::Discretisation::Full, ht::Discretisation::Lumped}) {
    const ht::Parameters p = small_tether(8, d, 0.0);
    const auto model = ht::make_model(p, ht::InitialShape::Straight);
    const double h = 1e-3;
    // The same physical states over the first 20 steps (later, round-off differences of the two
    // evaluation orders grow with the compressed release's nonlinear motion: 7.5e-9 after 1 s).
    auto lg = formulation_for(*model, integrator("lgvi"));
    auto ra = formulation_for(*model, integrator("rattle"));
    const IntegrationOutcome a = integrate(*lg, integrator("lgvi"), settings_of("lgvi", h), 20 * h, h, {});
    const IntegrationOutcome b = integrate(*ra, integrator("rattle"), settings_of("rattle", h), 20 * h, h, {});
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    const Eigen::VectorXd sa = lg->physical_state(a.final_state), sb = ra->physical_state(b.final_state);
    const double diff = (sa - sb).lpNorm<Eigen::Infinity>() / sb.lpNorm<Eigen::Infinity>();
    // Energy over 40 s (the slowest swing ~1.4 s): the error of the first 10 s bounds the last 10 s'.
    double first = 0.0, last = 0.0, E0 = 0.0, kinetic = 0.0;
    bool started = false;
    const IntegrationOutcome c = integrate(*lg, integrator("lgvi"), settings_of("lgvi", h), 40.0, 0.01,
                                           [&](double t, const Eigen::VectorXd& y) {
                                             const Observation o = lg->observe(t, y);
                                             if (!started) E0 = o.energy, started = true;
                                             kinetic = std::max(kinetic, o.kinetic);
                                             const double err = std::abs(o.energy - E0);
                                             if (t <= 10.0) first = std::max(first, err);
                                             if (t >= 30.0) last = std::max(last, err);
                                           });
    REQUIRE(c.ok());
    std::printf("tether LGVI %-6s undamped: |lgvi - rattle| = %.1e (relative, 20 steps); max |E - E0| %.2e J (0-10 s), "
                "%.2e J (30-40 s), max T %.2f J\n",
                ht::to_string(d).c_str(), diff, first, last, kinetic);
    // Measured: 3e-16 / 0 relative; max |E - E0| 7.5e-2 J (0-10 s), 5.7e-2 J (30-40 s) of max T 50 J
    // (full), 3.7e-2 J, 2.4e-2 J of 48 J (lumped).
    CHECK(diff < 1e-13);
    CHECK(kinetic > 1.0);              // it swings
    CHECK(last < 1.5 * first);         // bounded, no drift
    CHECK(first < 3e-3 * kinetic);     // O(h^2)
  }
}

TEST_CASE("tether LGVI: in the linear limit a mode decays as the exact damped oscillator", "[hanging-tether][lgvi][exact]") {
  // Mass-proportional damping -zeta M v keeps the undamped modes: about the static equilibrium
  // r*, a displacement eps phi along a mode (K phi = w^2 M phi, K the tangent stiffness, phi^T M phi = 1)
  // has modal coordinate a = phi^T M (r - r*) with a'' + zeta a' + w^2 a = 0, so from rest
  // a(t) = eps e^{-zeta t/2} (cos w_d t + zeta/(2 w_d) sin w_d t), w_d^2 = w^2 - zeta^2/4.
  // At eps = 1e-6 m the nonlinearity is ~1e-6 of a; at h = 1e-3 the scheme's phase error (w h)^2/24 w t
  // ~1e-5. Measured max |a - a_exact| / eps over 3 s: lgvi 8.5e-7 (full), 8.1e-7 (lumped); lgvi4
  // 1.9e-9, 2.0e-9; with zeta off by 10% the same comparison gives 3.4e-2.
  for (auto d : {ht::Discretisation::Full, ht::Discretisation::Lumped}) {
    const ht::Parameters p = small_tether(6, d, 1.2);
    const auto form = lgvi_form(p, ht::InitialShape::Parabola);
    const ht::Mechanics& mech = form->mechanics();
    const int n = 3 * (p.N - 1);
    const ht::StaticSolution st = ht::solve_static_equilibrium(mech);
    BlockTridiagonal3 S;
    mech.assemble_tangent_stiffness(st.r, S);
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n), M(n, n);
    for (int j = 0; j < n; ++j) {
      K.col(j) = S.multiply(Eigen::VectorXd::Unit(n, j));
      M.col(j) = mech.mass_matrix().multiply(Eigen::VectorXd::Unit(n, j));
    }
    const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eig(K, M);
    REQUIRE(eig.info() == Eigen::Success);
    const Eigen::VectorXd phi = eig.eigenvectors().col(0);  // M-normalised by the solver
    const double w = std::sqrt(eig.eigenvalues()(0)), zeta = p.damping_rate;
    const double wd = std::sqrt(w * w - 0.25 * zeta * zeta);
    const double eps = 1e-6;
    Eigen::VectorXd r_star(n);
    for (int j = 1; j < p.N; ++j) r_star.segment<3>(3 * (j - 1)) = st.r[j];
    Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * n + 1);
    y.head(n) = r_star + eps * phi;
    const Eigen::VectorXd Mphi = M * phi;
    auto exact = [&](double t, double rate) {
      return eps * std::exp(-0.5 * rate * t) * (std::cos(wd * t) + 0.5 * rate / wd * std::sin(wd * t));
    };
    for (const std::string name : {"lgvi", "lgvi4"}) {
      // From the displaced state (not the form's initial one): lgvi's step, or lgvi4's composition
      // of it (Suzuki's substeps, one solver per substep as integrators/lgvi4 does).
      double worst = 0.0, worst_wrong = 0.0;
      const double h = 1e-3;
      const std::vector<double> g = name == "lgvi" ? std::vector<double>{1.0} : fourth_order_composition(kSuzuki);
      StepCounters counters;
      std::vector<std::unique_ptr<LgviStepSolver>> stages;
      for (std::size_t i = 0; i < g.size(); ++i)
        stages.push_back(std::make_unique<LgviStepSolver>(*form, settings_of("lgvi", h), counters));
      Eigen::VectorXd state = y, next;
      double t_stage = 0.0;
      for (int k = 1; k <= 3000; ++k) {
        for (std::size_t i = 0; i < g.size(); ++i) {
          StepFailure failure;
          INFO(failure.reason);
          REQUIRE(stages[i]->solve(t_stage, state, g[i] * h, next, failure));
          stages[i]->commit();
          state = next;
          t_stage += g[i] * h;
        }
        const double t = k * h, a = Mphi.dot(state.head(n) - r_star);
        worst = std::max(worst, std::abs(a - exact(t, zeta)) / eps);
        worst_wrong = std::max(worst_wrong, std::abs(a - exact(t, 1.1 * zeta)) / eps);
      }
      std::printf("tether LGVI %-6s %-5s linear limit: w = %.4f rad/s, zeta = %.2f/s: max |a - a_exact| / eps = %.1e "
                  "(with 1.1 zeta: %.1e)\n",
                  ht::to_string(d).c_str(), name.c_str(), w, zeta, worst, worst_wrong);
      CHECK(worst < (name == "lgvi" ? 1e-5 : 2e-8));
      CHECK(worst_wrong > 1e-2);
    }
  }
}

TEST_CASE("tether LGVI: on the bundled damped cases the energy balance is bounded, 2nd order (lgvi) and 4th (lgvi4)",
          "[hanging-tether][lgvi][energy][order]") {
  // max |E(t) - E(0) + W(t)| over the case's horizon (4 s, N = 20, zeta = 4/s, released from the
  // compressed chord) at the case's h and at h/2: the ratio is 2^p for a method of order p.
  // Measured at h = 1e-3 (h/2), J, of ~178 J (full) and ~174 J (lumped) dissipated:
  //   full:   lgvi 9.07e-2 (2.27e-2), lgvi4 6.55e-5 (4.11e-6), rattle 1.53e-1 (3.82e-2);
  //   lumped: lgvi 1.75e-2 (4.37e-3), lgvi4 6.63e-6 (4.15e-7), rattle 3.50e-2 (8.75e-3).
  for (const char* file : {"T_hanging_tether_full.toml", "T_hanging_tether_lumped.toml"}) {
    const Case c = load_case(std::string(TETHERBENCH_CASES_DIR) + "/" + file);
    for (const std::string name : {"lgvi", "lgvi4", "rattle"}) {
      double err[2] = {0.0, 0.0}, dissipated = 0.0;
      for (int i = 0; i < 2; ++i) {
        const IntegratorInfo& info = integrator(name);
        auto form = formulation_for(*c.model, info);
        MetricsAccumulator metrics;
        const IntegrationOutcome out = integrate(*form, info, settings_of(info, c.h / (1 << i)), c.t_end, c.sample_interval,
                                                 [&](double t, const Eigen::VectorXd& y) { metrics.add(t, form->observe(t, y)); });
        REQUIRE(out.ok());
        err[i] = metrics.result().energy_err_max;
        dissipated = -form->observe(c.t_end, out.final_state).external_work;
      }
      const double order = std::log2(err[0] / err[1]);
      std::printf("%-30s %-6s: max |E - E0 + W| = %.3e J (h = %.0e), %.3e J (h/2): order %.2f; dissipated %.2f J\n", file,
                  name.c_str(), err[0], c.h, err[1], order, dissipated);
      CHECK(dissipated > 10.0);  // the damping does work: the balance is not the energy alone
      if (name == "lgvi") CHECK(std::abs(order - 2.0) < 0.25);
      if (name == "lgvi4") CHECK(std::abs(order - 4.0) < 0.4);
      if (name == "lgvi") CHECK(err[0] < 1e-3 * dissipated);
      if (name == "lgvi4") CHECK(err[0] < 1e-6 * dissipated);
    }
  }
}
