#pragma once
#include "core/integrator.hpp"
namespace tb { IntegratorInfo lgvi_info(); }
