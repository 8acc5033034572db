#pragma once
#include "core/integrator.hpp"
namespace tb { IntegratorInfo rkf78_info(); }
