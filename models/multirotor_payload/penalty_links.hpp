#pragma once
// Model C's cables of unilateral links as stiff spring-dashpots (issue 48's "no events" baseline,
// discretisation "penalty"): the constrained form's link rows regularised by core/penalty_constrained_ode.hpp,
// each link's contact frequency against the rest of the cable held rigid omega = [model] penalty_frequency,
// its damping ratio from Newton's e, calibrated on the hanging equilibrium of the taut cables (every link at
// its length).
//
// Offered only where a case sets penalty_frequency: the penalty cable is stiff beyond omega. Each link's
// mass sits at its chord's midpoint, so joints that move apart along a link carry almost no inertia (the
// joints' mass matrix has near-zigzag modes of about m_link pi^2 / (4 n^2), 1.4e-4 kg on C_single_snap's
// ten links of 5 g), and a dashpot sized for the bodies' reduced mass (0.35 kg there) damps them at
// c / m ~ 1.2e6 /s at omega = 250 rad/s (5e6 /s at omega = 100 / sqrt(l / g)): an explicit step is bounded by
// its stability there, whatever its tolerance.

#include <memory>
#include <string>

#include "core/penalty_constrained_ode.hpp"
#include "models/multirotor_payload/mechanics.hpp"

namespace tb::multirotor_payload {

std::unique_ptr<PenaltyConstrainedOde> make_penalty_form(const Parameters& p, const InitialCondition& ic);
// The regularisation in words, with its numbers (the links' stiffness and damping range), for the pages.
std::string penalty_words(const Parameters& p, const PenaltyConstrainedOde& form);

}  // namespace tb::multirotor_payload
