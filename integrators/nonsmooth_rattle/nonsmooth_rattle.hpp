#pragma once
// RATTLE with unilateral constraints (nonsmooth_rattle.cpp; issue 48).

#include "core/integrator.hpp"

namespace tb {

IntegratorInfo nonsmooth_rattle_info();

}  // namespace tb
