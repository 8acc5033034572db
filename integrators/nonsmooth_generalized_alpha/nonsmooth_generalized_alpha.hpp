#pragma once
// Nonsmooth generalized-alpha for unilateral constraints (nonsmooth_generalized_alpha.cpp; issue 48).

#include "core/integrator.hpp"

namespace tb {

IntegratorInfo nonsmooth_generalized_alpha_info();

}  // namespace tb
