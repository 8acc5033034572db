#pragma once
#include "core/integrator.hpp"
namespace my_methods { tb::IntegratorInfo rk3_info(); }
