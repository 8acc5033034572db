// Model A's Baumgarte-stabilised index-1 DAE (SPEC "Formulations", seed 004 §§2-3): the
// analytic iteration matrix against central finite differences, its band, the consistent
// initial values (which cross-check the DAE's equations, with J about the centre of mass and
// the multiplier, against the ODE's, with J about the attachment point) and the observables.
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "numerics/lie_group.hpp"
#include "models/string_pendulum/forms.hpp"
#include "conformance/dae_checks.hpp"
#include "tests/dae_end_to_end.hpp"
#include "tests/test_support.hpp"

using tb::Mat3;
using tb::Vec3;
namespace sp = tb::string_pendulum;
using tb::BaumgarteParameters;

namespace {

void report(const char* what, double value) {
  static const bool on = std::getenv("TB_DERIV_REPORT") != nullptr;
  if (on) std::printf("  %-64s %.3e\n", what, value);
}

// A state away from every special point: stretched, bent string; moving nodes; the body off
// the constraint (C, C' != 0) with R off SO(3) (so Xi != 0), spinning; nonzero multipliers and
// derivatives.
void random_state(const sp::DaeForm& form, unsigned seed, Eigen::VectorXd& y, Eigen::VectorXd& yp) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  auto vec = [&](double s) { return Vec3(s * U(g), s * U(g), s * U(g)); };
  const auto& p = form.mechanics().params();
  y.resize(form.state_size());
  yp.resize(form.state_size());
  for (int i = 0; i < yp.size(); ++i) yp(i) = U(g);
  Vec3 r = Vec3::Zero();
  for (int a = 2; a <= p.N + 1; ++a) {
    r += 1.1 * p.u() * (Vec3(0.6, 0.1, 0.8) + vec(0.3)).normalized();
    y.segment<3>(form.node_offset(a)) = r;
    y.segment<3>(form.node_offset(a) + 3) = vec(0.5);
  }
  const int B = form.body_offset();
  const Mat3 R = tb::so3::exp(vec(1.0)) + 1e-3 * Mat3::Random();
  y.segment<3>(B) = r + R * p.rho_c + vec(1e-3);
  y.segment<3>(B + 3) = vec(0.5);
  y.segment<3>(B + 6) = vec(2.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) y(B + 9 + 3 * i + j) = R(i, j);
  y.segment<3>(B + 18) = vec(3.0);
}

std::unique_ptr<sp::DaeForm> make_form(int N, const sp::InitialCondition& ic) {
  return std::make_unique<sp::DaeForm>(tb::testing::paper_parameters(N), ic);
}

}  // namespace

TEST_CASE("Model A DAE: analytic iteration matrix against central differences, for several cj", "[string_pendulum][dae]") {
  for (int N : {1, 5}) {
    const auto form = make_form(N, tb::testing::paper_initial_condition());
    Eigen::VectorXd y, yp;
    random_state(*form, 4242u + unsigned(N), y, yp);
    for (const BaumgarteParameters b : {BaumgarteParameters{0.0, 0.0}, BaumgarteParameters{20.0, 5.0}}) {
      for (double cj : {0.0, 1.0, 3.7e2, 1e5}) {
        const Eigen::MatrixXd J = tb::conformance::dae_jacobian_dense(*form, 0.3, y, yp, cj, b);
        const Eigen::MatrixXd Jfd = tb::conformance::dae_jacobian_fd(*form, 0.3, y, yp, cj, b);
        const double err = tb::conformance::dae_jacobian_row_relative_error(J, Jfd);
        char what[128];
        std::snprintf(what, sizeof what, "N = %d, p = %g, gamma = %g, cj = %g: row-relative error", N, b.p, b.gamma, cj);
        report(what, err);
        INFO(what);
        CHECK(err < 1e-6);  // measured <= 1.1e-7 (round-off of the differences at cj = 1e5); a wrong term is O(1)
      }
    }
  }
}

TEST_CASE("Model A DAE: the iteration matrix is banded with the declared half-bandwidths", "[string_pendulum][dae]") {
  // N = 6 makes the matrix (57 x 57) much wider than the band, so the check has teeth.
  const auto form = make_form(6, tb::testing::spinning_initial_condition());
  Eigen::VectorXd y, yp;
  random_state(*form, 99u, y, yp);
  const BaumgarteParameters b{10.0, 3.0};
  const Eigen::MatrixXd J = tb::conformance::dae_jacobian_dense(*form, 0.0, y, yp, 50.0, b);
  const Eigen::MatrixXd Jfd = tb::conformance::dae_jacobian_fd(*form, 0.0, y, yp, 50.0, b);
  CHECK(tb::conformance::entries_outside_band(J, form->lower_bandwidth(), form->upper_bandwidth(), 0.0) == 0);
  CHECK(tb::conformance::entries_outside_band(Jfd, form->lower_bandwidth(), form->upper_bandwidth(), 1e-6) == 0);
  // The declared band is the tightest: both half-bandwidths are attained.
  const auto [lower, upper] = tb::conformance::measured_bandwidths(J, 0.0);
  CHECK(lower == form->lower_bandwidth());
  CHECK(upper == form->upper_bandwidth());
  // The same band for the paper's N = 20: independent of N.
  const auto big = make_form(20, tb::testing::paper_initial_condition());
  random_state(*big, 7u, y, yp);
  const Eigen::MatrixXd J20 = tb::conformance::dae_jacobian_dense(*big, 0.0, y, yp, 50.0, b);
  CHECK(big->lower_bandwidth() == form->lower_bandwidth());
  CHECK(tb::conformance::entries_outside_band(J20, big->lower_bandwidth(), big->upper_bandwidth(), 0.0) == 0);
}

TEST_CASE("Model A DAE: consistent initial values solve F(t0, y0, y0') = 0 to round-off", "[string_pendulum][dae]") {
  for (const auto& ic : {tb::testing::paper_initial_condition(), tb::testing::spinning_initial_condition()}) {
    for (int N : {1, 20}) {
      const auto form = make_form(N, ic);
      for (const BaumgarteParameters b : {BaumgarteParameters{0.0, 0.0}, BaumgarteParameters{50.0, 10.0}}) {
        const Eigen::VectorXd y0 = form->consistent_initial_state(b);
        const Eigen::VectorXd yp0 = form->consistent_initial_derivative(b);
        Eigen::VectorXd F;
        form->residual(0.0, y0, yp0, b, F);
        // Scale: the largest term in any row (kappa |x| ~ 40 N for the string, M g ~ 1 N).
        INFO("N = " << N << ", p = " << b.p << ", |F|_inf = " << F.lpNorm<Eigen::Infinity>());
        CHECK(F.lpNorm<Eigen::Infinity>() < 1e-12);
        // The multiplier is the string tension at the attachment point pulling the body: for the
        // paper case (string at rest, horizontal, unstretched) the string exerts no force at t0 and
        // lambda = M (w' - g e3) is the body's inertial force minus weight; check it against the
        // ODE's force balance on the attachment node instead: lambda = f_{N+1} - (m/6 a_N + m/3 a_{N+1}).
        sp::OdeForm ode(tb::testing::paper_parameters(N), ic);
        Eigen::VectorXd dydt;
        ode.rhs(0.0, ode.initial_state(), dydt);
        const auto& p = form->mechanics().params();
        Eigen::VectorXd f;
        const sp::State s = form->mechanics().initial_state(ic);
        form->mechanics().string_forces(s.r, f);
        const Vec3 a_end = dydt.segment<3>(3 * N + 3 * (N - 1));
        const Vec3 a_prev = N >= 2 ? Vec3(dydt.segment<3>(3 * N + 3 * (N - 2))) : Vec3::Zero();
        const Vec3 lambda_expected = Vec3(f.segment<3>(3 * (N - 1))) - p.m() / 6.0 * a_prev - p.m() / 3.0 * a_end;
        CHECK((Vec3(y0.segment<3>(form->body_offset() + 6)) - lambda_expected).norm() < 1e-12);
      }
    }
  }
}

TEST_CASE("Model A DAE: initial physical state and observables equal the ODE form's", "[string_pendulum][dae]") {
  const auto ic = tb::testing::spinning_initial_condition();
  const auto form = make_form(20, ic);
  sp::OdeForm ode(tb::testing::paper_parameters(20), ic);
  const Eigen::VectorXd y0 = form->initial_state();
  CHECK((form->physical_state(y0) - ode.initial_state()).lpNorm<Eigen::Infinity>() < 1e-15);
  const tb::Observation a = form->observe(0.0, y0), b = ode.observe(0.0, ode.initial_state());
  CHECK(a.energy == Approx(b.energy).epsilon(1e-14));
  CHECK(a.momentum == Approx(b.momentum).epsilon(1e-14));
  CHECK(a.constraint_err < 1e-15);  // round-off of x_c - R rho_c against r_{N+1} ~ 1 m
  CHECK(a.constraint_rate_err < 1e-15);
  // The multipliers are the only algebraic components.
  CHECK(form->differential_components().sum() == form->state_size() - 3);
  CHECK(form->differential_components().segment<3>(form->body_offset() + 6).isZero());
}

TEST_CASE("Model A DAE: observables report the constraint drift |C| and |C'|", "[string_pendulum][dae]") {
  const auto form = make_form(4, tb::testing::paper_initial_condition());
  Eigen::VectorXd y = form->initial_state();
  const int B = form->body_offset();
  // Move the body's centre of mass by d and its velocity by e: C = -d, C' = -e exactly.
  y.segment<3>(B) += Vec3(3e-4, -4e-4, 0.0);
  y.segment<3>(B + 3) += Vec3(0.0, 6e-3, 8e-3);
  const tb::Observation o = form->observe(0.0, y);
  CHECK(o.constraint_err == Approx(5e-4).epsilon(1e-9));
  CHECK(o.constraint_rate_err == Approx(1e-2).epsilon(1e-9));
}

// ---------------------------------------------------------------------------------------------
// End to end under ida, on the paper case (cases/A_string_pendulum_paper.toml).

namespace {

const std::string kCaseA = std::string(TETHERBENCH_CASES_DIR) + "/A_string_pendulum_paper.toml";

// The body's centre of mass moved by delta (C0 = -delta, C0' = 0) and R by (I + eps S), S
// symmetric, so that ||R^T R - I||_F = eps0 ~ 2 eps ||S||.
void move_off_manifold(const sp::DaeForm& form, double delta, double eps, Eigen::VectorXd& y) {
  const int B = form.body_offset();
  y.segment<3>(B) += delta * Vec3(1.0, 2.0, 2.0) / 3.0;
  Mat3 S;
  S << 1.0, 0.3, -0.2, 0.3, -0.5, 0.1, -0.2, 0.1, 0.7;
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = y(B + 9 + 3 * i + j);
  R = R * (Mat3::Identity() + eps * S);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) y(B + 9 + 3 * i + j) = R(i, j);
}

}  // namespace

TEST_CASE("Model A DAE under ida: a start off the constraints decays as Baumgarte's closed form", "[string_pendulum][dae][ida]") {
  // C'' + 2p C' + p^2 C = 0 with C(0) = C0, C'(0) = 0 gives C(t) = C0 (1 + pt) e^{-pt}; the
  // orthonormality correction gives d/dt (R^T R - I) = [R^T R - I, hat(Omega)] - gamma (R^T R - I)
  // (seed 004 §3), whose Frobenius norm is exactly eps0 e^{-gamma t} (the commutator with a skew
  // matrix preserves it). With p = gamma = 0 both defects stay where they started.
  const tb::Case c = tb::testing::load_case(kCaseA);
  const double T = 0.2, delta = 1e-5, eps = 5e-8;
  for (const auto& [p, gamma] : {std::pair{0.0, 0.0}, std::pair{20.0, 0.0}, std::pair{0.0, 20.0}, std::pair{20.0, 20.0}}) {
    auto base = tb::testing::formulation_for(*c.model, tb::testing::integrator("ida"));
    const auto& dae_form = dynamic_cast<const sp::DaeForm&>(*base);
    tb::testing::PerturbedStart form(std::move(base), [&](Eigen::VectorXd& y) { move_off_manifold(dae_form, delta, eps, y); });
    const auto run = tb::testing::run_dae(form, tb::testing::ida_settings(c, p, gamma, 1e-8), T);
    REQUIRE(run.ok);
    const double C0 = run.C_at(0.0);
    CHECK(C0 == Approx(delta).epsilon(1e-3));  // the R perturbation moves the attachment by ~eps |S rho_c|
    tb::testing::check_baumgarte_closed_forms("Model A", run, p, gamma, dae_form.body());
  }
}

TEST_CASE("Model A DAE under ida: on the paper case p, gamma > 0 bound the drift that grows with p = gamma = 0", "[string_pendulum][dae][ida]") {
  const tb::Case c = tb::testing::load_case(kCaseA);
  const double T = 2.0;
  const auto plain = tb::testing::run_dae(c, tb::testing::ida_settings(c, 0.0, 0.0, 1e-6), T);
  const auto stabilised = tb::testing::run_dae(c, tb::testing::ida_settings(c, 50.0, 50.0, 1e-6), T);
  REQUIRE(plain.ok);
  REQUIRE(stabilised.ok);
  // Measured: |C| p = 0: 5.6e-9 over the first fifth, 5.9e-6 over the last; p = 50: at most
  // 1.3e-8 over the second half. Orthogonality mean over the second half: 9.4e-9 (gamma = 0),
  // 2.2e-10 (gamma = 50).
  tb::testing::check_drift("Model A paper case, ida rtol 1e-6", plain, stabilised, T);
}

TEST_CASE("Model A DAE under ida: the final state agrees with tight rk45 to ida's tolerance", "[string_pendulum][dae][ida]") {
  const tb::Case c = tb::testing::load_case(kCaseA);
  const double T = 0.5;
  const Eigen::VectorXd reference = tb::testing::reference_solution(*c.model, T);  // rk45, rtol 1e-13
  // Measured max |difference|: 1.3e-4 (rtol 1e-6), 1.7e-6 (1e-8), converging to the reference:
  // the DAE and the ODE are the same semi-discrete system.
  double previous = 0.0;
  for (const double rtol : {1e-6, 1e-8}) {
    const auto run = tb::testing::run_dae(c, tb::testing::ida_settings(c, 10.0, 10.0, rtol), T);
    REQUIRE(run.ok);
    const double err = (run.physical - reference).lpNorm<Eigen::Infinity>();
    std::printf("Model A paper case, %g s: ida rtol %g (%ld steps) vs rk45 rtol 1e-13: max |physical state difference| %.2e\n",
                T, rtol, run.steps, err);
    CHECK(err < (rtol == 1e-6 ? 4e-4 : 1e-5));
    if (previous > 0.0) CHECK(err < previous / 5.0);
    previous = err;
  }
}
