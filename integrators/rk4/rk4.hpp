#pragma once
#include "integrators/integrator.hpp"
namespace tb { IntegratorInfo rk4_info(); }
