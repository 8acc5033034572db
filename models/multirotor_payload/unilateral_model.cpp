// Model C on unilateral links (issue 48). Offered as the constrained mechanical form with one-sided
// link rows (time-stepping schemes with an impact law), as the hybrid ODE built on it
// (core/hybrid_constrained_ode.hpp: event-driven Runge-Kutta methods) and as the hybrid DAE that runs
// the same switches on the Baumgarte DAE (hybrid_dae_form.hpp: IDA). The other forms decline: each keeps the
// links at their length by construction (q_i on S^2) or by stabilisation in every phase. A second
// discretisation, "penalty" (penalty_links.hpp), makes each link a stiff spring-dashpot: an ODE without
// jumps, the "no events" baseline, which the methods without an impact law step through.

#include <cmath>

#include "core/format.hpp"
#include "core/hybrid_constrained_ode.hpp"
#include "core/linear_modes.hpp"
#include "models/multirotor_payload/first_snap.hpp"
#include "models/multirotor_payload/forms.hpp"
#include "models/multirotor_payload/hybrid_dae_form.hpp"
#include "models/multirotor_payload/model.hpp"
#include "models/multirotor_payload/penalty_links.hpp"
#include "models/multirotor_payload/unilateral_model.hpp"

namespace tb::multirotor_payload {

std::shared_ptr<const Model> make_unilateral_model(const Parameters& p, const InitialCondition& ic) {
  const double l = p.link_length();
  // The held links' Baumgarte rate and the hybrid form's time unit: a link's fall time sqrt(l / g),
  // as the unilateral pendulum's 4 sqrt(g / l).
  const HybridTimeScales scales{4.0 * std::sqrt(p.g / l), std::sqrt(l / p.g)};
  const HybridClosingRules closing{p.closing_offset, p.held_flight_depth};
  FormulationMenu::Item hybrid{FormulationKind::EmbeddedOde,
                               [p, ic, scales, closing]() -> std::unique_ptr<Formulation> {
                                 return std::make_unique<HybridConstrainedOde>(std::make_unique<ConstrainedForm>(p, ic), scales, closing);
                               },
                               "", ""};
  // IDA's: the same switches and jumps on the Baumgarte DAE with a slack link's multiplier held at 0
  // (hybrid_dae_form.hpp).
  FormulationMenu::Item hybrid_dae{FormulationKind::IndexOneDae,
                                   [p, ic, scales, closing]() -> std::unique_ptr<Formulation> {
                                     return std::make_unique<HybridDaeForm>(p, ic, scales, closing);
                                   },
                                   "", ""};
  std::vector<FormulationMenu::Item> items{
      hybrid, hybrid_dae, offer<ConstrainedForm>(FormulationKind::ConstrainedMechanical, p, ic),
      decline(FormulationKind::DiscreteLieGroup,
              "its discrete Lie group form moves each link on S^2 (fixed length); links that go slack are taken by the "
              "variational collision construction (Fetecau, Marsden, Ortiz & West 2003) on the constrained form, whose "
              "links held take this form's discrete equations (the same to round-off, measured)"),
      decline(FormulationKind::LieGroupOde,
              "its Lie group form moves each link on S^2 (fixed length); a hybrid one, switched at located events, is not "
              "built yet")};
  // Issue 48's "no events" baseline where the case asks for it ([model] penalty_frequency): each link a stiff
  // spring-dashpot (penalty_links.hpp), an ODE without a jump, which the methods without an impact law step through.
  if (p.penalty_frequency > 0.0) {
    items.push_back(in("penalty", FormulationMenu::Item{FormulationKind::EmbeddedOde,
                                                        [p, ic]() -> std::unique_ptr<Formulation> { return make_penalty_form(p, ic); }, "", ""}));
    items.push_back(in("penalty", decline(FormulationKind::ConstrainedMechanical,
                                          "the penalty cable has no link constraint: each link is a force, and its dashpot's force, "
                                          "which depends on the velocity, is not built into a constrained form")));
    items.push_back(in("penalty", decline(FormulationKind::IndexOneDae,
                                          "the penalty cable's links are forces, with no algebraic variable of their own (its "
                                          "bodies' R^T R = I rows are held by Baumgarte stabilisation inside its ODE)")));
    items.push_back(in("penalty", decline(FormulationKind::DiscreteLieGroup,
                                          "the penalty cable's joints move in R^3 on stretching links, with no group of their own to keep")));
    items.push_back(in("penalty", decline(FormulationKind::LieGroupOde,
                                          "the penalty cable's joints move in R^3 on stretching links, with no group of their own to keep")));
  }
  auto model = std::make_shared<FormulationMenu>(
      "multirotor_payload",
      StateSize{2.0 * (3.0 + 3.0 * p.multirotors * p.links + 9.0 * p.multirotors) + 1.0 + 7.0 * p.multirotors * p.links +
                    6.0 * p.multirotors,
                "natural coordinates and a mode per link: multirotors = " + std::to_string(p.multirotors) +
                    ", links_per_cable = " + std::to_string(p.links)},
      std::move(items),
      physical_parts(p));
  // Impulses are internal and thrust equals the total weight: no net external force, P is conserved
  // across every snap.
  model->declare_linear_momentum_conserved();
  model->declare_slowest_period_source([p]() -> std::pair<double, std::string> {
    Parameters rigid = p;
    rigid.unilateral = false;
    const ConstrainedForm form(rigid, hanging_rest());
    return linearised_slowest_period(form, initial_configuration(form), "the hanging equilibrium of the taut cables");
  });

  SwitchingFunctions links;
  links.count = p.multirotors * p.links;
  const double stiffness = p.payload_mass * p.g / l;
  links.meaning = "each link's tension over m_p g / l where it holds (m; it opens where this falls through 0), and its gap "
                  "|J_j - J_{j-1}| - l (m; it closes where this reaches 0), cable by cable from the payload";
  links.stiffness = stiffness;
  links.gap_tolerance = kLinkAtLength * l;
  links.rebounds = p.restitution > 0.0;
  auto form = std::make_shared<const ConstrainedForm>(p, ic);
  // The tension and its rate along the motion (a central difference over 1e-7 fall times, for the
  // observer's interpolation only).
  links.evaluate = [form, stiffness, p](double, const Eigen::VectorXd& physical, Eigen::VectorXd& s, Eigen::VectorXd& rate) {
    const Mechanics& mech = form->mechanics();
    const Eigen::VectorXd y = form->natural_state(mech.unpack(physical));
    const int nq = form->positions(), count = p.multirotors * p.links;
    Eigen::VectorXd a;
    const std::vector<double> T = form->link_tensions(y, &a);
    s = Eigen::VectorXd::Constant(count, std::nan(""));
    rate = Eigen::VectorXd::Zero(count);
    if (T.empty()) return;
    const double dt = 1e-7 * std::sqrt(p.link_length() / p.g);
    Eigen::VectorXd up = y, down = y;
    up.head(nq) += dt * y.segment(nq, nq), up.segment(nq, nq) += dt * a;
    down.head(nq) -= dt * y.segment(nq, nq), down.segment(nq, nq) -= dt * a;
    const std::vector<double> T_up = form->link_tensions(up), T_down = form->link_tensions(down);
    for (int i = 0; i < count; ++i) {
      s[i] = T[size_t(i)] / stiffness;
      if (!T_up.empty() && !T_down.empty()) rate[i] = (T_up[size_t(i)] - T_down[size_t(i)]) / (2.0 * dt * stiffness);
    }
  };
  links.gap = [form, p](double, const Eigen::VectorXd& physical, Eigen::VectorXd& s, Eigen::VectorXd& rate) {
    const Mechanics& mech = form->mechanics();
    const State state = mech.unpack(physical);
    const double l = p.link_length();
    s.resize(p.multirotors * p.links);
    rate.resize(s.size());
    for (int a = 0; a < p.multirotors; ++a)
      for (int i = 0; i < p.links; ++i) {
        const Vec3& q = state.q[size_t(a)][size_t(i)];
        s[a * p.links + i] = l * (q.norm() - 1.0);
        rate[a * p.links + i] = l * q.dot(mech.link_rate(q, state.omega[size_t(a)][size_t(i)])) / q.norm();
      }
  };
  links.impacts = "each cable is a chain of unilateral links (|J_j - J_{j-1}| <= l, a tension only; each link's mass at "
                  "its chord's midpoint, so a slack link couples its joints' accelerations through its inertia) that snap taut by "
                  "Newton's impact law (e = " + format_g(p.restitution) + "), a jump of the joints' velocities";
  // The "no events" baseline: each link's pull (N) at a physical state, and the same cable stiffer.
  if (p.penalty_frequency > 0.0) {
    auto penalty = std::shared_ptr<const PenaltyConstrainedOde>(make_penalty_form(p, ic));
    SwitchingFunctions::Compliant compliant{penalty->contact_time(), penalty_words(p, *penalty)};
    compliant.pulls = [penalty, form](const Eigen::VectorXd& physical) {
      return penalty->pulls(form->natural_state(form->mechanics().unpack(physical)));
    };
    compliant.elastic = [penalty, form](const Eigen::VectorXd& physical) {
      return penalty->spring_pulls(form->natural_state(form->mechanics().unpack(physical)));
    };
    compliant.stiffened = [p, ic](double factor) -> std::unique_ptr<Formulation> {
      Parameters stiffer = p;
      stiffer.penalty_frequency = std::sqrt(factor) * p.penalty_frequency;  // k times factor, zeta kept
      return make_penalty_form(stiffer, ic);
    };
    links.compliant["penalty"] = std::move(compliant);
  }
  model->declare_switching(std::move(links));
  // Up to the first snap the slack cables fly in closed form (first_snap.hpp): the reference and every
  // run are checked against it there.
  std::string no_closed_form;
  if (auto first = first_snap_closed_form(p, ic, no_closed_form)) model->declare_first_switch_closed_form(std::move(*first));
  return model;
}

}  // namespace tb::multirotor_payload
