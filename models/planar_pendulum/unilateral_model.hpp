#pragma once
// The planar pendulum whose rod is a unilateral link (issue 48): the forms that can carry a
// slack phase and an impact, the switching function, the impacts' words, the known answers.
#include "core/model.hpp"
#include "models/planar_pendulum/mechanics.hpp"
namespace tb::planar_pendulum {
std::shared_ptr<const Model> make_unilateral_model(const Parameters& p, const InitialCondition& ic);
}  // namespace tb::planar_pendulum
