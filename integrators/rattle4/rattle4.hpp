#pragma once
#include "core/integrator.hpp"

namespace tb {

IntegratorInfo rattle4_info();

}  // namespace tb
