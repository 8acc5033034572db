#pragma once
// Model C's slack cables in closed form up to their first snap (issue 48, the referee read of the
// snap study: "constant accelerations from one solve M a = f"). With every link slack and the
// attachment offset 0 (the unilateral model requires it), the joints are free points whose kinetic
// energy is 1/2 J'^T (M_s (x) I3) J' with a constant joint mass matrix M_s (mechanics.hpp: each
// link's mass at its centre couples its two joints) and whose forces phi are constant (gravity
// lumped to the joints and the constant thrust). So M_s A = phi gives constant accelerations, the
// joints move as J(t) = J(0) + V(0) t + A t^2 / 2, and each link's gap |J_i - J_{i-1}| - l is a
// quartic's square root in t: the first snap is the smallest positive root over the links. The
// links that close there together take the impulse of Newton's law (e), K Lambda = (1 + e) w with
// K = G (M_s^-1 (x) I3) G^T over them and w their opening speeds; where every Lambda is positive
// (the LCP's solution is the linear one) the energy taken is 1/2 (1 - e^2) w^T K^-1 w.
#include <optional>
#include <string>

#include "core/switching.hpp"
#include "models/multirotor_payload/mechanics.hpp"

namespace tb::multirotor_payload {

// The first snap of a slack start, or nullopt with why_not (no link slack at the start, no link
// ever reaching its length, an impulse problem whose linear solution is not all positive).
std::optional<FirstSwitchClosedForm> first_snap_closed_form(const Parameters& p, const InitialCondition& ic,
                                                            std::string& why_not);

}  // namespace tb::multirotor_payload
