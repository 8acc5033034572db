#pragma once
// Model C whose cables are chains of unilateral links (issue 48): |J_j - J_{j-1}| <= l, a tension
// only, snapping taut by Newton's impact law. The forms that can carry a link that goes slack.
#include "core/model.hpp"
#include "models/multirotor_payload/mechanics.hpp"
namespace tb::multirotor_payload {
std::shared_ptr<const Model> make_unilateral_model(const Parameters& p, const InitialCondition& ic);
}  // namespace tb::multirotor_payload
