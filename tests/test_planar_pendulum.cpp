// The textbook planar pendulum of seed 004: the Cartesian DAE's derivatives against central
// differences, its consistent start against the closed-form rod tension, the period at 60
// degrees against the exact elliptic-integral period from both formulations, the two
// formulations against each other, and Baumgarte stabilisation against constraint drift.

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "core/metrics.hpp"
#include "models/planar_pendulum/forms.hpp"
#include "models/planar_pendulum/model.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;
using namespace tb::planar_pendulum;

namespace {

const double kTheta60 = M_PI / 3.0;

InitialCondition released_at(double theta, double omega = 0.0) {
  InitialCondition ic;
  ic.theta = theta;
  ic.omega = omega;
  return ic;
}

// Exact period of the pendulum released at rest from theta0: T = 4 sqrt(l/g) K(sin(theta0/2)),
// the complete elliptic integral of the first kind by the arithmetic-geometric mean,
// K(k) = pi / (2 AGM(1, sqrt(1 - k^2))) (quadratic convergence: exact to round-off).
double exact_period(const Parameters& p, double theta0) {
  const double k = std::sin(0.5 * theta0);
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  while (std::abs(a - b) > 1e-16 * a) {
    const double a_next = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = a_next;
  }
  return 4.0 * std::sqrt(p.l / p.g) * M_PI / (2.0 * a);
}

// The integrator's own settings (each reads only what it declares: rk45 reads max_step, which
// ida does not declare), tolerances tight, ida's Baumgarte rate p.
IntegratorSettings tight(double rtol, double p = 10.0, const std::string& name = "ida") {
  IntegratorSettings s = settings_of(name, 1e-4);
  s.set("rtol", rtol);
  s.set("atol", rtol * 1e-2);
  set_if_declared(s, "baumgarte_p", p);
  return s;
}

// Times of the turning points (vx = 0, changing sign) in (0, t_end], each located by
// bisection on the integrator's dense output within the step that brackets it.
std::vector<double> turning_points(const Formulation& form, const IntegratorInfo& info, const IntegratorSettings& s,
                                   double t_end) {
  auto stepper = info.make(form, s, 0.0);
  std::vector<double> roots;
  Eigen::VectorXd y;
  auto vx = [&](double t) {
    stepper->dense_state(t, y);
    return form.physical_state(y)[2];
  };
  double t_prev = stepper->time();
  double v_prev = form.physical_state(stepper->state())[2];
  StepFailure failure;
  while (stepper->time() < t_end) {
    REQUIRE(stepper->step(t_end, failure));
    const double t = stepper->time();
    const double v = form.physical_state(stepper->state())[2];
    if (v_prev * v < 0.0) {
      double a = t_prev, b = t;
      const double sign_a = v_prev;
      for (int i = 0; i < 200 && b - a > 1e-15 * b; ++i) {
        const double m = 0.5 * (a + b);
        (vx(m) * sign_a > 0.0 ? a : b) = m;
      }
      roots.push_back(0.5 * (a + b));
    }
    t_prev = t;
    v_prev = v;
  }
  return roots;
}

// Max of the rod-length error over each half of [0, t_end], sampled every 0.01 s by dense output.
struct Drift {
  double first_half = 0.0, second_half = 0.0;
  double max() const { return std::max(first_half, second_half); }
};
Drift length_drift(const Model& model, double p, double t_end) {
  const IntegratorInfo& ida = integrator("ida");
  auto form = formulation_for(model, ida);
  Drift d;
  const auto out = integrate(*form, ida, tight(1e-6, p), t_end, 0.01, [&](double t, const Eigen::VectorXd& y) {
    double& slot = t <= 0.5 * t_end ? d.first_half : d.second_half;
    slot = std::max(slot, form->observe(t, y).constraint_err);
  });
  REQUIRE(out.ok());
  return d;
}

}  // namespace

TEST_CASE("planar pendulum DAE: the Jacobian is dF/dy + cj dF/dy' by central differences", "[planar_pendulum][derivatives]") {
  Parameters p;
  p.m = 0.7;
  p.l = 1.3;
  const CartesianDaeForm dae(p, released_at(0.4, 0.9));
  // Off the constraint (C, C' != 0) and with arbitrary derivatives, so every term is exercised.
  Eigen::VectorXd y(5), yp(5);
  y << 0.61, 1.17, -0.83, 0.42, 3.9;
  yp << -0.77, 0.35, 1.9, -2.6, 0.8;
  for (double bp : {0.0, 3.7}) {
    const BaumgarteParameters b{bp, 0.0};
    // Central differences of F in y and in y', step 1e-6 (truncation ~1e-12, round-off ~1e-10).
    const double delta = 1e-6;
    Eigen::MatrixXd dFdy(5, 5), dFdyp(5, 5);
    Eigen::VectorXd Fp, Fm;
    for (int j = 0; j < 5; ++j) {
      Eigen::VectorXd y1 = y, y2 = y;
      y1[j] += delta, y2[j] -= delta;
      dae.residual(0.0, y1, yp, b, Fp);
      dae.residual(0.0, y2, yp, b, Fm);
      dFdy.col(j) = (Fp - Fm) / (2 * delta);
      Eigen::VectorXd yp1 = yp, yp2 = yp;
      yp1[j] += delta, yp2[j] -= delta;
      dae.residual(0.0, y, yp1, b, Fp);
      dae.residual(0.0, y, yp2, b, Fm);
      dFdyp.col(j) = (Fp - Fm) / (2 * delta);
    }
    for (double cj : {0.0, 1.0, 37.5, 2.0e4}) {
      std::vector<Eigen::Triplet<double>> entries;
      dae.jacobian(0.0, y, yp, cj, b, entries);
      Eigen::MatrixXd J = Eigen::MatrixXd::Zero(5, 5);
      for (const auto& e : entries) {
        J(e.row(), e.col()) += e.value();
        CHECK(e.col() - e.row() <= dae.upper_bandwidth());
        CHECK(e.row() - e.col() <= dae.lower_bandwidth());
      }
      const Eigen::MatrixXd fd = dFdy + cj * dFdyp;
      INFO("p = " << bp << ", cj = " << cj << "\nanalytic\n" << J << "\ncentral differences\n" << fd);
      CHECK((J - fd).cwiseAbs().maxCoeff() <= 1e-8 * (1.0 + cj));
    }
  }
}

TEST_CASE("planar pendulum DAE: the start is consistent and the multiplier is the rod tension over l", "[planar_pendulum]") {
  Parameters p;
  p.m = 2.0;
  p.l = 1.5;
  for (double bp : {0.0, 10.0}) {
    const BaumgarteParameters b{bp, 0.0};
    SECTION("at rest from 60 degrees: lambda0 l = m g cos(theta0), F(t0, y0, y'0) = 0") {
      const CartesianDaeForm dae(p, released_at(kTheta60));
      const Eigen::VectorXd y0 = dae.consistent_initial_state(b), yp0 = dae.consistent_initial_derivative(b);
      CHECK(y0[4] * p.l == Approx(p.m * p.g * std::cos(kTheta60)).epsilon(1e-14));
      CHECK(y0[4] * p.l == Approx(p.m * p.g * 0.5).epsilon(1e-14));  // cos 60 = 1/2
      Eigen::VectorXd F;
      dae.residual(0.0, y0, yp0, b, F);
      CHECK(F.lpNorm<Eigen::Infinity>() < 1e-14);
      // At rest the acceleration is tangential: l theta'' (cos, -sin) with theta'' = -(g/l) sin(theta0),
      // back towards the vertical and downwards.
      CHECK(yp0[2] == Approx(-p.g * std::sin(kTheta60) * std::cos(kTheta60)).epsilon(1e-13));
      CHECK(yp0[3] == Approx(p.g * std::sin(kTheta60) * std::sin(kTheta60)).epsilon(1e-13));
    }
    SECTION("swinging: lambda0 l = m (g cos(theta0) + l omega0^2), the polar form's tension") {
      const InitialCondition ic = released_at(-0.3, 2.2);
      const CartesianDaeForm dae(p, ic);
      const PolarForm polar(p, ic);
      const Eigen::VectorXd y0 = dae.consistent_initial_state(b), yp0 = dae.consistent_initial_derivative(b);
      CHECK(y0[4] * p.l == Approx(p.m * (p.g * std::cos(-0.3) + p.l * 2.2 * 2.2)).epsilon(1e-13));
      CHECK(dae.observe(0.0, y0).extra[4] == Approx(polar.observe(0.0, polar.initial_state()).extra[4]).epsilon(1e-13));
      Eigen::VectorXd F;
      dae.residual(0.0, y0, yp0, b, F);
      CHECK(F.lpNorm<Eigen::Infinity>() < 1e-13);
    }
  }
}

TEST_CASE("planar pendulum DAE: lambda' is the rate of lambda along the motion (central differences)", "[planar_pendulum][derivatives]") {
  Parameters p;
  p.m = 0.8;
  const CartesianDaeForm dae(p, released_at(0.2));
  const BaumgarteParameters b{4.0, 0.0};
  // Off the constraint, moving: s' = [v, a(s)] with a from the multiplier at s.
  const Eigen::Vector4d s(0.7, 0.9, -1.1, 0.6);
  const double lambda = dae.multiplier(s, b);
  const Eigen::Vector4d sdot(s[2], s[3], -lambda * s[0] / p.m, p.g - lambda * s[1] / p.m);
  const double delta = 1e-6;
  const double fd = (dae.multiplier(s + delta * sdot, b) - dae.multiplier(s - delta * sdot, b)) / (2 * delta);
  CHECK(dae.multiplier_rate(s, b) == Approx(fd).epsilon(1e-8));
}

TEST_CASE("planar pendulum: the period at 60 degrees is 4 sqrt(l/g) K(sin 30 deg) from ida and rk45", "[planar_pendulum][ida]") {
  const Parameters p;
  const auto model = make_model(p, released_at(kTheta60));
  const double T_exact = exact_period(p, kTheta60);
  // K(k = 1/2) = 1.685750354812596 (tables, e.g. Abramowitz & Stegun 17.1 with m = k^2 = 1/4).
  CHECK(T_exact == Approx(4.0 * std::sqrt(1.0 / 9.81) * 1.685750354812596).epsilon(1e-15));
  for (const char* name : {"ida", "rk45"}) {
    DYNAMIC_SECTION(name) {
      const IntegratorInfo& info = integrator(name);
      auto form = formulation_for(*model, info);
      const auto roots = turning_points(*form, info, tight(1e-10, 10.0, name), 3.2 * T_exact);
      REQUIRE(roots.size() == 6);  // turning points at T/2, T, ..., 3T
      const double T_measured = 2.0 * (roots.back() - roots.front()) / double(roots.size() - 1);
      std::printf("period at 60 deg: %-5s %.12f s, exact %.12f s, relative error %.2e\n", name, T_measured, T_exact,
                  std::abs(T_measured / T_exact - 1.0));
      CHECK(std::abs(T_measured / T_exact - 1.0) < 1e-6);
      for (size_t i = 0; i < roots.size(); ++i) CHECK(std::abs(roots[i] - 0.5 * double(i + 1) * T_exact) < 1e-6 * T_exact);
    }
  }
}

TEST_CASE("planar pendulum: the Cartesian DAE under ida follows the polar ODE under rk45", "[planar_pendulum][ida]") {
  const auto model = make_model(Parameters{}, released_at(kTheta60, 0.5));
  auto sample = [&](const char* name) {
    const IntegratorInfo& info = integrator(name);
    auto form = formulation_for(*model, info);
    std::vector<Eigen::VectorXd> states;
    const auto out = integrate(*form, info, tight(1e-10, 10.0, name), 5.0, 0.05,
                               [&](double, const Eigen::VectorXd& y) { states.push_back(form->physical_state(y)); });
    REQUIRE(out.ok());
    return states;
  };
  const auto dae = sample("ida"), ode = sample("rk45");
  REQUIRE(dae.size() == ode.size());
  REQUIRE(dae.size() == 101);
  double gap = 0.0;
  for (size_t i = 0; i < dae.size(); ++i) gap = std::max(gap, (dae[i] - ode[i]).lpNorm<Eigen::Infinity>());
  std::printf("ida (Cartesian DAE) vs rk45 (polar ODE), rtol 1e-10, 5 s: max state gap %.2e\n", gap);
  CHECK(gap < 1e-6);
}

TEST_CASE("planar pendulum: Baumgarte p > 0 bounds the rod-length drift that grows with p = 0", "[planar_pendulum][ida][baumgarte]") {
  const auto model = make_model(Parameters{}, released_at(kTheta60));
  const double T = 20.0;
  const Drift stabilised = length_drift(*model, 10.0, T);
  const Drift plain = length_drift(*model, 0.0, T);
  std::printf("rod-length drift over %g s at rtol 1e-6: p = 10: %.2e / %.2e, p = 0: %.2e / %.2e (first / second half)\n",
              T, stabilised.first_half, stabilised.second_half, plain.first_half, plain.second_half);
  // Stabilised: no growth, and far below the unstabilised drift.
  CHECK(stabilised.second_half < 2.0 * stabilised.first_half);
  CHECK(plain.max() > 100.0 * stabilised.max());
  // Unstabilised: the index-1 system's drift accumulates.
  CHECK(plain.second_half > 2.0 * plain.first_half);
}
