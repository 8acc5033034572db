#include "suite/conformance_bench.hpp"

#include <cmath>

#include "mechanics/body_shapes.hpp"
#include "models/free_rigid_body/model.hpp"
#include "models/multirotor_payload/model.hpp"
#include "models/planar_pendulum/model.hpp"
#include "models/string_pendulum/model.hpp"
#include "numerics/lie_group.hpp"

namespace tb {

namespace {

// Model A (SPEC "Model A", the paper's parameters) with N = 8 elements and a spinning body, so
// that every degree of freedom, SO(3) and the coupling move from t = 0; it conserves pi3, the
// momentum map of rotations about e3.
std::shared_ptr<const Model> spinning_string_pendulum() {
  string_pendulum::Parameters p;
  p.N = 8;
  p.mu = 0.025;
  p.length = 1.0;
  p.EA = 40.0;
  p.M = 0.1;
  p.rho_c = Vec3(0.04, 0.01, 0.05);
  p.J = elliptic_cylinder_inertia_about_attachment(p.M, 0.06, 0.04, 0.1, p.rho_c);
  p.g = 9.81;
  string_pendulum::InitialCondition ic;
  ic.string_direction = Vec3::UnitX();
  ic.body_velocity = Vec3(0.0, 0.2, -0.5);
  ic.Omega0 = Vec3(1.5, -2.0, 3.0);
  ic.R0 = so3::exp(Vec3(0.3, -0.2, 0.5));
  return string_pendulum::make_model(p, ic);
}

// The planar pendulum (seed 004) released at 60 degrees: the Baumgarte index-1 DAE, and one
// clean mode (period 2.15 s) for the energy check.
std::shared_ptr<const Model> swinging_pendulum() {
  planar_pendulum::InitialCondition swing;
  swing.theta = M_PI / 3.0;
  return planar_pendulum::make_model(planar_pendulum::Parameters{}, swing);
}

// A swing on a unilateral link (issue 48): taut throughout (|theta| < 90 degrees keeps its
// tension positive: from 60 degrees at 1 rad/s it reaches 63.3), so that a method that runs only
// unilateral links (Moreau-Jean) is checked on a smooth motion like the others. Not from rest: a
// step from rest is time-symmetric to a higher order than a moving one (measured: nonsmooth
// generalized-alpha's step back returned to 7e-14 of a start at rest, a generalized-alpha step's
// defect being O(h^3) with the velocity), so the symmetry check could not tell its methods apart.
std::shared_ptr<const Model> swinging_pendulum_on_a_string() {
  planar_pendulum::Parameters p;
  p.unilateral = true;
  planar_pendulum::InitialCondition swing;
  swing.theta = M_PI / 3.0;
  swing.omega = 1.0;
  return planar_pendulum::make_model(p, swing);
}

// The free rigid body tumbling about no principal axis (|Omega| ~ 1.5 rad/s, or x `spin`): for
// an integrator that declines the forms before it (one needing analytic tangents), and R only.
std::shared_ptr<const Model> tumbling_body(double spin) {
  free_rigid_body::Parameters body;
  body.J = Eigen::Vector3d(1.0, 2.0, 2.6).asDiagonal();
  free_rigid_body::InitialCondition tumbling;
  tumbling.Omega0 = spin * Vec3(0.7, -1.3, 0.9);
  return free_rigid_body::make_model(body, tumbling);
}

// Model C with a 4-link cable, its multirotor spinning at |Omega| ~ 8.8 rad/s and the cable
// swinging out of plane: every R and q_i moves.
std::shared_ptr<const Model> spinning_multirotor() {
  multirotor_payload::Parameters p;
  p.links = 4;
  p.J_Q = Eigen::Vector3d(1.367e-2, 1.367e-2, 2.586e-2).asDiagonal();
  multirotor_payload::InitialCondition ic;
  ic.Omega0 = Vec3(3.2, -2.0, 8.0);
  ic.payload_velocity = Vec3(0.0, 0.6, 0.0);
  return multirotor_payload::make_model(p, ic);
}

}  // namespace

conformance::IntegratorBench suite_integrator_bench(const Catalogue& catalogue) {
  conformance::IntegratorBench bench;
  bench.catalogue = &catalogue;
  const auto string = spinning_string_pendulum();
  const auto pendulum = swinging_pendulum();
  const auto on_a_string = swinging_pendulum_on_a_string();
  bench.general = {string, pendulum, tumbling_body(1.0), on_a_string};
  bench.momentum_map = string;
  bench.every_kind = {string, pendulum};
  // The body at 3x the spin (|Omega| ~ 4.6 rad/s, h |Omega| ~ 0.09 at h = 0.02 s).
  bench.one_mode = {pendulum, tumbling_body(3.0), on_a_string};
  bench.manifold = {spinning_multirotor(), tumbling_body(3.0)};
  // The classical Runge-Kutta method on the embedded ODE: R and q_i free numbers, it drifts.
  bench.drift_integrator = "rk4";
  return bench;
}

}  // namespace tb
