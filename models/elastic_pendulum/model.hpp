#pragma once
#include "core/model.hpp"
#include "models/elastic_pendulum/mechanics.hpp"
namespace tb::elastic_pendulum {
// Registry entry for the elastic pendulum (case files with model = "elastic_pendulum").
ModelInfo info();
// The model from parameters in code (tests); case files go through info().build.
std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic);
}  // namespace tb::elastic_pendulum
