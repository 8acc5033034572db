#pragma once
#include "core/model.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"
namespace tb::string_pendulum {
// Registry entry for Model A (case files with model = "string_pendulum").
ModelInfo info();
// Model A from parameters in code (tests, benchmarks); case files go through info().build.
std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic);
}
