// Model C as the runner sees it: built from a case file's [model] and [initial] tables,
// offering the embedded ODE (RK4, RK45), the discrete Lie group form (LGVI) and the
// Baumgarte-stabilised index-1 DAE in natural coordinates (IDA) and the constrained mechanical
// system in natural coordinates (RATTLE).

#include "models/multirotor_payload/model.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/format.hpp"
#include "mechanics/body_shapes.hpp"
#include "mechanics/case_input.hpp"
#include "mechanics/lazy_parts_model.hpp"
#include "core/lie_group_ode.hpp"
#include "models/multirotor_payload/forms.hpp"
#include "models/multirotor_payload/unilateral_model.hpp"
#include "core/linear_modes.hpp"

namespace tb::multirotor_payload {
namespace {

std::shared_ptr<const Model> build_from_case(TableReader& model, TableReader& initial) {
  Parameters p;
  p.multirotors = model.positive_integer("multirotors");
  p.links = model.positive_integer("links_per_cable");
  p.cable_length = model.positive("cable_length");
  p.link_mass = model.positive("link_mass");
  p.payload_mass = model.positive("payload_mass");
  p.multirotor_mass = model.positive("multirotor_mass");
  p.J_Q = model.mat3("multirotor_inertia");
  if (const std::string why = why_not_an_inertia(p.J_Q); !why.empty())
    model.fail("multirotor_inertia", "the inertia of a physical body (kg m^2)", why);
  p.g = model.non_negative("gravity");
  // Optional: the cable's attachment point from the multirotor's centre of mass, body frame (m).
  p.attachment_offset = model.vec3_or("attachment_offset", Vec3::Zero());
  // Optional (issue 48): links that go slack and snap taut, with Newton's restitution e.
  if (model.has("link")) p.unilateral = model.one_of("link", {"bilateral", "unilateral"}) == "unilateral";
  if (p.unilateral) {
    p.restitution = model.non_negative_or("restitution", 0.0);
    if (!(p.restitution <= 1.0))
      model.fail("restitution", "Newton's coefficient of restitution e in [0, 1]", format_g(p.restitution));
    // The "no events" baseline's links (discretisation "penalty"); absent, the default (unilateral_model.cpp).
    if (model.has("penalty_frequency")) p.penalty_frequency = model.positive("penalty_frequency");
    // The event-driven forms' closing rules, relative to the link length (HybridClosingRules): a closing is
    // located closing_offset beyond the length; an inward flight no deeper than held_flight_depth is held.
    if (model.has("closing_offset")) {
      p.closing_offset = model.positive("closing_offset");
      if (!(p.closing_offset <= 1e-6))
        model.fail("closing_offset", "a closing offset in (0, 1e-6] of the link length", format_g(p.closing_offset));
    }
    if (model.has("held_flight_depth")) {
      p.held_flight_depth = model.non_negative("held_flight_depth");
      if (!(p.held_flight_depth <= 1e-4))
        model.fail("held_flight_depth", "a held flight depth in [0, 1e-4] of the link length (0: every flight integrated)",
                   format_g(p.held_flight_depth));
    }
    if (!p.attachment_offset.isZero(0.0))
      model.fail("attachment_offset", "[0, 0, 0] with link = \"unilateral\" (a slack cable on an offset attachment is not built)",
                 "a non-zero offset");
  }
  model.finish();

  InitialCondition ic;
  const double elevation_deg = initial.number("cable_elevation_deg");
  if (!(elevation_deg > -90.0 && elevation_deg < 90.0))
    initial.fail("cable_elevation_deg", "an angle above the horizontal in (-90, 90) degrees", format_g(elevation_deg));
  ic.cable_elevation = elevation_deg * M_PI / 180.0;
  ic.payload_velocity = initial.vec3("payload_velocity");
  ic.R0 = read_rotation(initial, "R0");
  ic.Omega0 = initial.vec3("Omega0");
  if (initial.has("cable_span")) {
    ic.cable_span = initial.number("cable_span");
    if (!p.unilateral && ic.cable_span != 1.0)
      initial.fail("cable_span", "1 (a chord shorter than the cable needs [model] link = \"unilateral\")", format_g(ic.cable_span));
    if (!(ic.cable_span > 0.0 && ic.cable_span <= 1.0))
      initial.fail("cable_span", "the cable's chord over its length in (0, 1]", format_g(ic.cable_span));
  }
  initial.finish();
  return make_model(p, ic);
}

}  // namespace

// The rest state the model is linearised about: every cable hanging straight down from its
// multirotor (the multirotor straight above the payload), at rest, R = I.
InitialCondition hanging_rest() {
  InitialCondition rest;
  rest.cable_elevation = 0.5 * M_PI;
  rest.payload_velocity = Vec3::Zero();
  rest.R0 = Mat3::Identity();
  rest.Omega0 = Vec3::Zero();
  return rest;
}

// [X_p, V_p, {R, Omega, {q_i, omega_i}_{i=1..n}}_{a=1..m}] (Mechanics::pack).
std::vector<PhysicalPart> physical_parts(const Parameters& p) {
  PhysicalParts parts;
  parts.then(PhysicalPart::Configuration, 3).then(PhysicalPart::Rate, 3);
  for (int a = 0; a < p.multirotors; ++a) {
    parts.then(PhysicalPart::Configuration, 9).then(PhysicalPart::Rate, 3);
    for (int i = 0; i < p.links; ++i) parts.then(PhysicalPart::Configuration, 3).then(PhysicalPart::Rate, 3);
  }
  return parts;
}

std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic) {
  if (p.unilateral) return make_unilateral_model(p, ic);
  const std::string why_not_natural = NaturalRigidBody::why_not(p.J_Q);
  auto menu = std::make_shared<FormulationMenu>(
      "multirotor_payload",
      StateSize{10.0 * p.multirotors * double(p.links) + 12.0 * p.multirotors + 10.0,
                "about 10 numbers per link: multirotors = " + std::to_string(p.multirotors) +
                    ", links_per_cable = " + std::to_string(p.links)},
      std::vector<FormulationMenu::Item>{
          offer<OdeForm>(FormulationKind::EmbeddedOde, p, ic),
          offer<LieGroupForm>(FormulationKind::DiscreteLieGroup, p, ic),
          offer<LieGroupOdeOf<OdeForm>>(FormulationKind::LieGroupOde, p, ic),
          offer<DaeForm>(FormulationKind::IndexOneDae, p, ic),
          why_not_natural.empty() ? offer<ConstrainedForm>(FormulationKind::ConstrainedMechanical, p, ic)
                                  : decline(FormulationKind::ConstrainedMechanical, "multirotor_inertia: " + why_not_natural)});
  // The fastest frequency of the same linearisation (the cables' zigzag modes, ~1e3 rad/s on the
  // bundled cases), for the stability map's h_max x omega_max (referee point h-10 #1: is a
  // variational method's "solver failure" Stormer-Verlet's limit h omega = 2?). About the hanging
  // equilibrium: the swinging cables' tensions, and so their modes, move about it in a run.
  if (why_not_natural.empty())
    menu->declare_max_frequency_source("", [p] {
      const ConstrainedForm form(p, hanging_rest());
      const LinearModes modes = linear_modes(form, initial_configuration(form));
      return modes.periods.empty() ? std::nan("") : 2.0 * M_PI / modes.periods.back();
    });
  auto model = std::make_shared<LazyPartsModel>(menu, [p] { return physical_parts(p); });  // listed when asked
  // The slowest period from the linearisation about the equilibrium (core/linear_modes.hpp): every
  // cable hanging straight down from its multirotor, at rest, R = I (thrust equal to the weight keeps
  // the centre of mass free: its 3 translations, the turn about the vertical and, without an
  // attachment offset, each multirotor's attitude are zero modes). It has the multirotor's own
  // motion in it, which a pendulum in g leaves out: relative to the centre of mass the payload
  // swings in g (1 + m_p / m_Q) (plus the cable's share), 1.66 s on C_single, not the 2.01 s of
  // a pendulum in g. An attachment offset adds the body's swing about its hook as a mode.
  // The case's swing from 60 degrees from the vertical takes longer than the linear period, by
  // Gauss's 1 / agm(1, cos(theta0 / 2)) = 1.073 for a pendulum (tests/test_linear_modes.cpp).
  // A spinning multirotor turns once in 2 pi / |Omega0|: no oscillation about rest, but a motion of
  // the case slower than its swing where it is (the spinning variant's 5.9 s): the longer is declared.
  // Computed when first asked for (core/linear_modes.hpp).
  const bool natural = why_not_natural.empty();
  const double spin = ic.Omega0.norm() > 0.0 ? 2.0 * M_PI / ic.Omega0.norm() : std::nan("");
  model->declare_slowest_period_source([p, natural, spin]() -> std::pair<double, std::string> {
    std::pair<double, std::string> swing{std::nan(""), ""};
    if (natural) {
      const ConstrainedForm form(p, hanging_rest());
      swing = linearised_slowest_period(form, initial_configuration(form), "the hanging equilibrium");
    }
    if (std::isfinite(spin) && !(swing.first >= spin))
      return {spin, "the multirotors' spin 2 pi / |Omega0| (slower than the swing " + format_g(swing.first, 4) + " s, " +
                        swing.second + ")"};
    return swing;
  });
  model->declare_linear_momentum_conserved();  // thrust equal to weight: no net external force
  return model;
}

ModelInfo info() {
  return {"multirotor_payload",
          "Model C: multirotors carrying a point-mass payload on cables of rigid links, constant thrust (seed 003)",
          build_from_case};
}

}  // namespace tb::multirotor_payload
