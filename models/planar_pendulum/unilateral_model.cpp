// The planar pendulum on a unilateral link (issue 48): an inextensible string of length l that
// cannot push. Offered as the hybrid ODE and the hybrid index-1 DAE (the event-driven methods:
// located switches, the impact law at each closing) and as the constrained mechanical form with unilateral
// constraints (time-stepping schemes with an impact law: Moreau-Jean, nonsmooth RATTLE,
// nonsmooth generalized-alpha, the variational collision integrator). Other forms decline.

#include <cmath>

#include "core/format.hpp"

#include "models/planar_pendulum/forms.hpp"
#include "models/planar_pendulum/unilateral.hpp"
#include "models/planar_pendulum/unilateral_closed_forms.hpp"
#include "models/planar_pendulum/unilateral_model.hpp"

namespace tb::planar_pendulum {

std::shared_ptr<const Model> make_unilateral_model(const Parameters& p, const InitialCondition& ic) {
  auto model = std::make_shared<FormulationMenu>(
      "planar_pendulum", StateSize{6.0, "a planar pendulum on a unilateral link: at most 6 numbers"},
      std::vector<FormulationMenu::Item>{
          offer<HybridOdeForm>(FormulationKind::EmbeddedOde, p, ic),
          offer<ConstrainedForm>(FormulationKind::ConstrainedMechanical, p, ic),
          offer<HybridDaeForm>(FormulationKind::IndexOneDae, p, ic),
          decline(FormulationKind::DiscreteLieGroup,
                  "its discrete Lie group form moves the mass on the circle S^1 only; on the disc the variational collision "
                  "construction (Fetecau, Marsden, Ortiz & West 2003) runs the constrained form, whose taut steps are this "
                  "form's discrete map (the same to round-off, measured)"),
          decline(FormulationKind::LieGroupOde,
                  "a hybrid Lie group form (SO(2) while taut, R^2 while slack, switched at located events) is not built "
                  "yet"),
          // Issue 48's "no events" baseline: the string as a stiff spring-dashpot (unilateral.hpp PenaltyLink),
          // an ODE without a jump, which the methods without an impact law step through.
          in("penalty", offer<PenaltyOdeForm>(FormulationKind::EmbeddedOde, p, ic)),
          in("penalty", decline(FormulationKind::ConstrainedMechanical,
                                "the penalty string has no constraint: its link is a force, and its dashpot's force, which "
                                "depends on the velocity, is not built into a constrained form")),
          in("penalty", decline(FormulationKind::IndexOneDae, "the penalty string is an ODE with no algebraic variable")),
          in("penalty", decline(FormulationKind::DiscreteLieGroup,
                                "the penalty string's mass moves on the plane, with no group of its own to keep")),
          in("penalty", decline(FormulationKind::LieGroupOde,
                                "the penalty string's mass moves on the plane, with no group of its own to keep"))},
      PhysicalParts().then(PhysicalPart::Configuration, 2).then(PhysicalPart::Rate, 2));  // [x, z, vx, vz]
  model->declare_no_rotations();
  // As the bilateral model (model.cpp): the angular momentum about the pivot is the Noether momentum
  // of the plane's rotations where there is no gravity. A snap's impulse is radial and keeps it, so on
  // the rebound in free space every method that applies Newton's law along the string at the point
  // it poses the impact keeps it across the hit; one that poses the impact at one point and moves
  // the mass from another does not (the snap study's table of the case shows which).
  if (p.g != 0.0) model->declare_no_momentum_map();
  if (p.g > 0.0) {
    model->declare_slowest_period(2.0 * M_PI * std::sqrt(p.l / p.g),
                                  "2 pi sqrt(l / g), the small swing of the taut string (its slack flights are shorter)");
  } else {
    // In free space the slowest motion is the turn round the circle at the tangential speed the hits
    // keep, v_t = |r0 x v0| / l; a radial motion crosses the circle and back at its speed.
    const Eigen::Vector4d s0 = initial_physical(p, ic);
    const double L = std::abs(s0[0] * s0[3] - s0[1] * s0[2]), speed = s0.tail<2>().norm();
    const double period = L > 0.0 ? 2.0 * M_PI * p.l * p.l / L : speed > 0.0 ? 4.0 * p.l / speed : 1.0;
    model->declare_slowest_period(period, L > 0.0 ? "2 pi l^2 / |r0 x v0|, the turn round the circle at the tangential speed the "
                                                    "hits keep (g = 0)"
                                                  : speed > 0.0 ? "4 l / |v0|, a radial flight there and back across the circle (g = 0)"
                                                                : "1 s: at rest in free space nothing moves (g = 0)");
  }
  SwitchingFunctions link;
  link.count = 1;
  link.meaning = "the string's tension over m g / l (m / l in free space) where it holds (m; it opens where this falls through 0), and its gap "
                 "|r| - l (m; it closes where this reaches 0)";
  link.evaluate = [p](double, const Eigen::VectorXd& physical, Eigen::VectorXd& s, Eigen::VectorXd& rate) {
    s.resize(1);
    rate.resize(1);
    link_tension_function(p, physical.head<4>(), s[0], rate[0]);
  };
  link.gap = [p](double, const Eigen::VectorXd& physical, Eigen::VectorXd& s, Eigen::VectorXd& rate) {
    s.resize(1);
    rate.resize(1);
    link_gap_function(p, physical.head<4>(), s[0], rate[0]);
  };
  link.stiffness = tension_scale(p);  // a value of s is a tension over this
  link.rebounds = p.restitution > 0.0;
  link.gap_tolerance = kAtLimit * p.l;
  link.impact_loss = [p](double, const Eigen::VectorXd& physical, int) {
    const Eigen::Vector2d r = physical.head<2>(), v = physical.segment<2>(2);
    const double v_r = r.dot(v) / r.norm();
    return v_r > 0.0 ? 0.5 * p.m * (1.0 - p.restitution * p.restitution) * v_r * v_r : 0.0;
  };
  const PenaltyLink penalty = penalty_link(p, initial_physical(p, ic));
  SwitchingFunctions::Compliant compliant{penalty.contact_time, penalty.words};
  compliant.pulls = [form = std::make_shared<PenaltyOdeForm>(p, ic)](const Eigen::VectorXd& physical) {
    return Eigen::VectorXd::Constant(1, form->link_force(physical.head<4>()));
  };
  compliant.stiffened = [p, ic, k = penalty.k](double factor) -> std::unique_ptr<Formulation> {
    Parameters stiffer = p;
    stiffer.penalty_stiffness = factor * k;
    std::string why_not;
    return make_unilateral_model(stiffer, ic)->make_formulation(FormulationKind::EmbeddedOde, "penalty", why_not);
  };
  link.compliant["penalty"] = std::move(compliant);
  link.impacts = "the string is a unilateral link (|r| <= l, a tension only) that snaps taut by Newton's impact law "
                 "(e = " + format_g(p.restitution) + "), a jump of the radial velocity";
  model->declare_switching(std::move(link));
  if (auto answers = unilateral_closed_form(p, ic)) model->declare_switching_closed_form(std::move(*answers));
  return model;
}

}  // namespace tb::planar_pendulum
