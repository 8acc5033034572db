#pragma once
#include "core/model.hpp"
#include "models/free_rigid_body/mechanics.hpp"
namespace tb::free_rigid_body {
// Registry entry for the torque-free rigid body (case files with model = "free_rigid_body").
ModelInfo info();
// The model from parameters in code (tests); case files go through info().build.
std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic);
}  // namespace tb::free_rigid_body
