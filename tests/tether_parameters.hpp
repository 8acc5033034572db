#pragma once
// The bundled cases' hanging tether, for tests that build its mechanics directly: L = 10 m,
// mu = 0.5 kg/m, EA = 500 N (a few percent of strain at equilibrium, so elasticity matters),
// anchors 8 m apart with B 1 m lower, off the x axis so that no coordinate is special.

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

}  // namespace tb::testing
