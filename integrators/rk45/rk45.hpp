#pragma once
#include "integrators/integrator.hpp"
namespace tb { IntegratorInfo rk45_info(); }
