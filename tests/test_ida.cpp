// The IDA integrator on its own terms: a banded linear index-1 DAE with a closed-form
// solution exercises the band solver (against the dense one), the dense output, the stop
// time, the counters and the settings it passes on; corrupted inputs check that an
// inconsistent start, a Jacobian outside its declared band and a failing residual are
// reported, not absorbed.

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>

#include "integrators/ida/ida.hpp"
#include "models/planar_pendulum/model.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

namespace {

// Heat equation on a chain of N nodes (zero ends) with an algebraic neighbour sum:
//   u_i' = u_{i-1} - 2 u_i + u_{i+1},   0 = w_i - (u_i + u_{i+1}),
// state [u_0, w_0, u_1, w_1, ...]: half-bandwidths 2 and 2. One sine mode decays exactly:
//   u_i(t) = exp(-mu t) sin(pi k (i+1)/(N+1)),  mu = 2 - 2 cos(pi k/(N+1)).
class HeatChainDae final : public DaeFormulation {
 public:
  IntegratedConstraints integrated_constraints() const override { return {}; }  // a heat chain: none
  explicit HeatChainDae(int N, int k = 3) : N_(N), k_(k) {}
  int declared_lower = 2, declared_upper = 2;
  double derivative_error = 0.0;   // added to y'0[0]: an inconsistent start
  bool nan_residual = false;       // the residual turns NaN
  // From t = 0.5 on, w_0's row also holds late_coupling (w_1 - u_1 - u_2), zero on the solution,
  // so the exact solution is unchanged, but the Jacobian gains entries (1, 3) and (1, 4) it did
  // not have at t0 (a model that emits only the entries that are non-zero now).
  double late_coupling = 0.0;
  double coupling(double t) const { return t >= 0.5 && N_ >= 3 ? late_coupling : 0.0; }
  mutable BaumgarteParameters seen{-1.0, -1.0};

  double mu() const { return 2.0 - 2.0 * std::cos(M_PI * k_ / (N_ + 1)); }
  Eigen::VectorXd exact(double t) const {
    Eigen::VectorXd u(N_ + 1);
    for (int i = 0; i < N_; ++i) u[i] = std::exp(-mu() * t) * std::sin(M_PI * k_ * (i + 1) / (N_ + 1));
    u[N_] = 0.0;
    Eigen::VectorXd y(2 * N_);
    for (int i = 0; i < N_; ++i) y[2 * i] = u[i], y[2 * i + 1] = u[i] + u[i + 1];
    return y;
  }

  int state_size() const override { return 2 * N_; }
  Eigen::VectorXd initial_state() const override { return exact(0.0); }
  Observation observe(double, const Eigen::VectorXd&) const override { return {}; }
  std::vector<std::string> extra_column_names() const override { return {}; }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }
  Eigen::VectorXd differential_components() const override {
    Eigen::VectorXd id(2 * N_);
    for (int i = 0; i < N_; ++i) id[2 * i] = 1.0, id[2 * i + 1] = 0.0;
    return id;
  }
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters&) const override { return exact(0.0); }
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters&) const override {
    Eigen::VectorXd yp = -mu() * exact(0.0);
    yp[0] += derivative_error;
    return yp;
  }
  void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                Eigen::VectorXd& F) const override {
    seen = b;
    auto u = [&](int i) { return i < 0 || i >= N_ ? 0.0 : y[2 * i]; };
    F.resize(2 * N_);
    for (int i = 0; i < N_; ++i) {
      F[2 * i] = yp[2 * i] - (u(i - 1) - 2.0 * u(i) + u(i + 1));
      F[2 * i + 1] = y[2 * i + 1] - (u(i) + u(i + 1));
    }
    if (coupling(t) != 0.0) F[1] += coupling(t) * (y[3] - u(1) - u(2));
    if (nan_residual) F.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  void jacobian(double t, const Eigen::VectorXd&, const Eigen::VectorXd&, double cj, const BaumgarteParameters&,
                std::vector<Eigen::Triplet<double>>& e) const override {
    if (const double k = coupling(t); k != 0.0) {
      e.emplace_back(1, 3, k);
      e.emplace_back(1, 2, -k);
      e.emplace_back(1, 4, -k);
    }
    for (int i = 0; i < N_; ++i) {
      e.emplace_back(2 * i, 2 * i, cj + 2.0);
      if (i > 0) e.emplace_back(2 * i, 2 * i - 2, -1.0);
      if (i + 1 < N_) e.emplace_back(2 * i, 2 * i + 2, -1.0);
      e.emplace_back(2 * i + 1, 2 * i + 1, 1.0);
      e.emplace_back(2 * i + 1, 2 * i, -1.0);
      if (i + 1 < N_) e.emplace_back(2 * i + 1, 2 * i + 2, -1.0);
    }
  }
  int lower_bandwidth() const override { return declared_lower; }
  int upper_bandwidth() const override { return declared_upper; }

 private:
  int N_, k_;
};

IntegratorSettings settings(double rtol = 1e-8) {
  IntegratorSettings s = settings_of("ida", 1e-3);
  s.set("rtol", rtol);
  s.set("atol", 1e-2 * rtol);
  return s;
}

// The same with SUNDIALS' band/dense LU instead of KLU (sparse = 0).
IntegratorSettings band_or_dense_settings(double rtol = 1e-8) {
  IntegratorSettings s = settings(rtol);
  s.set("sparse", 0);
  return s;
}

double max_error(const Eigen::VectorXd& a, const Eigen::VectorXd& b) { return (a - b).lpNorm<Eigen::Infinity>(); }

}  // namespace

TEST_CASE("ida: the band solver is chosen for a narrow band and agrees with the dense one", "[ida]") {
  CHECK(ida_uses_band_solver(40, 2, 2));
  CHECK_FALSE(ida_uses_band_solver(10, 2, 2));  // 5 of 10: not worth a band
  CHECK_FALSE(ida_uses_band_solver(5, 4, 2));   // the planar pendulum: dense
  const IntegratorInfo& ida = integrator("ida");
  HeatChainDae band(20);
  HeatChainDae dense(20);
  dense.declared_lower = dense.declared_upper = 39;
  REQUIRE(ida_uses_band_solver(40, band.declared_lower, band.declared_upper));
  REQUIRE_FALSE(ida_uses_band_solver(40, dense.declared_lower, dense.declared_upper));
  const double T = 1.0;
  const auto with_band = integrate(band, ida, band_or_dense_settings(), T, T, {});
  const auto with_dense = integrate(dense, ida, band_or_dense_settings(), T, T, {});
  REQUIRE(with_band.ok());
  REQUIRE(with_dense.ok());
  const double error = max_error(with_band.final_state, band.exact(T));
  std::printf("ida on a 40-unknown banded DAE, rtol 1e-8: error %.2e at t = 1, %ld steps; band vs dense %.2e\n", error,
              with_band.counters.steps, max_error(with_band.final_state, with_dense.final_state));
  CHECK(error < 1e-7);
  CHECK(max_error(with_band.final_state, with_dense.final_state) < 1e-12);
  CHECK(with_band.counters.steps == with_dense.counters.steps);
}

TEST_CASE("ida: KLU (the default) agrees with the band and dense LU and follows a Jacobian whose pattern grows",
          "[ida][sparse]") {
  const IntegratorInfo& ida = integrator("ida");
  const auto spec = std::find_if(ida.settings.begin(), ida.settings.end(), [](const SettingSpec& s) { return s.name == "sparse"; });
  REQUIRE(spec != ida.settings.end());
  CHECK(spec->default_value == 1.0);
  CHECK_FALSE(spec->accepts(2.0));
  const double T = 1.0;
  HeatChainDae dae(20);
  const auto with_klu = integrate(dae, ida, settings(), T, T, {});
  const auto with_band = integrate(dae, ida, band_or_dense_settings(), T, T, {});
  REQUIRE(with_klu.ok());
  REQUIRE(with_band.ok());
  const double error = max_error(with_klu.final_state, dae.exact(T));
  std::printf("ida with KLU on the 40-unknown banded DAE: error %.2e, %ld steps; KLU vs band %.2e\n", error,
              with_klu.counters.steps, max_error(with_klu.final_state, with_band.final_state));
  CHECK(error < 1e-7);
  CHECK(max_error(with_klu.final_state, with_band.final_state) < 1e-12);

  // New entries after t = 0.5 with a coefficient 20 times the diagonal's: had they been dropped
  // from the pattern KLU analysed at t0, the algebraic rows' Newton iteration would diverge
  // (its matrix off by a factor 20 in w_0's row) and IDA would fail; the band LU needs the
  // widened bandwidth (4 - 1 = 3 above the diagonal) to run it at all.
  HeatChainDae late(20);
  late.late_coupling = 20.0;
  late.declared_upper = 3;
  const auto klu_late = integrate(late, ida, settings(), T, T, {});
  const auto band_late = integrate(late, ida, band_or_dense_settings(), T, T, {});
  INFO(klu_late.outcome.reason);
  REQUIRE(klu_late.ok());
  REQUIRE(band_late.ok());
  CHECK(max_error(klu_late.final_state, late.exact(T)) < 1e-7);
  CHECK(max_error(klu_late.final_state, band_late.final_state) < 1e-10);
}

TEST_CASE("ida: dense output inside each step, exact landing on the stop time, one IDA step per step()", "[ida]") {
  const IntegratorInfo& ida = integrator("ida");
  HeatChainDae dae(20);
  auto stepper = ida.make(dae, settings(), 0.0);
  REQUIRE(stepper->has_dense_output());
  const double t_stop = 0.37;
  StepFailure failure;
  long calls = 0;
  double worst_dense = 0.0;
  Eigen::VectorXd y;
  while (stepper->time() < t_stop) {
    const double t_before = stepper->time();
    REQUIRE(stepper->step(t_stop, failure));
    ++calls;
    CHECK(stepper->time() <= t_stop);
    CHECK(stepper->counters().steps == calls);
    for (double f : {0.25, 0.5, 0.75}) {
      const double t = t_before + f * (stepper->time() - t_before);
      stepper->dense_state(t, y);
      worst_dense = std::max(worst_dense, max_error(y, dae.exact(t)));
    }
  }
  CHECK(stepper->time() == t_stop);
  CHECK(max_error(stepper->state(), dae.exact(t_stop)) < 1e-7);
  CHECK(worst_dense < 1e-7);
  // Outside the last step the interpolant is not valid: refused, not extrapolated; a grid
  // time a round-off past the end (the runner's 1e-9 h slack) is the end.
  CHECK_THROWS(stepper->dense_state(0.5 * t_stop, y));
  stepper->dense_state(t_stop + 1e-12, y);
  CHECK(y == stepper->state());
  const StepCounters& c = stepper->counters();
  CHECK(c.rhs_evals >= c.newton_iters);
  CHECK(c.newton_iters >= c.steps);
}

TEST_CASE("ida: the Baumgarte parameters of the settings reach the residual", "[ida]") {
  HeatChainDae dae(5);
  IntegratorSettings s = settings();
  s.set("baumgarte_p", 3.5);
  s.set("baumgarte_gamma", 0.25);
  auto stepper = integrator("ida").make(dae, s, 0.0);
  StepFailure failure;
  REQUIRE(stepper->step(1.0, failure));
  CHECK(dae.seen.p == 3.5);
  CHECK(dae.seen.gamma == 0.25);
}

TEST_CASE("ida: an inconsistent start is refused with the size of F(t0, y0, y'0)", "[ida][failure]") {
  HeatChainDae dae(20);
  dae.derivative_error = 1e-3;
  auto stepper = integrator("ida").make(dae, settings(), 0.0);
  StepFailure failure;
  CHECK_FALSE(stepper->step(1.0, failure));
  INFO(failure.reason);
  CHECK(failure.reason.find("inconsistent initial values") != std::string::npos);
  CHECK(failure.reason.find("component 0") != std::string::npos);
  CHECK(stepper->time() == 0.0);
  CHECK(stepper->state() == dae.exact(0.0));
  // Round-off-sized inconsistency is accepted.
  HeatChainDae nearly(20);
  nearly.derivative_error = 1e-14;
  CHECK(integrator("ida").make(nearly, settings(), 0.0)->step(1.0, failure));
}

TEST_CASE("ida: a Jacobian entry outside the declared band fails the step and says so", "[ida][failure]") {
  HeatChainDae dae(20);
  dae.declared_lower = 0;  // the w rows reach one column back: a lie
  REQUIRE(ida_uses_band_solver(40, 0, 2));
  auto stepper = integrator("ida").make(dae, band_or_dense_settings(), 0.0);
  StepFailure failure;
  CHECK_FALSE(stepper->step(1.0, failure));
  INFO(failure.reason);
  CHECK(failure.reason.find("outside the declared bandwidths") != std::string::npos);
  CHECK(stepper->time() == 0.0);
}

TEST_CASE("ida: a failing residual is reported with IDA's flag name and message, and the stepper stays failed", "[ida][failure]") {
  HeatChainDae dae(20);
  auto stepper = integrator("ida").make(dae, settings(), 0.0);
  StepFailure failure;
  for (int i = 0; i < 3; ++i) REQUIRE(stepper->step(1.0, failure));
  const double t = stepper->time();
  const Eigen::VectorXd y = stepper->state();
  dae.nan_residual = true;
  CHECK_FALSE(stepper->step(1.0, failure));
  INFO(failure.reason);
  CHECK(failure.reason.rfind("IDASolve failed with IDA_", 0) == 0);
  CHECK(failure.reason.find("not finite") != std::string::npos);
  CHECK(stepper->time() == t);
  CHECK(stepper->state() == y);
  dae.nan_residual = false;  // a failed IDA is not resumed behind the caller's back
  CHECK_FALSE(stepper->step(1.0, failure));
  CHECK(failure.reason.find("already failed") != std::string::npos);
}

TEST_CASE("ida: the error-test-failure counter is IDA's (non-zero on the pendulum case)", "[ida]") {
  const Case c = load_case(std::string(TETHERBENCH_CASES_DIR) + "/T_planar_pendulum_60deg.toml");
  const IntegratorSettings& s = c.settings_for("ida");
  CHECK(s.get("rtol") == 1e-8);
  CHECK(s.get("baumgarte_p") == 10.0);
  auto form = formulation_for(*c.model, integrator("ida"));
  const auto out = integrate(*form, integrator("ida"), s, c.t_end, c.t_end, {});
  REQUIRE(out.ok());
  std::printf("ida on %s: %ld steps, %ld residuals, %ld Newton iterations, %ld error-test failures\n", c.name.c_str(),
              out.counters.steps, out.counters.rhs_evals, out.counters.newton_iters, out.counters.error_test_failures);
  CHECK(out.counters.error_test_failures > 0);
  CHECK(out.counters.error_test_failures < out.counters.steps);
}

TEST_CASE("ida: a stiff Baumgarte rate does not collapse the step (multipliers out of the error test)", "[ida][baumgarte]") {
  // With the multiplier in the error test, p = 300 took 4x the steps of p = 10 and p = 1000
  // over 3000x (ida.cpp); the differential state alone costs about the same at both.
  const Case c = load_case(std::string(TETHERBENCH_CASES_DIR) + "/T_planar_pendulum_60deg.toml");
  auto steps_at = [&](double p) {
    IntegratorSettings s = c.settings_for("ida");
    s.set("baumgarte_p", p);
    auto form = formulation_for(*c.model, integrator("ida"));
    const auto out = integrate(*form, integrator("ida"), s, c.t_end, c.t_end, {});
    REQUIRE(out.ok());
    return out.counters.steps;
  };
  const long at10 = steps_at(10.0), at300 = steps_at(300.0);
  std::printf("ida steps on %s: p = 10: %ld, p = 300: %ld\n", c.name.c_str(), at10, at300);
  CHECK(at300 < 2 * at10);
}

TEST_CASE("ida: max_order caps the BDF order (IDASetMaxOrd): fewer orders, more steps at one tolerance", "[ida]") {
  const IntegratorInfo& ida = integrator("ida");
  const auto spec = std::find_if(ida.settings.begin(), ida.settings.end(), [](const SettingSpec& s) { return s.name == "max_order"; });
  REQUIRE(spec != ida.settings.end());
  CHECK(spec->default_value == 5.0);  // IDA's own default: the cases that do not set it run as before
  CHECK(spec->integer);
  CHECK(spec->accepts(1.0));
  CHECK(spec->accepts(5.0));
  CHECK_FALSE(spec->accepts(0.0));
  CHECK_FALSE(spec->accepts(6.0));  // IDA would silently cap it at 5
  CHECK_FALSE(spec->accepts(2.5));

  // The heat chain's decaying sine mode is smooth: at rtol 1e-8 a higher order takes longer
  // steps, so the cap shows in the step count (measured: 1789, 120, 42, 29, 29 steps for caps
  // 1..5; IDA does not go past order 4 here) and in the global error, which grows as the order
  // falls (2e-8 at 4-5, 2e-5 at 1: BDF1 accumulates its local errors).
  HeatChainDae dae(20);
  const double T = 1.0;
  long steps[6] = {0, 0, 0, 0, 0, 0};
  double errors[6] = {0, 0, 0, 0, 0, 0};
  for (int q = 1; q <= 5; ++q) {
    IntegratorSettings s = settings();
    s.set("max_order", q);
    const auto out = integrate(dae, ida, s, T, T, {});
    REQUIRE(out.ok());
    steps[q] = out.counters.steps;
    errors[q] = max_error(out.final_state, dae.exact(T));
    std::printf("ida max_order %d on the 40-unknown heat chain, rtol 1e-8: %ld steps, error %.2e\n", q, steps[q], errors[q]);
    CHECK(errors[q] < 1e-4);
  }
  CHECK(errors[1] > errors[2]);
  CHECK(errors[2] > errors[3]);
  CHECK(errors[5] < 1e-7);
  CHECK(steps[1] > 10 * steps[5]);
  CHECK(steps[2] > 2 * steps[5]);
  CHECK(steps[3] > steps[5]);
  // The default is max_order 5: a run without the key is the max_order 5 run.
  CHECK(integrate(dae, ida, settings(), T, T, {}).counters.steps == steps[5]);
}
