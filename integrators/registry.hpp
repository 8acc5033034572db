#pragma once
// Every integrator of the suite, sorted by name. The executable and the tests hand this list
// to core (app/input/catalogue.hpp); core never calls it.
#include <vector>

#include "core/integrator.hpp"

namespace tb {
std::vector<IntegratorInfo> integrator_registry();
// Methods that only compute the stored reference solutions and are never compared (so no
// compared method is measured against itself).
std::vector<IntegratorInfo> reference_solver_registry();
}
