#pragma once
#include "core/model.hpp"
#include "models/reel_pendulum/mechanics.hpp"
namespace tb::reel_pendulum {
// Registry entry for Model B (case files with model = "reel_pendulum").
ModelInfo info();
// Model B from parameters in code (tests, benchmarks).
std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic);
}  // namespace tb::reel_pendulum
