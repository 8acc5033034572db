#pragma once
#include "core/integrator.hpp"
namespace tb { IntegratorInfo rk45_info(); }
