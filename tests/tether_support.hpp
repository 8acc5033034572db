#pragma once
// The bundled cases' hanging tether, for tests that build its mechanics directly, and the check
// its forces are held to. The tether: L = 10 m,
// mu = 0.5 kg/m, EA = 500 N (a few percent of strain at equilibrium, so elasticity matters),
// anchors 8 m apart with B 1 m lower, off the x axis so that no coordinate is special.

#include <algorithm>
#include <cmath>

#include "models/hanging_tether/mechanics.hpp"

namespace tb::testing {

inline hanging_tether::Parameters bundled_tether(int N, hanging_tether::Discretisation d, double damping = 0.0) {
  hanging_tether::Parameters p;
  p.N = N;
  p.mu = 0.5;
  p.length = 10.0;
  p.EA = 500.0;
  p.g = 9.81;
  p.A = Vec3(0.3, -0.2, 0.1);
  p.B = p.A + Vec3(8.0 * std::cos(0.4), 8.0 * std::sin(0.4), 1.0);
  p.damping_rate = damping;
  p.discretisation = d;
  return p;
}

// The largest |static_forces + dV/dr| over the free nodes' coordinates, dV by central differences
// of step eps: static_forces = -dV/dr for every mass model (and either element law).
inline double static_force_error(const hanging_tether::Mechanics& mech, const hanging_tether::State& s, double eps = 1e-6) {
  Eigen::VectorXd f;
  mech.static_forces(s.r, f);
  double worst = 0.0;
  for (int c = 0; c < 3 * mech.free_nodes(); ++c) {
    hanging_tether::State plus = s, minus = s;
    plus.r[1 + c / 3](c % 3) += eps;
    minus.r[1 + c / 3](c % 3) -= eps;
    worst = std::max(worst, std::abs(f(c) + (mech.potential_energy(plus) - mech.potential_energy(minus)) / (2.0 * eps)));
  }
  return worst;
}

}  // namespace tb::testing
