// Model A with the lumped-mass string (SPEC "Model B", "Lumped-mass model": the papers' "RK"
// baseline, after Driscoll et al.): the lumped mechanics checked against independent
// formulations and finite differences, its invariants under a tight RK45, its relation to
// the consistent-mass model (different discretisations that converge to each other as N
// grows), and rk2 on the lumped string beside the LGVI on the paper case (seed 002 Table 1 quantities).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>

#include "core/metrics.hpp"
#include "models/string_pendulum/forms.hpp"
#include "tests/finite_difference.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;
namespace sp = tb::string_pendulum;

namespace {

const Vec3 kE3 = Vec3::UnitZ();

// A stretched, bent string with random node velocities, a random attitude and spin.
sp::State random_state(const sp::Parameters& p, unsigned seed) {
  std::mt19937 g(seed);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g); };
  auto vec = [&](double scale) { return Vec3(scale * uniform(-1, 1), scale * uniform(-1, 1), scale * uniform(-1, 1)); };
  sp::State s;
  const int n = p.N + 1;
  s.r.assign(n, Vec3::Zero());
  s.v.assign(n, Vec3::Zero());
  for (int a = 2; a <= n; ++a) {
    const Vec3 dir = (Vec3(1.0, 0.0, 0.5) + vec(0.5)).normalized();
    s.r[a - 1] = s.r[a - 2] + p.u() * (1.0 + uniform(0.01, 0.05)) * dir;
    s.v[a - 1] = vec(0.8);
  }
  s.R = so3::exp(vec(1.0));
  s.Omega = vec(4.0);
  return s;
}

Eigen::VectorXd packed_velocities(const sp::State& s) {
  const int N = int(s.r.size()) - 1;
  Eigen::VectorXd v(3 * (N + 1));
  for (int a = 2; a <= N + 1; ++a) v.segment<3>(3 * (a - 2)) = s.v[a - 1];
  v.segment<3>(3 * N) = s.Omega;
  return v;
}

// max |E(t) - E(0)| and |pi3(t) - pi3(0)| of a formulation under tight RK45.
ConservationMetrics tight_rk45_metrics(const OdeFormulation& form, double T, double rtol, double atol) {
  IntegratorSettings s = settings_of("rk45", 1e-5);
  s.set("rtol", rtol);
  s.set("atol", atol);
  MetricsAccumulator metrics;
  const IntegrationOutcome out = integrate(form, integrator("rk45"), s, T, 1e-3,
                                           [&](double t, const Eigen::VectorXd& y) { metrics.add(t, form.observe(t, y)); });
  REQUIRE(out.ok());
  return metrics.result();
}

}  // namespace

TEST_CASE("lumped mass: mass matrix, energy, pi3 and equations of motion check out independently",
          "[lumped][mechanics]") {
  for (int N : {1, 5, 20}) {
    for (unsigned seed : {11u, 2024u}) {
      const sp::Parameters p = paper_parameters(N);
      const sp::Mechanics mech(p, sp::StringMass::Lumped);
      REQUIRE(mech.string_mass() == sp::StringMass::Lumped);
      const sp::State s = random_state(p, seed + 7u * unsigned(N));
      INFO("N = " << N << ", seed " << seed);
      const double m = p.m();

      // Diagonal string mass: m I on interior nodes, (M + m/2) I on the attachment node, no
      // coupling between nodes; the body coupling blocks as in the consistent model.
      BlockTridiagonal3 A;
      mech.assemble_mass_matrix(s.R, A);
      REQUIRE(A.blocks() == N + 1);
      for (int i = 0; i < N; ++i) {
        const double expected = i == N - 1 ? p.M + m / 2.0 : m;
        CHECK((A.diag(i) - expected * Mat3::Identity()).cwiseAbs().maxCoeff() == 0.0);
        if (i > 0) CHECK(A.lower(i).cwiseAbs().maxCoeff() == 0.0);
        if (i + 1 < N) CHECK(A.upper(i).cwiseAbs().maxCoeff() == 0.0);
      }
      BlockTridiagonal3 C;
      sp::Mechanics(p).assemble_mass_matrix(s.R, C);
      CHECK(A.upper(N - 1) == C.upper(N - 1));
      CHECK(A.lower(N) == C.lower(N));
      CHECK(A.diag(N) == C.diag(N));

      // T from its definition, sum_a 1/2 m_a |v_a|^2 plus the body, and T = 1/2 v^T M v.
      const Vec3& vN = s.v[N];
      double T_direct = 0.5 * (p.M + m / 2.0) * vN.squaredNorm() + 0.5 * s.Omega.dot(p.J * s.Omega) +
                        p.M * vN.dot(s.R * s.Omega.cross(p.rho_c));
      for (int a = 2; a <= N; ++a) T_direct += 0.5 * m * s.v[a - 1].squaredNorm();
      const double T = mech.kinetic_energy(s);
      const Eigen::VectorXd v = packed_velocities(s);
      CHECK(std::abs(T - T_direct) <= 1e-14 * T);
      CHECK(std::abs(T - 0.5 * v.dot(A.multiply(v))) <= 1e-13 * T);
      CHECK(std::abs(mech.potential_energy(s) - sp::Mechanics(p).potential_energy(s)) == 0.0);  // same V

      // pi3 is the momentum map e3 . (sum_a r_a x p_a + R Pi) of the lumped momenta.
      const Eigen::VectorXd mom = mech.momenta(s);
      Vec3 L = s.R * Vec3(mom.segment<3>(3 * N));
      double scale = L.norm();
      for (int a = 2; a <= N + 1; ++a) {
        const Vec3 rp = s.r[a - 1].cross(Vec3(mom.segment<3>(3 * (a - 2))));
        L += rp;
        scale += rp.norm();
      }
      CHECK(std::abs(mech.angular_momentum_e3(s) - kE3.dot(L)) <= 1e-13 * scale);

      // Along sdot = (v, vdot, R hat(Omega), Omegadot) from accelerations(): E = T + V and pi3
      // are stationary, and the Lagrange / Euler-Poincare equations hold, each side by central
      // differences of momenta(), potential_energy() and kinetic_energy() alone.
      Eigen::VectorXd acc;
      mech.accelerations(s, acc);
      REQUIRE(acc.allFinite());
      const double et = 1e-6;
      const sp::State sp_ = displaced(s, acc, et), sm_ = displaced(s, acc, -et);
      auto energy = [&](const sp::State& st) { return mech.kinetic_energy(st) + mech.potential_energy(st); };
      const double dE = (energy(sp_) - energy(sm_)) / (2.0 * et);
      const double dT = (mech.kinetic_energy(sp_) - mech.kinetic_energy(sm_)) / (2.0 * et);
      REQUIRE(std::abs(dT) > 1e-3);
      CHECK(std::abs(dE) / std::abs(dT) < 1e-7);
      const double dpi = (mech.angular_momentum_e3(sp_) - mech.angular_momentum_e3(sm_)) / (2.0 * et);
      CHECK(std::abs(dpi) < 1e-7 * scale);
      // The consistent model's energy is NOT stationary along the lumped flow (N > 1: the two
      // string kinetic energies differ), so the check above does discriminate.
      if (N > 1) {
        const sp::Mechanics consistent(p);
        auto energy_c = [&](const sp::State& st) { return consistent.kinetic_energy(st) + consistent.potential_energy(st); };
        CHECK(std::abs(energy_c(sp_) - energy_c(sm_)) / (2.0 * et) > 1e-4 * std::abs(dT));
      }

      const Eigen::VectorXd dp = (mech.momenta(sp_) - mech.momenta(sm_)) / (2.0 * et);
      Eigen::VectorXd rhs(3 * (N + 1));
      const double eq = 1e-6;
      for (int a = 2; a <= N + 1; ++a)
        for (int i = 0; i < 3; ++i) {
          sp::State qp = s, qm = s;
          qp.r[a - 1](i) += eq;
          qm.r[a - 1](i) -= eq;
          rhs(3 * (a - 2) + i) = -(mech.potential_energy(qp) - mech.potential_energy(qm)) / (2.0 * eq);
        }
      auto lagrangian = [&](const sp::State& st) { return mech.kinetic_energy(st) - mech.potential_energy(st); };
      Vec3 DR;
      for (int i = 0; i < 3; ++i) {
        sp::State qp = s, qm = s;
        qp.R = s.R * so3::exp(eq * Vec3::Unit(i));
        qm.R = s.R * so3::exp(-eq * Vec3::Unit(i));
        DR(i) = (lagrangian(qp) - lagrangian(qm)) / (2.0 * eq);
      }
      rhs.segment<3>(3 * N) = Vec3(mom.segment<3>(3 * N)).cross(s.Omega) + DR;
      CHECK((dp.head(3 * N) - rhs.head(3 * N)).norm() / rhs.head(3 * N).norm() < 1e-7);
      CHECK((dp.tail<3>() - rhs.tail<3>()).norm() / rhs.tail<3>().norm() < 1e-7);
    }
  }
}

TEST_CASE("lumped discretisation: an ODE form with the consistent form's layout and the lumped energy", "[lumped]") {
  auto model = paper_model(20);
  REQUIRE(model->discretisations() == std::vector<std::string>{"consistent", "lumped"});
  std::string why_not;
  auto lumped = model->make_formulation(FormulationKind::EmbeddedOde, "lumped", why_not);
  auto ode = model->make_formulation(FormulationKind::EmbeddedOde, why_not);
  REQUIRE(lumped);
  REQUIRE(ode);
  CHECK(lumped->kind() == FormulationKind::EmbeddedOde);
  // Only as an ODE: the lumped string has no discrete Lagrangian or DAE here.
  CHECK_FALSE(model->make_formulation(FormulationKind::DiscreteLieGroup, "lumped", why_not));
  CHECK_FALSE(model->make_formulation(FormulationKind::IndexOneDae, "lumped", why_not));
  REQUIRE(dynamic_cast<const OdeFormulation*>(lumped.get()));
  CHECK(lumped->state_size() == ode->state_size());
  CHECK(lumped->initial_state() == ode->initial_state());
  CHECK(lumped->physical_state(lumped->initial_state()) == ode->physical_state(ode->initial_state()));
  CHECK(lumped->extra_column_names() == ode->extra_column_names());
  // At t = 0 only the attachment node moves: the kinetic energies differ by
  // 1/2 (m/2 - m/3) |v_{N+1}|^2 = m/12 |v_{N+1}|^2; the potential energies are equal.
  const Observation ol = lumped->observe(0.0, lumped->initial_state());
  const Observation oc = ode->observe(0.0, ode->initial_state());
  const double m = paper_parameters(20).m(), v2 = paper_initial_condition().body_velocity.squaredNorm();
  CHECK(std::abs((ol.kinetic - oc.kinetic) - m / 12.0 * v2) <= 1e-15);
  CHECK(std::abs((ol.energy - ol.kinetic) - (oc.energy - oc.kinetic)) == 0.0);
}

TEST_CASE("tight RK45 on the lumped form conserves its energy and pi3", "[lumped][rk45]") {
  auto model = string_pendulum::make_model(paper_parameters(20), spinning_initial_condition());
  std::string why_not;
  auto form = model->make_formulation(FormulationKind::EmbeddedOde, "lumped", why_not);
  REQUIRE(form);
  const auto& lumped = dynamic_cast<const OdeFormulation&>(*form);
  const ConservationMetrics r = tight_rk45_metrics(lumped, 0.5, 1e-11, 1e-13);
  std::printf("lumped form, spinning run T = 0.5 s, rk45 rtol 1e-11: |dE|max %.3e J (max KE %.3e J), |dpi3|max %.3e N m s\n",
              r.energy_err_max, r.kinetic_max, r.momentum_err_max);
  CHECK(r.energy_err_max < 1e-9);
  CHECK(r.momentum_err_max < 1e-9);
  CHECK(r.kinetic_max > 0.1);  // a meaningful scale: the body spins
}

TEST_CASE("lumped and consistent strings differ but converge to each other as N grows", "[lumped][discretisation]") {
  // Final physical state of each model's tight RK45 solution at T = 0.2 s (the string's first
  // transverse swing); the gap is the difference of two discretisations of one string.
  // The paper's initial condition is impulsive (the attachment node starts at 0.54 m/s, its
  // neighbour at rest): a velocity jump runs down the string, which neither discretisation
  // resolves, so node *velocities* near the front differ by O(1) m/s whatever N (each mass
  // model disperses the front differently). The configuration (node positions, R) is the
  // integral of those velocities and converges; it is what the check measures.
  const double T = 0.2;
  std::vector<double> us, config_gaps, full_gaps, velocity_gaps, body_gaps;
  for (int N : {10, 20, 40}) {
    auto model = paper_model(N);
    const Eigen::VectorXd consistent = reference_solution(*model, T);
    const Eigen::VectorXd lumped_final = reference_solution(*model, T, "lumped");
    REQUIRE(lumped_final.size() == consistent.size());
    const Eigen::VectorXd diff = lumped_final - consistent;  // layout [r (3N), v (3N), R (9), Omega (3)]
    Eigen::VectorXd config(3 * N + 9), body(3 + 3 + 12);
    config << diff.head(3 * N), diff.segment(6 * N, 9);
    body << diff.segment<3>(3 * (N - 1)), diff.segment<3>(3 * N + 3 * (N - 1)), diff.tail(12);
    us.push_back(1.0 / N);
    config_gaps.push_back(config.lpNorm<Eigen::Infinity>());
    full_gaps.push_back(diff.lpNorm<Eigen::Infinity>());
    velocity_gaps.push_back(diff.segment(3 * N, 3 * N).lpNorm<Eigen::Infinity>());
    body_gaps.push_back(body.lpNorm<Eigen::Infinity>());
  }
  const double rate = fitted_order(us, config_gaps);
  std::printf("lumped - consistent gap at T = %.1f s, N = 10, 20, 40 (rate: slope in 1/N)\n", T);
  std::printf("  configuration (r, R):                  %.3e, %.3e, %.3e  rate %.2f\n", config_gaps[0], config_gaps[1],
              config_gaps[2], rate);
  std::printf("  attachment point r, v and R, Omega:    %.3e, %.3e, %.3e  rate %.2f\n", body_gaps[0], body_gaps[1],
              body_gaps[2], fitted_order(us, body_gaps));
  std::printf("  node velocities (max, impulsive start): %.3e, %.3e, %.3e  rate %.2f\n", velocity_gaps[0],
              velocity_gaps[1], velocity_gaps[2], fitted_order(us, velocity_gaps));
  std::printf("  full physical state (max):             %.3e, %.3e, %.3e\n", full_gaps[0], full_gaps[1], full_gaps[2]);
  for (double g : full_gaps) CHECK(g > 1e-3);  // different discretisations, not the same system
  CHECK(config_gaps[1] < config_gaps[0]);
  CHECK(config_gaps[2] < config_gaps[1]);
  CHECK(rate > 0.5);
}

TEST_CASE("paper case, T = 5 s: rk2 on the lumped string is visibly worse than the LGVI on the Table 1 quantities",
          "[lumped][paper]") {
  const Case c = make_case(paper_model(20), "A_string_pendulum_paper", 5.0, 1e-4, 1e-3);
  const SummaryRow lgvi = run_case(c, integrator("lgvi"), RunOptions{});
  const SummaryRow rk2 = run_case(RunKey{&c, &integrator("rk2"), "lumped"}, RunOptions{});
  CHECK(rk2.integrator == "rk2@lumped");
  REQUIRE(lgvi.outcome.ok());
  REQUIRE(rk2.outcome.ok());
  std::printf("paper case T = 5 s, h = 1e-4 (Table 1 quantities)   %-14s %-14s\n", "lgvi", "rk2@lumped");
  std::printf("  mean |dE| (J)                                     %-14.4e %-14.4e\n", lgvi.metrics.energy_err_mean,
              rk2.metrics.energy_err_mean);
  std::printf("  mean |dpi3| (N m s)                               %-14.4e %-14.4e\n", lgvi.metrics.momentum_err_mean,
              rk2.metrics.momentum_err_mean);
  std::printf("  mean ||I - R^T R||                                %-14.4e %-14.4e\n", lgvi.metrics.orthogonality_err_mean,
              rk2.metrics.orthogonality_err_mean);
  std::printf("  (max |dE| %.3e vs %.3e J; drift %.3e vs %.3e J/s; runtime %.3f vs %.3f s)\n", lgvi.metrics.energy_err_max,
              rk2.metrics.energy_err_max, lgvi.metrics.energy_drift_rate, rk2.metrics.energy_drift_rate, lgvi.runtime_s,
              rk2.runtime_s);
  CHECK(rk2.metrics.energy_err_mean > 10.0 * lgvi.metrics.energy_err_mean);
  CHECK(rk2.metrics.momentum_err_mean > 100.0 * lgvi.metrics.momentum_err_mean);
  CHECK(rk2.metrics.orthogonality_err_mean > 100.0 * lgvi.metrics.orthogonality_err_mean);
}
