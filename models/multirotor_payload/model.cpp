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
#include "mechanics/oscillation_periods.hpp"

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
  model.finish();

  InitialCondition ic;
  const double elevation_deg = initial.number("cable_elevation_deg");
  if (!(elevation_deg > -90.0 && elevation_deg < 90.0))
    initial.fail("cable_elevation_deg", "an angle above the horizontal in (-90, 90) degrees", format_g(elevation_deg));
  ic.cable_elevation = elevation_deg * M_PI / 180.0;
  ic.payload_velocity = initial.vec3("payload_velocity");
  ic.R0 = read_rotation(initial, "R0");
  ic.Omega0 = initial.vec3("Omega0");
  initial.finish();
  return make_model(p, ic);
}

}  // namespace

// [X_p, V_p, {R, Omega, {q_i, omega_i}_{i=1..n}}_{a=1..m}] (Mechanics::pack).
static std::vector<PhysicalPart> physical_parts(const Parameters& p) {
  PhysicalParts parts;
  parts.then(PhysicalPart::Configuration, 3).then(PhysicalPart::Rate, 3);
  for (int a = 0; a < p.multirotors; ++a) {
    parts.then(PhysicalPart::Configuration, 9).then(PhysicalPart::Rate, 3);
    for (int i = 0; i < p.links; ++i) parts.then(PhysicalPart::Configuration, 3).then(PhysicalPart::Rate, 3);
  }
  return parts;
}

std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic) {
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
  auto model = std::make_shared<LazyPartsModel>(menu, [p] { return physical_parts(p); });  // listed when asked
  // The slowest mode: the payload swinging on its cable from the released angle, as a pendulum
  // in g (about its multirotor the restoring field is g (m_Q + m_p) / m_Q, faster: the estimate
  // errs long), or the multirotors' own spin where that is slower.
  const double swing = periods::compound_pendulum(p.payload_mass * p.cable_length * p.cable_length, p.payload_mass,
                                                  p.cable_length, p.g, 0.5 * M_PI - ic.cable_elevation);
  const double spin = ic.Omega0.norm() > 0.0 ? 2.0 * M_PI / ic.Omega0.norm() : 0.0;
  // With the attachment offset the multirotor also swings about its hook: a compound pendulum in
  // the net vertical force at its centre of mass, F_Q = m_Q g + f.e3 (upward: the thrust carries
  // the cable and payload too), about the equilibrium with the centre of mass on the thrust's
  // side of the hook (d = |rho|); about the axis of largest inertia J_A perpendicular to rho, the
  // slowest, at small amplitude. The hook moves with the cable top: an estimate, like the swing's.
  // A short lever makes it slow (1 mm: ~10 s, beyond the spin's 5.9 s); the bundled 2 cm: 2.3 s.
  double top = 0.0;
  if (!p.attachment_offset.isZero(0.0)) {  // from the parameters: no per-link storage before the size checks
    const Vec3 axis = p.attachment_offset.normalized();
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(p.attachment_inertia());
    double I = 0.0;  // the largest inertia about an axis (near) perpendicular to rho
    for (int k = 0; k < 3; ++k)
      if (std::abs(eig.eigenvectors().col(k).dot(axis)) < 0.9) I = std::max(I, eig.eigenvalues()(k));
    if (I == 0.0) I = eig.eigenvalues().maxCoeff();
    const double period = periods::compound_pendulum(I, p.multirotor_mass, p.attachment_offset.norm(),
                                                     std::abs(p.body_force()) / p.multirotor_mass, 0.0);
    if (std::isfinite(period)) top = period;
  }
  model->declare_slowest_period(std::max({swing, spin, top}));
  model->declare_linear_momentum_conserved();  // thrust equal to weight: no net external force
  return model;
}

ModelInfo info() {
  return {"multirotor_payload",
          "Model C: multirotors carrying a point-mass payload on cables of rigid links, constant thrust (seed 003)",
          build_from_case};
}

}  // namespace tb::multirotor_payload
