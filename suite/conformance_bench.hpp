#pragma once
// The suite's test models for the integrator conformance checks (conformance/integrator_checks.hpp):
// named here, with the catalogue, so that the checks themselves name no model. The generic
// integrator tests and `tetherbench check-plugin` use the same bench.
#include "conformance/integrator_checks.hpp"

namespace tb {
// The bench over `catalogue` (its reference, cross-check and drift integrators).
conformance::IntegratorBench suite_integrator_bench(const Catalogue& catalogue);
}  // namespace tb
