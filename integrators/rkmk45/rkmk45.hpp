#pragma once
#include "core/integrator.hpp"
namespace tb { IntegratorInfo rkmk45_info(); }
