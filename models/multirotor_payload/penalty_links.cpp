#include "models/multirotor_payload/penalty_links.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"
#include "core/linear_modes.hpp"
#include "models/multirotor_payload/forms.hpp"
#include "models/multirotor_payload/model.hpp"

namespace tb::multirotor_payload {


std::unique_ptr<PenaltyConstrainedOde> make_penalty_form(const Parameters& p, const InitialCondition& ic) {
  PenaltyLaw law;
  law.contact_frequency = p.penalty_frequency;
  law.restitution = p.restitution;
  // The bodies' R^T R = I rows held as the hybrid form holds them (unilateral_model.cpp).
  law.baumgarte_rate = 4.0 * std::sqrt(p.g / p.link_length());
  const ConstrainedForm taut(p, hanging_rest());
  return std::make_unique<PenaltyConstrainedOde>(std::make_unique<ConstrainedForm>(p, ic), law, initial_configuration(taut));
}

std::string penalty_words(const Parameters& p, const PenaltyConstrainedOde& form) {
  double l_lo = form.local_mass(0), l_hi = l_lo;
  for (int e = 1; e < form.one_sided_rows(); ++e) l_lo = std::min(l_lo, form.local_mass(e)), l_hi = std::max(l_hi, form.local_mass(e));
  double k_lo = form.stiffness(0), k_hi = k_lo, c_lo = form.damping(0), c_hi = c_lo, m_lo = form.effective_mass(0), m_hi = m_lo;
  for (int e = 1; e < form.one_sided_rows(); ++e) {
    k_lo = std::min(k_lo, form.stiffness(e)), k_hi = std::max(k_hi, form.stiffness(e));
    c_lo = std::min(c_lo, form.damping(e)), c_hi = std::max(c_hi, form.damping(e));
    m_lo = std::min(m_lo, form.effective_mass(e)), m_hi = std::max(m_hi, form.effective_mass(e));
  }
  const double omega = form.law().contact_frequency;
  return "each link a linear spring-dashpot acting while stretched (x = (|d|^2 - l^2)/(2 l) > 0, the stretch to a relative "
         "O(stretch / l)), with its own contact frequency omega = " + format_g(omega, 4) + " rad/s ([model] penalty_frequency, " +
         format_g(omega * std::sqrt(p.link_length() / p.g), 3) + " / sqrt(l / g)) against the rest of the cable held rigid: k = m_link omega^2 "
         "and c = 2 zeta omega m_link, m_link the link's effective mass along itself with every other link held, on the hanging "
         "equilibrium of the taut cables (" + format_g(m_lo, 3) + " to " + format_g(m_hi, 3) + " kg, so k from " + format_g(k_lo, 3) +
         " to " + format_g(k_hi, 3) + " N/m and c from " + format_g(c_lo, 3) + " to " + format_g(c_hi, 3) + " N s/m), damping ratio " +
         format_g(form.damping_ratio(), 4) +
         (p.restitution > 0.0 ? " (the linear oscillator's for e = " + format_g(p.restitution) + ")" : " (critical, for e = 0)") +
         "; the force is not clipped at 0 (the dashpot pushes while a link is stretched and shortening faster than k x / c); "
         "the bodies' R^T R = I held by Baumgarte stabilisation. It is stiff far beyond omega: each link's mass sits at its "
         "chord's midpoint, so joints moving apart along a link carry little inertia (a link's effective mass with its "
         "neighbours free is " + format_g(l_lo, 3) + " to " + format_g(l_hi, 3) + " kg), and the dashpots damp that motion at rates "
         "up to about " + format_g(form.fastest_damping_rate(), 3) + " /s (c / that mass; the springs ring at up to about " +
         format_g(form.fastest_spring_frequency(), 3) + " rad/s), which bounds an explicit method's stable step at a few over "
         "that rate (about " + format_g(2.8 / form.fastest_damping_rate(), 2) + " s for rk4, whose real stability interval "
         "reaches -2.8), at every tolerance; "
         "a snap's loss is read over " +
         (form.damping_ratio() < 1.0 ? "its contact, up to the link's opening (at most 1.5 pi / omega_d = " + format_g(form.contact_time(), 3) + " s)"
                                     : "10 / omega = " + format_g(form.contact_time(), 3) + " s (a critical contact never ends)") +
         "; the dashpots' work booked as the impacts' loss";
}

}  // namespace tb::multirotor_payload
