#pragma once
#include "core/integrator.hpp"
namespace tb { IntegratorInfo rk2_info(); }
