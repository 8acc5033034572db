#pragma once
#include "core/integrator.hpp"
namespace tb { IntegratorInfo rkmk4_info(); }
