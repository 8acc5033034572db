// Model B as the runner sees it: built from a case file's [model] and [initial] tables.

#include "models/reel_pendulum/model.hpp"


#include "core/format.hpp"
#include "mechanics/attached_body_dae.hpp"
#include "mechanics/case_input.hpp"
#include "mechanics/elastic_element.hpp"
#include "mechanics/lazy_parts_model.hpp"
#include "mechanics/natural_rigid_body.hpp"
#include "core/lie_group_ode.hpp"
#include "models/reel_pendulum/forms.hpp"
#include "models/reel_pendulum/locked_constrained_form.hpp"
#include "models/reel_pendulum/locked_lumped_form.hpp"
#include <Eigen/Geometry>

#include "core/linear_modes.hpp"

namespace tb::reel_pendulum {
std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic) {
  // Model A's condition for its constrained form: J about the centre of mass gives a positive definite J_d.
  const std::string why_not_natural =
      NaturalRigidBody::why_not(dae::inertia_about_centre_of_mass(p.M, p.rho_c, p.J));
  auto menu = std::make_shared<FormulationMenu>(
      "reel_pendulum", StateSize{6.0 * p.N + 40.0, "6 numbers per element + 40: elements = " + std::to_string(p.N)},
      std::vector<FormulationMenu::Item>{
          in("consistent", offer<OdeForm>(FormulationKind::EmbeddedOde, p, ic)),
          in("consistent", offer<LieGroupForm>(FormulationKind::DiscreteLieGroup, p, ic)),
          in("consistent", offer<LieGroupOdeOf<OdeForm>>(FormulationKind::LieGroupOde, p, ic)),
          in("consistent", offer<DaeForm>(FormulationKind::IndexOneDae, p, ic)),
          in("consistent",
             p.reel_locked
                 // The locked reel's system is Model A's: its constrained form, shared (locked_constrained_form.hpp).
                 ? (why_not_natural.empty() ? offer<LockedConstrainedForm>(FormulationKind::ConstrainedMechanical, p, ic)
                                            : decline(FormulationKind::ConstrainedMechanical, why_not_natural))
                 : offer<MovingReelConstrainedForm>(FormulationKind::ConstrainedMechanical, p, ic)),
          // The lumped string of the papers' baseline, with the reel locked only.
          in("lumped", p.reel_locked ? offer<LockedLumpedForm>(FormulationKind::EmbeddedOde, p, ic)
                                     : decline(FormulationKind::EmbeddedOde,
                                               "the lumped-mass baseline (Driscoll et al.) has no reel mechanism: "
                                               "reel-locked cases only")),
          in("lumped", p.reel_locked ? offer<LieGroupOdeOf<LockedLumpedForm>>(FormulationKind::LieGroupOde, p, ic)
                                     : decline(FormulationKind::LieGroupOde,
                                               "the lumped-mass baseline (Driscoll et al.) has no reel mechanism: "
                                               "reel-locked cases only")),
          in("lumped", decline(FormulationKind::DiscreteLieGroup,
                               "the lumped string is the papers' explicit-ODE baseline: no discrete Lagrangian is derived for it")),
          in("lumped", decline(FormulationKind::IndexOneDae,
                               "the lumped string is the papers' explicit-ODE baseline: no DAE form is derived for it")),
          in("lumped", decline(FormulationKind::ConstrainedMechanical,
                               "the lumped string is the papers' explicit-ODE baseline: no constrained mechanical form "
                               "is derived for it"))});
  // With the reel locked the elements keep their length (L - s_p) / N (s_p: the length on the
  // reel) and the string's axial modes are the fastest; a moving reel changes the element
  // length, and with it omega_max, in time.
  if (p.reel_locked) {
    const double u = (p.L - ic.s0) / p.N;
    menu->set_max_frequency("consistent", string_max_frequency(p.EA, p.mu, u, false));
    menu->set_max_frequency("lumped", string_max_frequency(p.EA, p.mu, u, true));
  }
  // [s, sdot, q_2..q_{N+1}, v_2..v_{N+1}, R, Omega, carnot_work, control_work] (Mechanics::pack),
  // listed when asked.
  auto model = std::make_shared<LazyPartsModel>(menu, [N = p.N]() -> std::vector<PhysicalPart> {
    return PhysicalParts()
        .then(PhysicalPart::Configuration, 1)
        .then(PhysicalPart::Rate, 1)
        .then(PhysicalPart::Configuration, 3 * N)
        .then(PhysicalPart::Rate, 3 * N)
        .then(PhysicalPart::Configuration, 9)
        .then(PhysicalPart::Rate, 3)
        .then(PhysicalPart::Other, 2);
  });
  // The tension-only elements' kinks (core/switching.hpp): N elements from the guide way r_p = 0
  // through q_2 .. q_{N+1}, each of unstretched length l(s) = (L - s)/N, which the reel changes:
  // the stretch |x| - l(s) and its rate x.(v_{a+1} - v_a)/|x| + sdot/N.
  if (p.tension_only)
    model->declare_switching({p.N, chain_stretch_meaning(), [p](double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& s,
                                                                Eigen::VectorXd& rate) {
                                Eigen::Matrix3Xd points = Eigen::Matrix3Xd::Zero(3, p.N + 1), velocities = points;
                                points.rightCols(p.N) = y.segment(2, 3 * p.N).reshaped(3, p.N);
                                velocities.rightCols(p.N) = y.segment(2 + 3 * p.N, 3 * p.N).reshaped(3, p.N);
                                chain_stretches(points, velocities, (p.L - y(0)) / p.N, s, rate);
                                rate.array() += y(1) / p.N;
                              }, p.EA / ((p.L - ic.s0) / p.N)});  // EA/l at the start: the reel changes l
  // The slowest period from the linearisation about the hanging equilibrium at the initial deployed
  // length L - s_p0, the reel held (core/linear_modes.hpp; the string straight down from the guide
  // way, the body's centre of mass below its attachment, at rest, the static stretch by Newton).
  // With the reel locked that is the case's equilibrium. With the reel free there is none: the
  // string pays out (deployment) or is wound in (retrieval) and the swing's period follows the
  // deployed length in time; the linearisation is at the initial length, which retrieval only
  // shortens and deployment lengthens (the basis printed with it says so).
  if (why_not_natural.empty()) {
    Parameters held = p;
    held.reel_locked = true;
    InitialCondition rest = ic;
    rest.string_direction = Vec3::UnitZ();
    rest.body_velocity = Vec3::Zero();
    rest.R0 = Eigen::Quaterniond::FromTwoVectors(p.rho_c, Vec3::UnitZ()).toRotationMatrix();
    rest.Omega0 = Vec3::Zero();
    declare_linearised_slowest_period(
        *model, [held, rest] { return LockedConstrainedForm(held, rest); },
        p.reel_locked ? "the hanging equilibrium"
                      : "the hanging string at the initial deployed length " + format_g(p.L - ic.s0, 4) +
                            " m with the reel held (the reel runs: the case has no equilibrium, and the deployed "
                            "length changes in time)");
  }
  return model;
}

std::shared_ptr<const Model> build_from_case(TableReader& model, TableReader& initial) {
  Parameters p;
  p.N = model.positive_integer("elements");
  p.mu = model.positive("string_density");
  p.L = model.positive("total_length");
  p.EA = model.positive("EA");
  p.g = model.non_negative("gravity");
  p.M = model.positive("body_mass");
  p.rho_c = model.vec3("rho_c");
  p.J = read_body_inertia_about_attachment(model, p.M, p.rho_c);
  // The seeds' string pushes when compressed; a cable's elements cannot (issue 47), as for Model A.
  if (model.has("cable")) p.tension_only = model.one_of("cable", {"bilateral", "tension_only"}) == "tension_only";
  TableReader reel = model.table("reel");
  p.b = reel.positive("guide_way_length");
  p.d = reel.positive("drum_radius");
  p.kappa_d = reel.positive("drum_inertia_factor");
  p.reel_locked = reel.one_of("mode", {"locked", "free"}) == "locked";
  p.u = reel.number("control_moment");
  reel.finish();
  model.finish();

  InitialCondition ic;
  ic.s0 = initial.positive("s_p");
  if (ic.s0 < p.b || ic.s0 >= p.L)
    initial.fail("s_p", "a value in [guide_way_length, total_length) = [" + format_g(p.b) + ", " + format_g(p.L) + ")",
                 format_g(ic.s0));
  ic.string_direction = read_unit_vector(initial, "string_direction");
  ic.body_velocity = initial.vec3("body_velocity");
  ic.R0 = read_rotation(initial, "R0");
  ic.Omega0 = initial.vec3("Omega0");
  initial.finish();
  return make_model(p, ic);
}

ModelInfo info() {
  return {"reel_pendulum",
          "Model B: string pendulum with a reel mechanism (deployment, retrieval, Carnot loss; seeds 001/002)",
          build_from_case};
}

}  // namespace tb::reel_pendulum
