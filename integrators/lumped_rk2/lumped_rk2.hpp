#pragma once
#include "integrators/integrator.hpp"
namespace tb { IntegratorInfo lumped_rk2_info(); }
