#pragma once
#include "core/model.hpp"
#include "models/planar_pendulum/mechanics.hpp"
namespace tb::planar_pendulum {
// Registry entry for the textbook planar pendulum (case files with model = "planar_pendulum").
ModelInfo info();
// The pendulum from parameters in code (tests).
std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic);
}  // namespace tb::planar_pendulum
