#pragma once
#include "core/model.hpp"
#include "models/multirotor_payload/mechanics.hpp"
namespace tb::multirotor_payload {
// Registry entry for Model C (case files with model = "multirotor_payload").
ModelInfo info();
// Model C from parameters in code (tests, benchmarks); case files go through info().build.
std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic);
// Shared by the bilateral and the unilateral model (model.cpp): the rest state every linearisation is
// about (each cable hanging straight down, at rest, R = I) and the physical state's parts.
InitialCondition hanging_rest();
std::vector<PhysicalPart> physical_parts(const Parameters& p);
}  // namespace tb::multirotor_payload
