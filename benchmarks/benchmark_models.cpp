#include "mechanics/body_shapes.hpp"
#include "benchmarks/benchmark_models.hpp"

#include <cmath>

#include "models/hanging_tether/model.hpp"
#include "models/multirotor_payload/model.hpp"
#include "models/string_pendulum/model.hpp"

namespace tb::bench {

// Model A at the paper's parameters (SPEC "Model A", seed 000 §V; the same values as
// cases/A_string_pendulum_paper.toml) with N elements. The string length stays 1 m, so the
// elements get shorter (u = l/N), lighter and stiffer (kappa = EA/u) as N grows.
string_pendulum::Parameters string_pendulum_paper_parameters(int N) {
  string_pendulum::Parameters p;
  p.N = N;
  p.mu = 0.025;   // kg/m
  p.length = 1.0; // m
  p.EA = 40.0;    // N
  p.M = 0.1;      // kg
  p.rho_c = Vec3(0.04, 0.01, 0.05);  // m
  p.J = tb::elliptic_cylinder_inertia_about_attachment(p.M, /*a=*/0.06, /*b=*/0.04, /*H=*/0.1,
                                                                    p.rho_c);
  p.g = 9.81;
  return p;
}

namespace {

std::shared_ptr<const Model> string_pendulum_paper(int N) {
  const string_pendulum::Parameters p = string_pendulum_paper_parameters(N);
  string_pendulum::InitialCondition ic;  // straight, unstretched string along e1, nodes at rest
  ic.string_direction = Vec3::UnitX();
  ic.body_velocity = Vec3(0.0, 0.2, -0.5);  // m/s
  ic.R0 = Mat3::Identity();
  ic.Omega0 = Vec3::Zero();
  return string_pendulum::make_model(p, ic);
}

// Fastest string mode with the consistent mass matrix, as the model states it
// (Model::max_frequency: 2 sqrt(3) sqrt(EA / (mu u^2)), u = l/N).
double string_pendulum_max_frequency(int N) { return *string_pendulum_paper(N)->max_frequency("consistent"); }

// Model C's single case (SPEC "Model C", cases/C_single_multirotor.toml) with N links of a
// 1 m cable whose total mass stays the paper's 0.05 kg (m_i = 0.05/N), multirotor spinning.
std::shared_ptr<const Model> multirotor_paper(int N) {
  multirotor_payload::Parameters p;
  p.links = N;
  p.link_mass = 0.05 / N;
  p.J_Q = Vec3(1.367e-2, 1.367e-2, 2.586e-2).asDiagonal();
  multirotor_payload::InitialCondition ic;
  ic.Omega0 = Vec3(0.3, -0.2, 1.0);
  return multirotor_payload::make_model(p, ic);
}

// Fastest cable mode: the zig-zag in which the joints alternate and the link centres (the only
// masses) hardly move. Its effective mass ~ m_i (pi/2N)^2 against a tension stiffness ~ 2 T N
// (T ~ m_p g) gives omega_max ~ sqrt(8 T N^3 / (pi^2 m_i)) ~ 14 N^2 rad/s for m_i = 0.05/N.
double multirotor_max_frequency(int N) { return 14.0 * N * N; }

// The hanging tether (seed 004 slides; cases/T_hanging_tether_{lumped,full}.toml's tether: mu 0.5
// kg/m, L 10 m, EA 500 N, A = 0, B = (8, 0, 1) m) with N elements, bilateral or tension-only
// (issue 47: a slack element has no force and no stiffness). Two changes from the cases, the same
// for both cables so that they differ in nothing else:
// - undamped: the cases' damping (zeta = 4/s) settles the tether to its catenary, where every
//   element is taut, within a few simulated seconds, and a small N's benchmark runs for minutes
//   of simulated time, so a tension-only tether would be measured almost only on its taut branch;
// - the initial shape InitialShape::SlackMiddle (models/hanging_tether/shapes.hpp): the middle half
//   of the elements 2% short of u, the outer quarters 2% long, at rest. Released straight (the
//   cases' shape) every element starts slack, and at N = 5000 (h ~ 1e-5 s) the benchmark's few
//   hundred steps end long before the falling tether's elements go taut (about 0.7 s): only the
//   slack branch would be measured, and warming up to there costs 10^5 steps per integrator.
//   From SlackMiddle half the elements take either branch at every N, in two contiguous regions
//   as in a sagging cable whose middle has gone slack; the share measured is recorded
//   (short_fraction_start/end), since the undamped motion moves it over a small N's long run.
// The bilateral tether starts from the same state: its middle elements push.
std::shared_ptr<const Model> hanging_tether(int N, hanging_tether::Discretisation discretisation, bool tension_only) {
  hanging_tether::Parameters p;
  p.N = N;
  p.mu = 0.5;
  p.length = 10.0;
  p.EA = 500.0;
  p.g = 9.81;
  p.A = Vec3::Zero();
  p.B = Vec3(8.0, 0.0, 1.0);
  p.damping_rate = 0.0;
  p.tension_only = tension_only;
  p.discretisation = discretisation;
  return hanging_tether::make_model(p, hanging_tether::InitialShape::SlackMiddle);
}

// The fastest mode of the bilateral tether's chain (fixed ends, every element at its full axial
// stiffness kappa = EA N / L): 2 sqrt(kappa / m) with the lumped node mass m = mu L / (N + 1), and
// 2 sqrt(3) sqrt(kappa / (mu u)) with the consistent mass (as for Model A's string). A slack
// tension-only element has no stiffness, so the tension-only tether is no faster: both cables
// are benchmarked at the same h, and their costs per step compare like for like.
double hanging_tether_lumped_max_frequency(int N) { return 2.0 * std::sqrt(500.0 * N * (N + 1.0) / (0.5 * 10.0 * 10.0)); }
double hanging_tether_full_max_frequency(int N) { return 2.0 * std::sqrt(3.0) * (N / 10.0) * std::sqrt(500.0 / 0.5); }

}  // namespace

const std::vector<BenchmarkModel>& benchmark_models() {
  // A new model adds one entry here: {name, factory(N), fastest-mode frequency(N), what N counts,
  // and optionally its column counting short elements}.
  using hanging_tether::Discretisation;
  const std::string tether_elements = "tether elements N [dimensionless count]";
  // The tethers at three sizes a decade apart (the tension-only against bilateral ratio is the
  // question, not the scaling the string's nine sizes show): 120 benchmarks, not 360, in the main job.
  const std::vector<int> tether_sizes = {10, 200, 2000};
  static const std::vector<BenchmarkModel> models = {
      {"hanging_tether_full", [](int N) { return hanging_tether(N, Discretisation::Full, false); },
       hanging_tether_full_max_frequency, tether_elements, "short_elements", tether_sizes},
      {"hanging_tether_full_tension_only", [](int N) { return hanging_tether(N, Discretisation::Full, true); },
       hanging_tether_full_max_frequency, tether_elements, "short_elements", tether_sizes},
      {"hanging_tether_lumped", [](int N) { return hanging_tether(N, Discretisation::Lumped, false); },
       hanging_tether_lumped_max_frequency, tether_elements, "short_elements", tether_sizes},
      {"hanging_tether_lumped_tension_only", [](int N) { return hanging_tether(N, Discretisation::Lumped, true); },
       hanging_tether_lumped_max_frequency, tether_elements, "short_elements", tether_sizes},
      {"multirotor_payload", multirotor_paper, multirotor_max_frequency, "cable links n [dimensionless count]"},
      {"string_pendulum", string_pendulum_paper, string_pendulum_max_frequency, "string elements N [dimensionless count]"},
  };
  return models;
}

}  // namespace tb::bench
