// Model B's Baumgarte-stabilised index-1 DAE (SPEC "Formulations", seed 004 §§2-3): the
// analytic iteration matrix (string, reel with its configuration-dependent mass matrix, Carnot
// and control work, attached body) against central finite differences, its band, the
// consistent initial values (a cross-check of the DAE against the ODE's equations) and the
// observables.
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "mechanics/body_shapes.hpp"
#include "tests/reel_support.hpp"
#include "numerics/lie_group.hpp"
#include "models/reel_pendulum/forms.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"
#include "conformance/dae_checks.hpp"
#include "tests/dae_end_to_end.hpp"

using tb::Mat3;
using tb::Vec3;
namespace rp = tb::reel_pendulum;
using tb::BaumgarteParameters;

namespace {

void report(const char* what, double value) {
  static const bool on = std::getenv("TB_DERIV_REPORT") != nullptr;
  if (on) std::printf("  %-72s %.3e\n", what, value);
}

// SPEC "Model B" parameters (seed 002 §4) with N elements; u = 2.09 N m as in case 3.
rp::Parameters reel_parameters(int N, bool locked) { return tb::testing::spec_reel_parameters(N, locked, 2.09); }

// Case 3's initial condition (string at 15 degrees from the vertical), optionally spinning.
rp::InitialCondition reel_initial(bool spinning) {
  rp::InitialCondition ic;
  ic.s0 = 90.0;
  const double a = 15.0 * M_PI / 180.0;
  ic.string_direction = Vec3(std::sin(a), 0.0, std::cos(a));
  ic.body_velocity = Vec3(0.0, 0.5, 0.0);
  if (spinning) {
    ic.R0 = tb::so3::exp(Vec3(0.3, -0.2, 0.5));
    ic.Omega0 = Vec3(1.5, -2.0, 3.0);
  }
  return ic;
}

// Stretched, bent, moving string; reel turning and accelerating; body off the constraint with
// R off SO(3); nonzero multipliers and derivatives.
void random_state(const rp::DaeForm& form, unsigned seed, Eigen::VectorXd& y, Eigen::VectorXd& yp) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  auto vec = [&](double s) { return Vec3(s * U(g), s * U(g), s * U(g)); };
  const auto& p = form.mechanics().params();
  y.resize(form.state_size());
  yp.resize(form.state_size());
  for (int i = 0; i < yp.size(); ++i) yp(i) = U(g);
  const double s = form.free_reel() ? 88.0 : 90.0;  // locked: the form's s_p0
  const double l = (p.L - s) / p.N;
  Vec3 q = Vec3::Zero();
  for (int j = 2; j <= p.N + 1; ++j) {
    q += (1.0 + 0.05 * (1.0 + U(g))) * l * (Vec3(0.3, 0.1, 0.9) + vec(0.3)).normalized();
    y.segment<3>(form.node_offset(j)) = q;
    y.segment<3>(form.node_offset(j) + 3) = vec(0.5);
  }
  const int B = form.body_offset();
  const Mat3 R = tb::so3::exp(vec(1.0)) + 1e-3 * Mat3::Random();
  y.segment<3>(B) = q + R * p.rho_c + vec(1e-3);
  y.segment<3>(B + 3) = vec(0.5);
  y.segment<3>(B + 6) = vec(2.0);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) y(B + 9 + 3 * i + k) = R(i, k);
  y.segment<3>(B + 18) = vec(3.0);
  if (form.free_reel()) {
    const int E = form.reel_offset();
    y(E) = s;
    y(E + 1) = 0.7;
    y(E + 2) = -0.3;
    y(E + 3) = 1.1;
  }
}

}  // namespace

TEST_CASE("Model B DAE: analytic iteration matrix against central differences, for several cj", "[reel_pendulum][dae]") {
  for (bool locked : {false, true}) {
    for (int N : {1, 2, 5}) {
      rp::DaeForm form(reel_parameters(N, locked), reel_initial(false));
      Eigen::VectorXd y, yp;
      random_state(form, 1234u + unsigned(N) + (locked ? 100u : 0u), y, yp);
      for (const BaumgarteParameters b : {BaumgarteParameters{0.0, 0.0}, BaumgarteParameters{20.0, 5.0}}) {
        for (double cj : {0.0, 1.0, 3.7e2, 1e5}) {
          const Eigen::MatrixXd J = tb::conformance::dae_jacobian_dense(form, 0.2, y, yp, cj, b);
          const Eigen::MatrixXd Jfd = tb::conformance::dae_jacobian_fd(form, 0.2, y, yp, cj, b);
          const double err = tb::conformance::dae_jacobian_row_relative_error(J, Jfd);
          char what[160];
          std::snprintf(what, sizeof what, "%s, N = %d, p = %g, gamma = %g, cj = %g: row-relative error",
                        locked ? "locked" : "free", N, b.p, b.gamma, cj);
          report(what, err);
          INFO(what);
          CHECK(err < 1e-6);  // round-off of the differences; a wrong term is O(1)
        }
      }
    }
  }
}

TEST_CASE("Model B DAE: band of the iteration matrix (locked: Model A's - free: bordered, full)", "[reel_pendulum][dae]") {
  const BaumgarteParameters b{10.0, 3.0};
  for (bool locked : {true, false}) {
    rp::DaeForm form(reel_parameters(6, locked), reel_initial(true));
    Eigen::VectorXd y, yp;
    random_state(form, 55u, y, yp);
    const Eigen::MatrixXd J = tb::conformance::dae_jacobian_dense(form, 0.0, y, yp, 50.0, b);
    const Eigen::MatrixXd Jfd = tb::conformance::dae_jacobian_fd(form, 0.0, y, yp, 50.0, b);
    INFO((locked ? "locked" : "free"));
    CHECK(tb::conformance::entries_outside_band(J, form.lower_bandwidth(), form.upper_bandwidth(), 0.0) == 0);
    CHECK(tb::conformance::entries_outside_band(Jfd, form.lower_bandwidth(), form.upper_bandwidth(), 1e-6) == 0);
    const auto [lower, upper] = tb::conformance::measured_bandwidths(J, 0.0);
    CHECK(lower == form.lower_bandwidth());
    CHECK(upper == form.upper_bandwidth());
  }
  // Locked, the band does not grow with N (IDA's band solver is O(N)); free, the reel's border
  // makes it span the system.
  CHECK(rp::DaeForm(reel_parameters(20, true), reel_initial(false)).lower_bandwidth() == 14);
  rp::DaeForm free20(reel_parameters(20, false), reel_initial(false));
  CHECK(free20.lower_bandwidth() == free20.state_size() - 2);
}

TEST_CASE("Model B DAE: consistent initial values solve F(t0, y0, y0') = 0 to round-off", "[reel_pendulum][dae]") {
  for (bool locked : {false, true}) {
    for (bool spinning : {false, true}) {
      for (int N : {1, 20}) {
        rp::DaeForm form(reel_parameters(N, locked), reel_initial(spinning));
        for (const BaumgarteParameters b : {BaumgarteParameters{0.0, 0.0}, BaumgarteParameters{50.0, 10.0}}) {
          const Eigen::VectorXd y0 = form.consistent_initial_state(b);
          const Eigen::VectorXd yp0 = form.consistent_initial_derivative(b);
          Eigen::VectorXd F;
          form.residual(0.0, y0, yp0, b, F);
          INFO((locked ? "locked" : "free") << ", spinning " << spinning << ", N = " << N << ", p = " << b.p
                                            << ", |F|_inf = " << F.lpNorm<Eigen::Infinity>());
          // Round-off: 1e-12 from the equations of motion, plus p^2 times the round-off of C
          // (positions up to ~10 m).
          CHECK(F.lpNorm<Eigen::Infinity>() < 1e-12 + 1e-14 * b.p * b.p);
        }
      }
    }
  }
}

TEST_CASE("Model B DAE: initial physical state and observables equal the ODE form's", "[reel_pendulum][dae]") {
  for (bool locked : {false, true}) {
    INFO((locked ? "locked" : "free"));
    const auto p = reel_parameters(20, locked);
    const auto ic = reel_initial(true);
    rp::DaeForm form(p, ic);
    rp::OdeForm ode(p, ic);
    const Eigen::VectorXd y0 = form.initial_state();
    CHECK((form.physical_state(y0) - ode.initial_state()).lpNorm<Eigen::Infinity>() < 1e-14);
    const tb::Observation a = form.observe(0.0, y0), o = ode.observe(0.0, ode.initial_state());
    CHECK(a.energy == Approx(o.energy).epsilon(1e-14));
    CHECK(a.momentum == Approx(o.momentum).epsilon(1e-14));
    CHECK(a.external_work == 0.0);
    CHECK(a.constraint_err < 1e-14);  // round-off of x_c - R rho_c against q_{N+1} ~ 10 m
    CHECK(a.constraint_rate_err < 1e-15);
    CHECK(form.differential_components().sum() == form.state_size() - 3);
    CHECK(form.state_size() == 6 * p.N + 21 + (locked ? 0 : 4));
  }
}

// ---------------------------------------------------------------------------------------------
// End to end under ida, on paper case 3 (cases/B_reel_retrieval.toml: free reel, control moment,
// Carnot loss).

namespace {

const std::string kCaseB = std::string(TETHERBENCH_CASES_DIR) + "/B_reel_retrieval.toml";

void move_off_manifold(const rp::DaeForm& form, double delta, double eps, Eigen::VectorXd& y) {
  const int B = form.body_offset();
  y.segment<3>(B) += delta * Vec3(1.0, 2.0, 2.0) / 3.0;
  Mat3 S;
  S << 1.0, 0.3, -0.2, 0.3, -0.5, 0.1, -0.2, 0.1, 0.7;
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) R(i, k) = y(B + 9 + 3 * i + k);
  R = R * (Mat3::Identity() + eps * S);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) y(B + 9 + 3 * i + k) = R(i, k);
}

}  // namespace

TEST_CASE("Model B DAE under ida: a start off the constraints decays as Baumgarte's closed form", "[reel_pendulum][dae][ida]") {
  const tb::Case c = tb::testing::load_case(kCaseB);
  const double T = 0.2, delta = 1e-5, eps = 5e-8;
  for (const auto& [p, gamma] : {std::pair{0.0, 0.0}, std::pair{20.0, 0.0}, std::pair{0.0, 20.0}, std::pair{20.0, 20.0}}) {
    auto base = tb::testing::formulation_for(*c.model, tb::testing::integrator("ida"));
    const auto& dae_form = dynamic_cast<const rp::DaeForm&>(*base);
    tb::testing::PerturbedStart form(std::move(base), [&](Eigen::VectorXd& y) { move_off_manifold(dae_form, delta, eps, y); });
    const auto run = tb::testing::run_dae(form, tb::testing::ida_settings(c, p, gamma, 1e-8), T);
    REQUIRE(run.ok);
    tb::testing::check_baumgarte_closed_forms("Model B", run, p, gamma, dae_form.body());
  }
}

TEST_CASE("Model B DAE under ida: on case 3 p, gamma > 0 bound the drift that grows with p = gamma = 0", "[reel_pendulum][dae][ida]") {
  const tb::Case c = tb::testing::load_case(kCaseB);
  const double T = 2.0;
  const auto plain = tb::testing::run_dae(c, tb::testing::ida_settings(c, 0.0, 0.0, 1e-6), T);
  const auto stabilised = tb::testing::run_dae(c, tb::testing::ida_settings(c, 50.0, 50.0, 1e-6), T);
  REQUIRE(plain.ok);
  REQUIRE(stabilised.ok);
  // Measured: |C| p = 0: 1.7e-10 over the first fifth, 8.8e-7 over the last; p = 50: at most
  // 6.0e-8 over the second half. Orthogonality mean over the second half: 2.2e-9 (gamma = 0),
  // 8.5e-10 (gamma = 50).
  tb::testing::check_drift("Model B case 3, ida rtol 1e-6", plain, stabilised, T);
}

TEST_CASE("Model B DAE under ida: the final state agrees with tight rk45 to ida's tolerance", "[reel_pendulum][dae][ida]") {
  const tb::Case c = tb::testing::load_case(kCaseB);
  const double T = 0.5;
  const Eigen::VectorXd reference = tb::testing::reference_solution(*c.model, T);  // rk45, rtol 1e-13
  // Measured max |difference| (largest in a string node's velocity), KLU (the default): 7.4e-6
  // (rtol 1e-6), 1.8e-6 (1e-8); band LU: 8.6e-5, 2.1e-6. BDF's global error is not proportional
  // to rtol (the two linear solvers' round-off alone moves the loose run's error 10x), so what
  // is asserted is the bound at each tolerance and that the tighter run is closer.
  double previous = 0.0;
  for (const double rtol : {1e-6, 1e-8}) {
    const auto run = tb::testing::run_dae(c, tb::testing::ida_settings(c, 10.0, 10.0, rtol), T);
    REQUIRE(run.ok);
    const double err = (run.physical - reference).lpNorm<Eigen::Infinity>();
    Eigen::Index worst = 0;
    (run.physical - reference).cwiseAbs().maxCoeff(&worst);
    std::printf("Model B case 3, %g s: ida rtol %g (%ld steps) vs rk45 rtol 1e-13: max |physical state difference| %.2e (component %ld)\n",
                T, rtol, run.steps, err, long(worst));
    CHECK(err < (rtol == 1e-6 ? 3e-4 : 1e-5));
    if (previous > 0.0) CHECK(err < previous);
    previous = err;
  }
}
