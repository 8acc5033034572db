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

namespace {

// What the linearised penalty cable does (PenaltyConstrainedOde::linear_modes), in words.
std::string modes_words(const PenaltyConstrainedOde& form) {
  double l_lo = form.local_mass(0), l_hi = l_lo;
  for (int e = 1; e < form.one_sided_rows(); ++e) l_lo = std::min(l_lo, form.local_mass(e)), l_hi = std::max(l_hi, form.local_mass(e));
  const PenaltyConstrainedOde::LinearModes modes = form.linear_modes();
  if (!modes.found) return "Its linearised modes were not found. ";
  return "It is stiff far beyond omega: each link's mass sits at its chord's midpoint (seed 003), so a zig-zag of the interior "
         "joints, each link's midpoint still, carries little inertia (a link's effective mass with its neighbours free is " +
         format_g(l_lo, 3) + " to " + format_g(l_hi, 3) + " kg, against m_link above; a lumped-mass string would carry about a "
         "link's mass at each joint), and the dashpots damp that motion fastest. Linearised on the hanging equilibrium with every "
         "link stretched (springs and dashpots only), its fastest eigenvalue has |lambda| = " + format_g(modes.fastest, 3) +
         " /s: an explicit method is stable only for h below about 2.8 / |lambda| = " + format_g(2.8 / modes.fastest, 2) +
         " s (rk4; 2 / |lambda| for rk2, 3.3 / |lambda| for Dormand-Prince 5(4)), at any tolerance, while all links are taut "
         "(fewer taut links, as at the first snaps, allow longer steps). Its slowest oscillatory mode, the payload against "
         "the multirotor through the links in series, rings at " + format_g(modes.slow_frequency, 3) + " rad/s with damping "
         "ratio " + format_g(modes.slow_damping_ratio, 3) + ", whose linear oscillator rebounds at e = " +
         format_g(modes.slow_restitution, 2) + ": the link-by-link calibration does not make the collective contact "
         "plastic, and since k and c scale as omega^2 and omega that ratio is the same at every stiffness. ";
}

}  // namespace

std::string penalty_words(const Parameters& p, const PenaltyConstrainedOde& form) {
  double k_lo = form.stiffness(0), k_hi = k_lo, c_lo = form.damping(0), c_hi = c_lo, m_lo = form.effective_mass(0), m_hi = m_lo;
  for (int e = 1; e < form.one_sided_rows(); ++e) {
    k_lo = std::min(k_lo, form.stiffness(e)), k_hi = std::max(k_hi, form.stiffness(e));
    c_lo = std::min(c_lo, form.damping(e)), c_hi = std::max(c_hi, form.damping(e));
    m_lo = std::min(m_lo, form.effective_mass(e)), m_hi = std::max(m_hi, form.effective_mass(e));
  }
  const double omega = form.law().contact_frequency;
  return "each link a linear spring-dashpot acting while stretched (x = (|d|^2 - l^2)/(2 l) > 0, the stretch to a relative "
         "O(stretch / l)), with its own contact frequency omega = " + format_g(omega, 4) + " rad/s ([model] penalty_frequency: " +
         format_g(omega * std::sqrt(p.link_length() / p.g), 3) + " / sqrt(l / g), l = " + format_g(p.link_length(), 3) +
         " m the link's length; the pendulum's string uses 100 / sqrt(l / g) by default) against the rest of the cable held rigid: k = m_link omega^2 "
         "and c = 2 zeta omega m_link, m_link the link's effective mass along itself with every other link held, on the hanging "
         "equilibrium of the taut cables (" + format_g(m_lo, 3) + " to " + format_g(m_hi, 3) + " kg, so k from " + format_g(k_lo, 3) +
         " to " + format_g(k_hi, 3) + " N/m and c from " + format_g(c_lo, 3) + " to " + format_g(c_hi, 3) + " N s/m), damping ratio " +
         format_g(form.damping_ratio(), 4) +
         (p.restitution > 0.0 ? " (the linear oscillator's for e = " + format_g(p.restitution) + ")" : " (critical, for e = 0)") +
         "; the force is not clipped at 0 (the dashpot pushes while a link is stretched and shortening faster than k x / c); "
         "the bodies' R^T R = I held by Baumgarte stabilisation. " +
         modes_words(form) +
         "A snap's loss is read over " +
         (form.damping_ratio() < 1.0 ? "its contact, up to the link's opening (at most 1.5 pi / omega_d = " + format_g(form.contact_time(), 3) + " s)"
                                     : "10 / omega = " + format_g(form.contact_time(), 3) + " s (a critical contact never ends)") +
         "; the dashpots' work booked as the impacts' loss";
}

}  // namespace tb::multirotor_payload
