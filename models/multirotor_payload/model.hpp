#pragma once
#include "core/model.hpp"
#include "models/multirotor_payload/mechanics.hpp"
namespace tb::multirotor_payload {
// Registry entry for Model C (case files with model = "multirotor_payload").
ModelInfo info();
// Model C from parameters in code (tests, benchmarks); case files go through info().build.
std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic);
}  // namespace tb::multirotor_payload
