#pragma once
// RATTLE on a constrained mechanical system in natural coordinates (rattle.cpp; the step itself:
// integrators/rattle_step.hpp).

#include "core/integrator.hpp"

namespace tb {

IntegratorInfo rattle_info();

}  // namespace tb
