// The hanging tether (seed 004 tether slides): its analytic derivatives against central finite
// differences, its mass matrix and energy against independent formulae, the static solver, the
// convergence of the static shape to Irvine's elastic catenary as N grows (seed 003 Remark 1),
// damped dynamics settling to the static solution, and energy conservation without damping.

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>

#include "app/input/case.hpp"
#include "core/metrics.hpp"
#include "app/running/runner.hpp"
#include "models/hanging_tether/catenary_study.hpp"
#include "models/hanging_tether/elastic_catenary.hpp"
#include "models/hanging_tether/model.hpp"
#include "models/hanging_tether/shapes.hpp"
#include "models/hanging_tether/static_equilibrium.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"
#include "tests/test_support.hpp"
#include "tests/tether_support.hpp"

using namespace tb;
using namespace tb::testing;
namespace ht = tb::hanging_tether;

namespace {

const Vec3 kE3 = Vec3::UnitZ();

ht::Parameters tether(int N, ht::Discretisation d, double damping = 0.0) { return bundled_tether(N, d, damping); }

// A random state near the parabola: every element stretched or compressed by a few percent,
// random velocities.
ht::State random_state(const ht::Parameters& p, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  ht::State s;
  s.r = ht::parabola_shape(p, p.length);
  s.v.assign(p.N + 1, Vec3::Zero());
  for (int j = 1; j < p.N; ++j) {
    s.r[j] += 0.05 * p.u() * Vec3(U(g), U(g), U(g));
    s.v[j] = Vec3(U(g), U(g), U(g));
  }
  s.dissipated_work = 0.3;
  return s;
}

double max_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0.0;
  for (size_t j = 0; j < a.size(); ++j) d = std::max(d, (a[j] - b[j]).norm());
  return d;
}

ConservationMetrics run_metrics(const OdeFormulation& form, const std::string& integrator_name, double T, double h,
                                double rtol, double atol, Eigen::VectorXd* final_state = nullptr) {
  IntegratorSettings s = settings_of(integrator(integrator_name), h);
  set_if_declared(s, "rtol", rtol);
  set_if_declared(s, "atol", atol);
  MetricsAccumulator metrics;
  const IntegrationOutcome out =
      integrate(form, integrator(integrator_name), s, T, 1e-2,
                [&](double t, const Eigen::VectorXd& y) { metrics.add(t, form.observe(t, y)); });
  REQUIRE(out.ok());
  if (final_state) *final_state = out.final_state;
  return metrics.result();
}

}  // namespace

TEST_CASE("hanging tether: element and tangent stiffness match central differences of the forces",
          "[hanging-tether][derivatives]") {
  for (auto d : {ht::Discretisation::Full, ht::Discretisation::Lumped}) {
    const ht::Parameters p = tether(6, d);
    const ht::Mechanics mech(p);
    const ht::State s = random_state(p, 7);
    const double eps = 1e-6;

    // Element: dF/dx of linear_element_force, stretched and compressed.
    for (double scale : {0.93, 1.07}) {
      const Vec3 x = scale * p.u() * Vec3(0.6, -0.48, 0.64);
      const Mat3 K = ht::element_stiffness(p.kappa(), p.u(), x);
      Mat3 K_fd;
      for (int c = 0; c < 3; ++c) {
        const Vec3 dx = eps * Vec3::Unit(c);
        K_fd.col(c) = (tb::linear_element_force(p.kappa(), p.u(), x + dx) -
                       tb::linear_element_force(p.kappa(), p.u(), x - dx)) / (2.0 * eps);
      }
      CHECK((K - K_fd).cwiseAbs().maxCoeff() < 1e-6 * K.cwiseAbs().maxCoeff());
      CHECK((K - K.transpose()).norm() <= 1e-15 * K.norm());
    }

    // Assembled tangent stiffness S = -d(static_forces)/dX, column by column (also the zero
    // blocks beyond the tridiagonal band).
    BlockTridiagonal3 S;
    mech.assemble_tangent_stiffness(s.r, S);
    const int n = mech.free_nodes();
    Eigen::MatrixXd S_dense = Eigen::MatrixXd::Zero(3 * n, 3 * n);
    for (int c = 0; c < 3 * n; ++c) S_dense.col(c) = S.multiply(Eigen::VectorXd::Unit(3 * n, c));
    Eigen::MatrixXd S_fd(3 * n, 3 * n);
    Eigen::VectorXd f_plus, f_minus;
    for (int c = 0; c < 3 * n; ++c) {
      auto plus = s.r, minus = s.r;
      plus[1 + c / 3](c % 3) += eps;
      minus[1 + c / 3](c % 3) -= eps;
      mech.static_forces(plus, f_plus);
      mech.static_forces(minus, f_minus);
      S_fd.col(c) = -(f_plus - f_minus) / (2.0 * eps);
    }
    CHECK((S_dense - S_fd).cwiseAbs().maxCoeff() < 1e-6 * S_dense.cwiseAbs().maxCoeff());
    CHECK((S_dense - S_dense.transpose()).cwiseAbs().maxCoeff() <= 1e-15 * S_dense.cwiseAbs().maxCoeff());
  }
}

TEST_CASE("hanging tether: mass matrices, gravity loads and energies agree with independent formulae",
          "[hanging-tether]") {
  for (auto d : {ht::Discretisation::Full, ht::Discretisation::Lumped}) {
    const ht::Parameters p = tether(5, d, 0.7);
    const ht::Mechanics mech(p);
    const ht::State s = random_state(p, 11);
    const int n = mech.free_nodes();
    Eigen::VectorXd v(3 * n);
    for (int j = 1; j <= n; ++j) v.segment<3>(3 * (j - 1)) = s.v[j];

    // T = 1/2 v^T M v, and T by direct quadrature of 1/2 mu |v(sigma)|^2 along each element
    // (full: velocity linear between the nodes; Simpson is exact for the quadratic integrand)
    // or of the slides' N+1 equal point masses (lumped).
    CHECK(mech.kinetic_energy(s) == Approx(0.5 * v.dot(mech.mass_matrix().multiply(v))).epsilon(1e-13));
    double T_direct = 0.0;
    if (d == ht::Discretisation::Full) {
      for (int e = 0; e < p.N; ++e) {
        const Vec3 vm = 0.5 * (s.v[e] + s.v[e + 1]);
        T_direct += 0.5 * p.mu * p.u() / 6.0 * (s.v[e].squaredNorm() + 4.0 * vm.squaredNorm() + s.v[e + 1].squaredNorm());
      }
    } else {
      for (int j = 0; j <= p.N; ++j) T_direct += 0.5 * p.mu * p.length / (p.N + 1) * s.v[j].squaredNorm();
    }
    CHECK(mech.kinetic_energy(s) == Approx(T_direct).epsilon(1e-13));
    // v^T M v for unit downward velocity of every free node: the integral of mu |v(sigma)|^2
    // with v = 1 on the n - 1 inner elements and linear to 0 on the two end ones,
    // m (n - 1) + 2 m/3 (full); the n free point masses (lumped).
    Eigen::VectorXd vz = Eigen::VectorXd::Zero(3 * n);
    for (int j = 0; j < n; ++j) vz(3 * j + 2) = 1.0;
    const double moving_mass = vz.dot(mech.mass_matrix().multiply(vz));
    if (d == ht::Discretisation::Full) CHECK(moving_mass == Approx(p.mu * p.u() * (n - 1 + 2.0 / 3.0)).epsilon(1e-13));
    else CHECK(moving_mass == Approx(p.mu * p.length * n / (p.N + 1)).epsilon(1e-13));

    // static_forces = -dV/dX (gravity loads and springs consistent with V), central differences.
    Eigen::VectorXd f;
    mech.static_forces(s.r, f);
    CHECK(static_force_error(mech, s) < 1e-6 * f.cwiseAbs().maxCoeff());

    // Along the flow, dE/dt = -2 zeta T and dW/dt = 2 zeta T: the energy balance is exact.
    const ht::TetherForm form(p, ht::InitialShape::Parabola);
    const Eigen::VectorXd y = mech.pack(s);
    Eigen::VectorXd f_y;
    form.rhs(0.0, y, f_y);
    const double h = 1e-6;
    const Observation op = form.observe(0.0, y + h * f_y), om = form.observe(0.0, y - h * f_y);
    const double dE = (op.energy - om.energy) / (2.0 * h);
    const double dW = (op.external_work - om.external_work) / (2.0 * h);
    CHECK(dE == Approx(-2.0 * p.damping_rate * mech.kinetic_energy(s)).epsilon(1e-6));
    CHECK(dE - dW == Approx(0.0).margin(1e-6 * std::abs(dE)));
  }
}

TEST_CASE("hanging tether: the benchmarks' SlackMiddle state has its middle half slack and the rest taut, at every N",
          "[hanging-tether]") {
  // benchmarks/benchmark_models.cpp measures the tension-only tether from this state so that both
  // branches of its elements are met: the middle half (N/4 <= e < 3N/4) about 2% short of u, the
  // others about 2% long, at rest, and the observation's short-element count says so.
  for (int N : {10, 20, 200, 5000}) {
    INFO("N = " << N);
    const ht::Parameters p = testing::bundled_tether(N, ht::Discretisation::Lumped);
    const auto r = ht::slack_middle_shape(p, 0.02);
    REQUIRE(r.size() == size_t(N + 1));
    CHECK((r.front() - p.A).norm() == 0.0);
    CHECK((r.back() - p.B).norm() == 0.0);
    for (int e = 0; e < N; ++e) {
      const double strain = (r[size_t(e + 1)] - r[size_t(e)]).norm() / p.u() - 1.0;
      const bool middle = e >= N / 4 && e < N / 4 + N / 2;
      CHECK(std::abs(strain - (middle ? -0.02 : 0.02)) < 0.005);  // the parabola's chords against its arcs
    }
    const ht::TetherForm form(p, ht::InitialShape::SlackMiddle);
    CHECK(form.observe(0.0, form.initial_state()).extra.back() == double(N / 2));  // short_elements
    CHECK(form.observe(0.0, form.initial_state()).kinetic == 0.0);
  }
}

TEST_CASE("hanging tether: the elastic catenary satisfies its own equilibrium and Hooke's law",
          "[hanging-tether][catenary]") {
  const ht::Parameters p = tether(4, ht::Discretisation::Full);
  const ht::ElasticCatenary cat(p);
  CHECK(cat.newton_iterations() <= 10);
  // Closure: the curve ends at B.
  CHECK((cat.point(0.0) - p.A).norm() < 1e-14);
  CHECK((cat.point(p.length) - p.B).norm() < 1e-12);
  // Closure Jacobian against central differences.
  const double H = cat.horizontal_tension(), VA = cat.vertical_tension_at_A();
  const Eigen::Matrix2d J = cat.closure_jacobian(H, VA);
  Eigen::Matrix2d J_fd;
  const double dh = 1e-6 * H;
  J_fd.col(0) = (cat.closure(H + dh, VA) - cat.closure(H - dh, VA)) / (2.0 * dh);
  J_fd.col(1) = (cat.closure(H, VA + dh) - cat.closure(H, VA - dh)) / (2.0 * dh);
  CHECK((J - J_fd).cwiseAbs().maxCoeff() < 1e-7 * J.cwiseAbs().maxCoeff());
  // The differential equations the closed form integrates, checked pointwise by differences
  // of point(s): |dP/ds| = 1 + T/EA (Hooke), the tangent along the tension (H d, -V e3)/T with
  // V(s) = V_A + mu g s (vertical equilibrium), the horizontal tension constant.
  const Vec3 chord = p.B - p.A;
  const Vec3 d = (chord - chord.dot(kE3) * kE3).normalized();
  const double w = p.mu * p.g, ds = 1e-5;
  for (double s : {0.5, 2.0, 5.0, 7.3, 9.5}) {
    const Vec3 dP = (cat.point(s + ds) - cat.point(s - ds)) / (2.0 * ds);
    const double T = cat.tension(s), V = VA + w * s;
    CHECK(dP.norm() == Approx(1.0 + T / p.EA).epsilon(1e-9));
    CHECK((dP.normalized() - (H * d - V * kE3) / T).norm() < 1e-9);
  }
  // Inextensible limit: EA -> infinity gives the classical catenary, whose horizontal tension
  // solves sinh(lambda)/lambda = sqrt(L^2 - h^2)/l with lambda = w l/(2H).
  ht::Parameters stiff = p;
  stiff.EA = 1e12;
  const ht::ElasticCatenary rigid(stiff);
  const double l = (chord - chord.dot(kE3) * kE3).norm(), h = chord.dot(kE3);
  const double lambda = w * l / (2.0 * rigid.horizontal_tension());
  CHECK(std::sinh(lambda) / lambda == Approx(std::sqrt(p.length * p.length - h * h) / l).epsilon(1e-9));
  // Elasticity: the elastic tether sags more, so its horizontal tension is lower.
  CHECK(cat.horizontal_tension() < rigid.horizontal_tension());
}

TEST_CASE("hanging tether: Newton's static solve converges quadratically to a rest state of the dynamics",
          "[hanging-tether][static]") {
  for (auto d : {ht::Discretisation::Full, ht::Discretisation::Lumped}) {
    const ht::Parameters p = tether(32, d, 2.0);
    const ht::Mechanics mech(p);
    const ht::StaticSolution s = ht::solve_static_equilibrium(mech);
    INFO(ht::to_string(d) << ": " << s.iterations << " Newton iterations, |f| = " << s.residual_inf);
    CHECK(s.iterations <= 12);
    CHECK(s.residual_inf < 1e-9 * p.mu * p.g * p.length);
    // Every element is in tension at the solution.
    for (int e = 0; e < p.N; ++e) CHECK((s.r[e + 1] - s.r[e]).norm() > p.u());
    // A rest state of the equations of motion: zero accelerations.
    ht::State st;
    st.r = s.r;
    st.v.assign(p.N + 1, Vec3::Zero());
    const ht::TetherForm form(p, ht::InitialShape::Straight);
    Eigen::VectorXd dydt;
    form.rhs(0.0, mech.pack(st), dydt);
    CHECK(dydt.cwiseAbs().maxCoeff() < 1e-8);
    // From another start (a parabola 20% longer than the tether) the same solution is found.
    const ht::StaticSolution again = ht::solve_static_equilibrium(mech, ht::parabola_shape(p, 1.2 * p.length));
    CHECK(max_distance(again.r, s.r) < 1e-11 * p.length);
  }
}

TEST_CASE("hanging tether: the full model's static shape converges to the elastic catenary at second order",
          "[hanging-tether][catenary]") {
  // Seed 003 Remark 1. The full model's gravity loads are the exact consistent loads of the
  // uniform weight, so the nodes converge at second order, the rate of a linear element.
  const auto full = ht::catenary_convergence(tether(4, ht::Discretisation::Full), ht::default_catenary_elements());
  REQUIRE(full.points.size() == 7);
  for (const auto& pt : full.points) {
    INFO("N = " << pt.N << ": error " << pt.max_error << " m, rate " << pt.rate);
    if (pt.N > 4) CHECK(pt.rate > 1.9);
    if (pt.N > 4) CHECK(pt.rate < 2.15);
    CHECK(pt.newton_iterations <= 12);
  }
  CHECK(full.fitted_rate == Approx(2.0).margin(0.05));
  CHECK(full.points[4].N == 64);
  CHECK(full.points[4].max_error < 5e-4);  // 3.7e-4 m on a 10 m tether
  // The discrete horizontal tension converges to Irvine's H.
  CHECK(std::abs(full.points.back().horizontal_tension - full.analytic_horizontal_tension) <
        1e-4 * full.analytic_horizontal_tension);
}

TEST_CASE("hanging tether: the slides' lumped model converges at first order, by its lost end masses",
          "[hanging-tether][catenary]") {
  // The slides put mu L/(N+1) on each of the N+1 nodes; the two on the supports never load the
  // tether, so the hanging weight is short by 2/(N+1): a first-order error on top of the
  // full model's second-order one. Exactly: the lumped static shape is the full model's for
  // mu N/(N+1) (each free node carries mu L/(N+1) = (mu N/(N+1)) u).
  for (int N : {4, 16, 64}) {
    const ht::Mechanics lumped(tether(N, ht::Discretisation::Lumped));
    ht::Parameters lighter = tether(N, ht::Discretisation::Full);
    lighter.mu *= double(N) / (N + 1);
    const ht::Mechanics full_lighter(lighter);
    CHECK(max_distance(ht::solve_static_equilibrium(lumped).r, ht::solve_static_equilibrium(full_lighter).r) <
          1e-11 * lighter.length);
  }
  const auto lumped = ht::catenary_convergence(tether(4, ht::Discretisation::Lumped), ht::default_catenary_elements());
  // Pre-asymptotic at small N (the two errors partly cancel), then rate -> 1.
  const auto& last = lumped.points.back();
  REQUIRE(last.N == 256);
  INFO("lumped rates: 64->128 " << lumped.points[5].rate << ", 128->256 " << last.rate);
  CHECK(lumped.points[5].rate > 0.85);
  CHECK(last.rate > 0.9);
  CHECK(last.rate < 1.1);
  CHECK(last.max_error < 1.5e-3);
}

TEST_CASE("hanging tether: lumped and full models approach the same catenary and each other",
          "[hanging-tether][catenary]") {
  double previous = 0.0;
  for (int N : {8, 16, 32, 64}) {
    const ht::Parameters pf = tether(N, ht::Discretisation::Full), pl = tether(N, ht::Discretisation::Lumped);
    const ht::ElasticCatenary cat(pf);
    const auto full = ht::solve_static_equilibrium(ht::Mechanics(pf));
    const auto lumped = ht::solve_static_equilibrium(ht::Mechanics(pl));
    const double apart = max_distance(full.r, lumped.r);
    INFO("N = " << N << ": full " << ht::max_node_distance(full.r, cat, pf.length) << " m, lumped "
                << ht::max_node_distance(lumped.r, cat, pl.length) << " m from the catenary, " << apart << " m apart");
    CHECK(ht::max_node_distance(full.r, cat, pf.length) < 0.03);
    CHECK(ht::max_node_distance(lumped.r, cat, pl.length) < 0.03);
    // Their distance halves (first order) with each doubling of N.
    if (previous > 0.0) CHECK(apart / previous == Approx(0.5).margin(0.06));
    previous = apart;
  }
}

TEST_CASE("hanging tether: damped dynamics from the straight chord settle to the static solution",
          "[hanging-tether][dynamics]") {
  // The bundled cases' set-up (N = 20, zeta = 4/s, released from the compressed straight chord):
  // mass-proportional damping decays every underdamped mode (omega > zeta/2, here all of them:
  // the measured distance to rest falls by e^-2.1 per second) like exp(-zeta t/2), so after
  // 12 s ~ e^-24 of the initial metre-scale motion remains. Each discretisation settles to
  // its own static solution.
  for (auto d : {ht::Discretisation::Full, ht::Discretisation::Lumped}) {
    const ht::Parameters p = tether(20, d, 4.0);
    const auto model = ht::make_model(p, ht::InitialShape::Straight);
    const std::string name = d == ht::Discretisation::Full ? "rk45" : "rk2";
    auto form = formulation_for(*model, integrator(name));
    const auto& tf = dynamic_cast<const ht::TetherForm&>(*form);
    Eigen::VectorXd y;
    const ConservationMetrics m = run_metrics(tf, name, 12.0, 1e-3, 1e-8, 1e-10, &y);
    const ht::State s = tf.mechanics().unpack(12.0, y);
    const ht::StaticSolution st = ht::solve_static_equilibrium(tf.mechanics());
    double vmax = 0.0;
    for (const auto& v : s.v) vmax = std::max(vmax, v.norm());
    INFO(name << ": |r - r_static| = " << max_distance(s.r, st.r) << " m, max |v| = " << vmax
              << " m/s, energy balance " << m.energy_err_max << " J of " << s.dissipated_work << " J dissipated");
    CHECK(max_distance(s.r, st.r) < 1e-8);  // measured 1.0e-10 (rk45), 1.4e-10 (rk2, lumped)
    CHECK(vmax < 1e-7);
    // The released compression and gravity energy has gone into the damper, and the balance
    // E(t) - E(0) + W_dissipated(t) holds to the integrator's accuracy.
    const Observation o0 = tf.observe(0.0, tf.initial_state()), o1 = tf.observe(12.0, y);
    CHECK(s.dissipated_work == Approx(o0.energy - o1.energy).epsilon(1e-3));
    CHECK(m.energy_err_max < (d == ht::Discretisation::Full ? 1e-5 : 0.2));  // 6.6e-7 J, 7.7e-2 J
  }
}

TEST_CASE("hanging tether: without damping tight RK45 conserves the energy of both models",
          "[hanging-tether][energy]") {
  for (auto d : {ht::Discretisation::Full, ht::Discretisation::Lumped}) {
    const ht::Parameters p = tether(12, d, 0.0);
    const ht::TetherForm form(p, ht::InitialShape::Parabola);
    const ConservationMetrics m = run_metrics(form, "rk45", 2.0, 1e-4, 1e-11, 1e-13);
    INFO(ht::to_string(d) << ": max |E - E0| = " << m.energy_err_max << " J, max T = " << m.kinetic_max << " J");
    CHECK(m.kinetic_max > 1.0);  // the tether swings (max T ~ 4 J): not a resting state
    CHECK(m.energy_err_max < 1e-10 * m.kinetic_max);  // measured 1.8e-12 J (full), 2.7e-12 J (lumped)
  }
}

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The bundled full-model case with `from` replaced by `to`, written to `dir`.
std::filesystem::path case_variant(const std::filesystem::path& dir, const std::string& from, const std::string& to) {
  std::string text = slurp(std::filesystem::path(TETHERBENCH_CASES_DIR) / "T_hanging_tether_full.toml");
  if (!from.empty()) {
    const auto pos = text.find(from);
    REQUIRE(pos != std::string::npos);
    text.replace(pos, from.size(), to);
  }
  std::filesystem::create_directories(dir);
  const auto p = dir / "variant.toml";
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST_CASE("hanging tether: case files build the model - bad keys are refused with file, key and expectation",
          "[hanging-tether][input]") {
  for (const char* name : {"T_hanging_tether_full.toml", "T_hanging_tether_lumped.toml"}) {
    const Case c = load_case((std::filesystem::path(TETHERBENCH_CASES_DIR) / name).string());
    const auto* model = dynamic_cast<const ht::HangingTetherModel*>(c.model.get());
    REQUIRE(model);
    CHECK(model->params().N == 20);
    CHECK(model->params().damping_rate == 4.0);
    const bool full = model->params().discretisation == ht::Discretisation::Full;
    CHECK(full == (std::string(name).find("full") != std::string::npos));
    std::string why_not;
    // One discretisation, the case's, offered as an ODE.
    CHECK(c.model->discretisations() == std::vector<std::string>{full ? "full" : "lumped"});
    CHECK(c.model->make_formulation(FormulationKind::EmbeddedOde, why_not) != nullptr);
    CHECK(c.model->make_formulation(FormulationKind::EmbeddedOde, full ? "lumped" : "full", why_not) == nullptr);
    CHECK(!why_not.empty());
    CHECK(c.model->make_formulation(FormulationKind::DiscreteLieGroup, why_not) != nullptr);  // the LGVI's form
    CHECK(c.model->make_formulation(FormulationKind::IndexOneDae, why_not) != nullptr);  // the implicit ODE
  }
  const auto dir = std::filesystem::temp_directory_path() / ("tb_hanging_" + std::to_string(std::random_device{}()));
  struct Bad {
    std::string from, to, key;
  };
  for (const Bad& b : {Bad{"elements = 20", "elements = 1", "model.elements"},
                       Bad{"discretisation = \"full\"", "discretisation = \"consistent\"", "model.discretisation"},
                       Bad{"anchor_B = [8.0, 0.0, 1.0]", "anchor_B = [10.0, 0.0, 1.0]", "model.anchor_B"},
                       Bad{"anchor_B = [8.0, 0.0, 1.0]", "anchor_B = [0.0, 0.0, 5.0]", "model.anchor_B"},
                       Bad{"damping_rate = 4.0", "damping_rate = -1.0", "model.damping_rate"},
                       Bad{"shape = \"straight\"", "shape = \"curved\"", "initial.shape"}}) {
    const auto file = case_variant(dir, b.from, b.to);
    INFO(b.to);
    try {
      load_case(file.string());
      FAIL("accepted " + b.to);
    } catch (const InputError& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(what.find(file.string()) != std::string::npos);
      CHECK(what.find(b.key) != std::string::npos);
      CHECK(what.find("expected") != std::string::npos);
    }
  }
  // The damping rate is optional, defaulting to 0 (undamped).
  const Case undamped = load_case(case_variant(dir, "damping_rate = 4.0", "").string());
  CHECK(dynamic_cast<const ht::HangingTetherModel&>(*undamped.model).params().damping_rate == 0.0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("hanging tether: `tetherbench catenary` writes N, discretisation, error and rate", "[hanging-tether][cli]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tb_catenary_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  const auto csv = dir / "catenary.csv";
  const std::string cmd = std::string(TETHERBENCH_BINARY) + " catenary " + TETHERBENCH_CASES_DIR +
                          "/T_hanging_tether_full.toml " + TETHERBENCH_CASES_DIR +
                          "/T_hanging_tether_lumped.toml --elements 4,8,16 --out " + dir.string() + " > " +
                          (dir / "out.txt").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  INFO(slurp(dir / "out.txt"));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::istringstream lines(slurp(csv));
  std::string line;
  std::getline(lines, line);
  CHECK(line.rfind("case,discretisation,elements,max_error_m,rate,", 0) == 0);
  int rows = 0;
  while (std::getline(lines, line)) {
    ++rows;
    INFO(line);
    CHECK((line.rfind("T_hanging_tether_full,full,", 0) == 0 || line.rfind("T_hanging_tether_lumped,lumped,", 0) == 0));
  }
  CHECK(rows == 6);
  // The full model's rate at N = 16 (fifth column) is about 2.
  std::istringstream again(slurp(csv));
  std::getline(again, line);
  for (int i = 0; i < 3; ++i) std::getline(again, line);
  std::vector<std::string> cols;
  std::stringstream cells(line);
  for (std::string cell; std::getline(cells, cell, ',');) cols.push_back(cell);
  REQUIRE(cols.size() == 9);
  CHECK(cols[2] == "16");
  CHECK(std::stod(cols[4]) == Approx(2.0).margin(0.1));
  // A case of another model is refused.
  const int bad = std::system((std::string(TETHERBENCH_BINARY) + " catenary " + TETHERBENCH_CASES_DIR +
                               "/A_string_pendulum_paper.toml --out " + dir.string() + " > /dev/null 2>&1").c_str());
  CHECK(WEXITSTATUS(bad) == 2);
  std::filesystem::remove_all(dir);
}
