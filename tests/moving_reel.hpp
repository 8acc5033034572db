#pragma once
// A small Model B built in code with the reel moving under a control moment (N = 4), in either
// discretisation of its LGVI (the paper's one-sided quadratures are reachable only in code): the
// composition tests measure the paper rule's asymmetry on it, and the n/a-reason test needs it for
// an integrator that declines a form the model offers (lgvi4 refusing an asymmetric step).

#include <memory>

#include "mechanics/body_shapes.hpp"
#include "models/reel_pendulum/model.hpp"
#include "models/reel_pendulum/mechanics.hpp"

namespace tb::testing {

inline std::shared_ptr<const Model> moving_reel(reel_pendulum::Parameters::Discretization rule) {
  reel_pendulum::Parameters p;
  p.N = 4;
  p.mu = 0.025;
  p.L = 5.0;
  p.EA = 40.0;
  p.M = 0.1;
  p.rho_c = Vec3(0.04, 0.01, 0.05);
  p.J = elliptic_cylinder_inertia_about_attachment(p.M, 0.06, 0.04, 0.1, p.rho_c);
  p.b = 0.5;
  p.d = 0.3;
  p.kappa_d = 0.2;
  p.u = 0.05;
  p.discretization = rule;
  reel_pendulum::InitialCondition ic;
  ic.s0 = 3.0;
  ic.string_direction = Vec3(0.48, 0.36, 0.8);
  ic.body_velocity = Vec3(0.15, 0.45, -0.2);
  return reel_pendulum::make_model(p, ic);
}

}  // namespace tb::testing
