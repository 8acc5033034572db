#pragma once
#include "integrators/integrator.hpp"
namespace tb { IntegratorInfo lgvi_info(); }
