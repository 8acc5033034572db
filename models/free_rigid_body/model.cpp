// The torque-free rigid body as the runner sees it: built from a case file's [model] and
// [initial] tables, offering the ODE, discrete Lie group, index-1 DAE and constrained mechanical (natural
// coordinates) forms.

#include "models/free_rigid_body/model.hpp"

#include <Eigen/Eigenvalues>

#include "core/format.hpp"
#include "mechanics/case_input.hpp"
#include "mechanics/body_shapes.hpp"
#include "core/lie_group_ode.hpp"
#include "models/free_rigid_body/forms.hpp"
#include "mechanics/oscillation_periods.hpp"

namespace tb::free_rigid_body {
namespace {

// Exactly one of model.inertia (3 rows) and model.inertia_diagonal (3 numbers); the result
// must be the inertia of a body: symmetric, positive definite, principal moments obeying the
// triangle inequality (each at most the sum of the other two; equality is a flat plate).
Mat3 read_inertia(TableReader& model) {
  const bool full = model.has("inertia"), diagonal = model.has("inertia_diagonal");
  if (full == diagonal) {
    const std::string got = full ? "both inertia and inertia_diagonal" : "neither";
    model.fail(full ? "inertia_diagonal" : "inertia",
               "exactly one of 'inertia' (3x3 rows) and 'inertia_diagonal' (3 numbers)", got);
  }
  const std::string key = full ? "inertia" : "inertia_diagonal";
  const Mat3 J = full ? model.mat3(key) : Mat3(model.vec3(key).asDiagonal());
  if (const std::string why = why_not_an_inertia(J); !why.empty()) model.fail(key, "the inertia of a physical body", why);
  return J;
}

std::shared_ptr<const Model> build_from_case(TableReader& model, TableReader& initial) {
  Parameters p;
  p.J = read_inertia(model);
  model.finish();

  InitialCondition ic;
  ic.R0 = read_rotation(initial, "R0");
  ic.Omega0 = initial.vec3("Omega0");
  initial.finish();
  return make_model(p, ic);
}

}  // namespace

std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic) {
  const std::string why_not_natural = NaturalRigidBody::why_not(p.J);
  auto model = std::make_shared<FormulationMenu>(
      "free_rigid_body", StateSize{30.0, "one rigid body: at most 30 numbers"},
      std::vector<FormulationMenu::Item>{
          offer<OdeForm>(FormulationKind::EmbeddedOde, p, ic),
          offer<LieGroupForm>(FormulationKind::DiscreteLieGroup, p, ic),
          offer<LieGroupOdeOf<OdeForm>>(FormulationKind::LieGroupOde, p, ic),
          offer<DaeForm>(FormulationKind::IndexOneDae, p, ic),
          why_not_natural.empty() ? offer<ConstrainedForm>(FormulationKind::ConstrainedMechanical, p, ic)
                                  : decline(FormulationKind::ConstrainedMechanical, why_not_natural)},
      PhysicalParts().then(PhysicalPart::Configuration, 9).then(PhysicalPart::Rate, 3));  // [R, Omega]
  // No force acts: every rest state is an equilibrium and its linearisation has only zero modes
  // (core/linear_modes.hpp finds no oscillation about rest). The body's motion is the torque-free
  // spin, whose period Euler's equations give exactly from the initial rate (Landau & Lifshitz,
  // Sect. 37; mechanics/oscillation_periods.hpp, checked there against integration).
  model->declare_slowest_period(periods::free_rigid_body(p.J, ic.Omega0),
                                "the torque-free body's period from Euler's equations at the initial rate (exact; "
                                "no force, so no oscillation about rest to linearise)");
  return model;
}

ModelInfo info() {
  return {"free_rigid_body", "Textbook: torque-free rigid body, Euler's equations on SO(3) (seed 004 §§2-3)",
          build_from_case};
}

}  // namespace tb::free_rigid_body
