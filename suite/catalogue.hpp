#pragma once
// The suite as shipped: every model, integrator and study, and the reference solver, named
// here once. The tetherbench executable, the tests and the benchmarks use this catalogue; a
// user's own driver can assemble another (app/input/catalogue.hpp).
#include "app/input/catalogue.hpp"

namespace tb {
// Validated on first use (std::logic_error naming the problem).
const Catalogue& suite_catalogue();
}  // namespace tb
