#pragma once
// SPEC "Model B" parameters (seed 002 §4), the one set the reel tests build their strings from:
// mu = 0.025 kg/m, L = 100 m, EA = 40 N, the elliptic-cylinder body (M = 0.1 kg), b = d = 0.5 m,
// kappa_d = 1; N elements, the reel locked or free, u the drum moment (N m; case 3's 2.09).

#include "mechanics/body_shapes.hpp"
#include "models/reel_pendulum/mechanics.hpp"

namespace tb::testing {

inline reel_pendulum::Parameters spec_reel_parameters(int N, bool locked, double u) {
  reel_pendulum::Parameters p;
  p.N = N;
  p.mu = 0.025;
  p.L = 100.0;
  p.EA = 40.0;
  p.M = 0.1;
  p.rho_c = Vec3(0.3, 0.2, 0.4);
  p.J = elliptic_cylinder_inertia_about_attachment(p.M, 0.5, 0.4, 0.8, p.rho_c);
  p.g = 9.81;
  p.b = p.d = 0.5;
  p.kappa_d = 1.0;
  p.u = u;
  p.reel_locked = locked;
  return p;
}

}  // namespace tb::testing
