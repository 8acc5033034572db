#pragma once
#include "core/integrator.hpp"
namespace tb { IntegratorInfo cf4_info(); }
