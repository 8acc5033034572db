// Model A as the runner sees it: built from a case file's [model] and [initial] tables. Two
// discretisations of the string: "consistent" (the default, seed 000's finite elements),
// offered as ODE, discrete Lie group, index-1 DAE and constrained mechanical system; and "lumped" (the papers' baseline after
// Driscoll et al., diagonal string mass), offered as an ODE that every ODE integrator runs.

#include "models/string_pendulum/model.hpp"

#include "mechanics/case_input.hpp"
#include "mechanics/elastic_element.hpp"
#include "mechanics/lazy_parts_model.hpp"
#include "core/lie_group_ode.hpp"
#include "models/string_pendulum/forms.hpp"
#include <Eigen/Geometry>

#include "core/linear_modes.hpp"

namespace tb::string_pendulum {
std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic) {
  // The body's inertia about its centre of mass must give a positive definite J_d.
  const std::string why_not_natural =
      NaturalRigidBody::why_not(dae::inertia_about_centre_of_mass(p.M, p.rho_c, p.J));
  auto menu = std::make_shared<FormulationMenu>(
      "string_pendulum", StateSize{6.0 * p.N + 32.0, "6 numbers per element + 32: elements = " + std::to_string(p.N)},
      std::vector<FormulationMenu::Item>{
          in("consistent", offer<OdeForm>(FormulationKind::EmbeddedOde, p, ic)),
          in("consistent", offer<LieGroupForm>(FormulationKind::DiscreteLieGroup, p, ic)),
          in("consistent", offer<LieGroupOdeOf<OdeForm>>(FormulationKind::LieGroupOde, p, ic)),
          in("consistent", offer<DaeForm>(FormulationKind::IndexOneDae, p, ic)),
          in("consistent", why_not_natural.empty()
                               ? offer<ConstrainedForm>(FormulationKind::ConstrainedMechanical, p, ic)
                               : decline(FormulationKind::ConstrainedMechanical, why_not_natural)),
          in("lumped", offer<OdeForm>(FormulationKind::EmbeddedOde, p, ic, StringMass::Lumped)),
          in("lumped", offer<LieGroupOdeOf<OdeForm>>(FormulationKind::LieGroupOde, p, ic, StringMass::Lumped)),
          in("lumped", decline(FormulationKind::DiscreteLieGroup,
                               "the lumped string is the papers' explicit-ODE baseline: no discrete Lagrangian is derived for it")),
          in("lumped", decline(FormulationKind::IndexOneDae,
                               "the lumped string is the papers' explicit-ODE baseline: no DAE form is derived for it")),
          in("lumped", decline(FormulationKind::ConstrainedMechanical,
                               "the lumped string is the papers' explicit-ODE baseline: no constrained mechanical form "
                               "is derived for it"))});
  // The string's axial modes are the fastest (the body's rotation and the pendulum are slower).
  menu->set_max_frequency("consistent", string_max_frequency(p.EA, p.mu, p.u(), false));
  menu->set_max_frequency("lumped", string_max_frequency(p.EA, p.mu, p.u(), true));
  // [r_2..r_{N+1}, v_2..v_{N+1}, R, Omega] (Mechanics::pack), listed when asked.
  auto model = std::make_shared<LazyPartsModel>(menu, [N = p.N]() -> std::vector<PhysicalPart> {
    return PhysicalParts()
        .then(PhysicalPart::Configuration, 3 * N)
        .then(PhysicalPart::Rate, 3 * N)
        .then(PhysicalPart::Configuration, 9)
        .then(PhysicalPart::Rate, 3);
  });
  // The tension-only elements' kinks (core/switching.hpp): N elements from the pivot r_1 = 0
  // through r_2 .. r_{N+1} (the physical state's first 3N numbers, their velocities next).
  if (p.tension_only)
    model->declare_switching({p.N, chain_stretch_meaning(), [p](double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& s,
                                                                Eigen::VectorXd& rate) {
                                Eigen::Matrix3Xd points = Eigen::Matrix3Xd::Zero(3, p.N + 1), velocities = points;
                                points.rightCols(p.N) = y.head(3 * p.N).reshaped(3, p.N);
                                velocities.rightCols(p.N) = y.segment(3 * p.N, 3 * p.N).reshaped(3, p.N);
                                chain_stretches(points, velocities, p.u(), s, rate);
                              }, p.kappa()});
  // The slowest period from the linearisation about the hanging equilibrium (core/linear_modes.hpp):
  // the string straight down from the pivot, the body's centre of mass straight below the
  // attachment (R0 turns rho_c onto e3), at rest; the Newton refinement adds the static stretch.
  if (why_not_natural.empty()) {
    InitialCondition rest;
    rest.string_direction = Vec3::UnitZ();
    rest.body_velocity = Vec3::Zero();
    rest.R0 = Eigen::Quaterniond::FromTwoVectors(p.rho_c, Vec3::UnitZ()).toRotationMatrix();
    rest.Omega0 = Vec3::Zero();
    declare_linearised_slowest_period(*model, [p, rest] { return ConstrainedForm(p, rest); }, "the hanging equilibrium");
  }
  return model;
}

std::shared_ptr<const Model> build_from_case(TableReader& model, TableReader& initial) {
  Parameters p;
  p.N = model.positive_integer("elements");
  p.mu = model.positive("string_density");
  p.length = model.positive("string_length");
  p.EA = model.positive("EA");
  p.g = model.non_negative("gravity");
  p.M = model.positive("body_mass");
  p.rho_c = model.vec3("rho_c");
  p.J = read_body_inertia_about_attachment(model, p.M, p.rho_c);
  // The seed's string pushes when compressed; a cable's elements cannot (issue 47).
  if (model.has("cable")) p.tension_only = model.one_of("cable", {"bilateral", "tension_only"}) == "tension_only";
  model.finish();

  InitialCondition ic;
  ic.string_direction = read_unit_vector(initial, "string_direction");
  ic.body_velocity = initial.vec3("body_velocity");
  ic.R0 = read_rotation(initial, "R0");
  ic.Omega0 = initial.vec3("Omega0");
  initial.finish();
  return make_model(p, ic);
}

ModelInfo info() {
  return {"string_pendulum", "Model A: 3D elastic string pendulum with a rigid body, fixed pivot (seed 000)",
          build_from_case};
}

}  // namespace tb::string_pendulum
