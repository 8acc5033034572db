// The elastic pendulum as the runner sees it: built from a case file's [model] and [initial]
// tables, offering the ODE, the (rotation-free) discrete Lie group, the constrained mechanical
// (no constraint) and the index-1 DAE (implicit ODE) forms.

#include "models/elastic_pendulum/model.hpp"

#include <cmath>

#include "models/elastic_pendulum/forms.hpp"
#include "models/elastic_pendulum/slack_closed_forms.hpp"
#include "core/linear_modes.hpp"
#include "mechanics/elastic_element.hpp"
#include "mechanics/unconstrained_dae.hpp"

namespace tb::elastic_pendulum {
namespace {

std::shared_ptr<const Model> build_from_case(TableReader& model, TableReader& initial) {
  Parameters p;
  p.m = model.positive("mass");
  p.k = model.positive("stiffness");
  p.l0 = model.positive("rest_length");
  p.g = model.non_negative("gravity");
  // The seed's spring pushes when shorter than its rest length; a cable cannot (issue 47).
  if (model.has("cable")) p.tension_only = model.one_of("cable", {"bilateral", "tension_only"}) == "tension_only";
  model.finish();

  InitialCondition ic;
  ic.position = initial.vec3("position");
  // The spring force has no direction at the pivot (a slack tension-only spring has none to give).
  if (!(ic.position.norm() > 0.0) && !(p.tension_only && p.l0 > 0.0)) initial.fail("position", "a point other than the pivot (the origin)", "[0, 0, 0]");
  ic.velocity = initial.vec3("velocity");
  // A taut start without a radial oscillation (issue 47's whirling string, whose limit table varies
  // k): |x0| replaced by the radius r at which the spring's tension k (r - l0) supplies the radial
  // force m (|v_t|^2 / r + g e3 . x0/|x0|) the motion needs (v_t the velocity's part across x0), by
  // fixed-point iteration from l0 (a contraction while that force is below k l0 / 2).
  if (initial.has("radius") && initial.one_of("radius", {"as_given", "balanced"}) == "balanced") {
    const double r_given = ic.position.norm();
    if (!(r_given > 0.0)) initial.fail("radius", "\"as_given\" for a start at the pivot (no direction to balance along)", "\"balanced\"");
    const Vec3 n = ic.position / r_given;
    const double vt2 = (ic.velocity - ic.velocity.dot(n) * n).squaredNorm();
    double r = p.l0;
    for (int i = 0; i < 200; ++i) r = p.l0 + p.m * (vt2 / r + p.g * n.z()) / p.k;
    if (!(std::abs(r - (p.l0 + p.m * (vt2 / r + p.g * n.z()) / p.k)) <= 1e-14 * r) || !(r > p.l0))
      initial.fail("radius", "a start whose radial balance has a taut solution r > l0", "no converged balance");
    ic.position = r * n;
  }
  initial.finish();
  return make_model(p, ic);
}

}  // namespace

std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic) {
  auto model = std::make_shared<FormulationMenu>(
      "elastic_pendulum", StateSize{6.0, "a point mass: 6 numbers"},
      std::vector<FormulationMenu::Item>{
          offer<OdeForm>(FormulationKind::EmbeddedOde, p, ic),
          offer<LieGroupForm>(FormulationKind::DiscreteLieGroup, p, ic),
          offer<ConstrainedForm>(FormulationKind::ConstrainedMechanical, p, ic),
          // No constraint: the implicit ODE x' - v = 0, m v' + grad V = 0 (no algebraic component).
          offer<UnconstrainedDaeOf<ConstrainedForm>>(FormulationKind::IndexOneDae, p, ic),
          decline(FormulationKind::LieGroupOde,
                  "its configuration space R^3 is a vector space (an abelian group): exp is the translation and "
                  "dexp^-1 the identity, so a Lie group method on this form would be its vector-space counterpart on the "
                  "embedded-ode form step for step (a Munthe-Kaas or commutator-free method its Runge-Kutta method)")},
      PhysicalParts().then(PhysicalPart::Configuration, 3).then(PhysicalPart::Rate, 3));  // [x, v]
  model->declare_no_rotations();  // point masses only: no R to keep orthogonal
  // The tension-only spring's kink at |x| = l0 (core/switching.hpp): one element from the pivot.
  if (p.tension_only)
    model->declare_switching({1, chain_stretch_meaning(), [l0 = p.l0](double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& s,
                                                                     Eigen::VectorXd& rate) {
                                Eigen::Matrix3Xd points = Eigen::Matrix3Xd::Zero(3, 2), velocities = points;
                                points.col(1) = y.head<3>();
                                velocities.col(1) = y.segment<3>(3);
                                chain_stretches(points, velocities, l0, s, rate);
                              }, p.k});
  declare_slack_closed_forms(*model, p, ic);
  // The slowest period from the linearisation about the hanging rest state (core/linear_modes.hpp;
  // the Newton refinement finds the static length L = l0 + m g / k from the guess l0): the slower of
  // the swing 2 pi sqrt(L / g) (twice, in two planes) and the spring's 2 pi sqrt(m / k).
  InitialCondition rest;
  rest.position = p.l0 * Vec3::UnitZ();  // e3 points down
  rest.velocity = Vec3::Zero();
  declare_linearised_slowest_period(*model, [p, rest] { return ConstrainedForm(p, rest); }, "the hanging rest state");
  // Linearised about the hanging rest state the spring's mode sqrt(k/m) is the faster of the
  // two (the swing's sqrt(g / L) is below it); exact without gravity.
  model->set_max_frequency("", std::sqrt(p.k / p.m));
  return model;
}

ModelInfo info() {
  return {"elastic_pendulum", "Textbook: 3D elastic (spring) pendulum, a point mass on a linear spring (seed 004)",
          build_from_case};
}

}  // namespace tb::elastic_pendulum
