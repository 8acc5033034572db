// The planar pendulum as the runner sees it: built from a case file, offering the polar ODE
// (for rk4/rk45, and the reference solution), the Cartesian index-1 DAE (for ida), the
// Cartesian constrained mechanical system (for rattle) and the LGVI's form on S^1 (lgvi, lgvi4).

#include "models/planar_pendulum/model.hpp"

#include <cmath>

#include "models/planar_pendulum/forms.hpp"
#include "models/planar_pendulum/unilateral_model.hpp"
#include "core/linear_modes.hpp"

namespace tb::planar_pendulum {
namespace {

std::shared_ptr<const Model> build_from_case(TableReader& model, TableReader& initial) {
  Parameters p;
  p.m = model.positive("mass");
  p.l = model.positive("length");
  p.g = model.non_negative("gravity");
  // Issue 48: the rod as an inextensible string that cannot push, snapping taut by Newton's
  // impact law; the default stays the rigid rod of seed 004.
  if (model.has("link")) p.unilateral = model.one_of("link", {"bilateral", "unilateral"}) == "unilateral";
  if (p.unilateral) {
    p.restitution = model.non_negative_or("restitution", 0.0);
    if (!(p.restitution <= 1.0)) model.fail("restitution", "Newton's coefficient of restitution e in [0, 1]", std::to_string(p.restitution));
    // The "no events" baseline's spring (discretisation "penalty"); absent, the default (unilateral.hpp PenaltyLink).
    if (model.has("penalty_stiffness")) p.penalty_stiffness = model.positive("penalty_stiffness");
  }
  model.finish();

  InitialCondition ic;
  if (p.unilateral && initial.has("position")) {
    // Anywhere in the disc |r| <= l, at rest or moving: [x, 0, z] in the e1-e3 plane (e3 down).
    const Eigen::Vector3d r = initial.vec3("position"), v = initial.vec3_or("velocity", Eigen::Vector3d::Zero());
    if (r.y() != 0.0 || v.y() != 0.0)
      initial.fail(r.y() != 0.0 ? "position" : "velocity", "a vector in the e1-e3 plane of motion: [x, 0, z]", "a non-zero e2 entry");
    if (!(r.norm() <= p.l) || !(r.norm() > 0.0))
      initial.fail("position", "a point of the disc 0 < |r| <= length = " + std::to_string(p.l) + " m (a string cannot be longer than itself)",
                   std::to_string(r.norm()) + " m from the pivot");
    ic.cartesian = Eigen::Vector4d(r.x(), r.z(), v.x(), v.z());
  } else {
    const double angle_deg = initial.number("angle_deg");
    if (!(std::abs(angle_deg) < 180.0))
      initial.fail("angle_deg", "an angle from the downward vertical in (-180, 180) degrees", std::to_string(angle_deg));
    ic.theta = angle_deg * M_PI / 180.0;
    ic.omega = initial.number("angular_velocity");
  }
  initial.finish();
  return make_model(p, ic);
}

}  // namespace

std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic) {
  if (p.unilateral) return make_unilateral_model(p, ic);
  auto model = std::make_shared<FormulationMenu>(
      "planar_pendulum", StateSize{5.0, "a planar pendulum: at most 5 numbers"},
      std::vector<FormulationMenu::Item>{
          offer<PolarForm>(FormulationKind::EmbeddedOde, p, ic),
          offer<CartesianDaeForm>(FormulationKind::IndexOneDae, p, ic),
          offer<ConstrainedForm>(FormulationKind::ConstrainedMechanical, p, ic),
          // The LGVI on S^1 = SO(2): the unit direction moved by planar rotations (lie_group_form.cpp).
          offer<LieGroupForm>(FormulationKind::DiscreteLieGroup, p, ic),
          // S^1 = SO(2) is a Lie group, abelian, so this decline is not for want of a group: on an
          // abelian group a Lie group ODE method is its vector-space counterpart in the angle.
          decline(FormulationKind::LieGroupOde,
                  "its configuration space S^1 = SO(2) is an abelian Lie group: exp is the addition of angles and "
                  "dexp^-1 the identity, so a Lie group method on this form would be its vector-space counterpart "
                  "on the polar-angle ODE (the embedded-ode form) step for step (a Munthe-Kaas or commutator-free "
                  "method its Runge-Kutta method)")},
      PhysicalParts().then(PhysicalPart::Configuration, 2).then(PhysicalPart::Rate, 2));  // [x, z, vx, vz]
  model->declare_no_rotations();  // point masses only: no R to keep orthogonal
  // Gravity in the plane of motion breaks every rotation of it: no Noether momentum. Without
  // gravity the rotations about the pivot are a symmetry, with the angular momentum as its map.
  if (p.g != 0.0) model->declare_no_momentum_map();
  // The slowest period from the linearisation about the hanging rest state (core/linear_modes.hpp):
  // 2 pi sqrt(l / g), the small-amplitude period. The case's swing from 60 degrees takes longer,
  // by Gauss's 1 / agm(1, cos(theta0 / 2)) = 1.073 (the report prints the basis; tests check both).
  InitialCondition rest;  // theta = 0, at rest
  declare_linearised_slowest_period(*model, [p, rest] { return ConstrainedForm(p, rest); }, "the hanging rest state");
  return model;
}

ModelInfo info() {
  return {"planar_pendulum",
          "textbook planar pendulum (seed 004): polar-angle ODE, Cartesian Baumgarte index-1 DAE and constrained "
          "mechanical form",
          build_from_case};
}

}  // namespace tb::planar_pendulum
