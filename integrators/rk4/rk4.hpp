#pragma once
#include "core/integrator.hpp"
namespace tb { IntegratorInfo rk4_info(); }
