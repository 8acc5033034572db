#pragma once
// Moreau-Jean time-stepping on a constrained mechanical form with unilateral constraints
// (moreau_jean.cpp; issue 48).

#include "core/integrator.hpp"

namespace tb {

IntegratorInfo moreau_jean_info();

}  // namespace tb
