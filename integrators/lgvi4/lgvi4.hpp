#pragma once
#include "core/integrator.hpp"

namespace tb {

IntegratorInfo lgvi4_info();

}  // namespace tb
