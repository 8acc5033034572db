#pragma once
// One integrator run to a final time on a model's form, with the integrator's default settings
// at a step h (rtol/atol where it declares them): what the conformance checks and the in-tree
// tests (tests/test_support.hpp) both measure orders and contracts with.

#include <Eigen/Dense>
#include <memory>
#include <string>

#include "app/running/runner.hpp"

namespace tb::conformance {

IntegratorSettings settings_of(const IntegratorInfo& info, double h);
// Sets `key` only where the integrator declares it (rtol on a fixed-step method is no setting).
void set_if_declared(IntegratorSettings& s, const std::string& key, double value);
// The model's form of the kind the integrator consumes; std::runtime_error when it offers none.
std::unique_ptr<Formulation> formulation_for(const Model& model, const IntegratorInfo& info);

struct FinalState {
  IntegrationOutcome outcome;
  Eigen::VectorXd physical;  // the model's common physical-state layout
};
FinalState run_to(const Model& model, const IntegratorInfo& info, double t_end, double h, double rtol = 1e-8,
                  double atol = 1e-10);

}  // namespace tb::conformance
