#include "mechanics/body_shapes.hpp"
#include "benchmarks/benchmark_models.hpp"

#include <cmath>

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

}  // namespace

const std::vector<BenchmarkModel>& benchmark_models() {
  // A new model adds one line here: {name, factory(N), fastest-mode frequency(N), what N counts}.
  static const std::vector<BenchmarkModel> models = {
      {"multirotor_payload", multirotor_paper, multirotor_max_frequency, "cable links n [dimensionless count]"},
      {"string_pendulum", string_pendulum_paper, string_pendulum_max_frequency, "string elements N [dimensionless count]"},
  };
  return models;
}

}  // namespace tb::bench
