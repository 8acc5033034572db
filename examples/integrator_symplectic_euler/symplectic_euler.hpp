#pragma once
#include "core/integrator.hpp"
namespace my_methods { tb::IntegratorInfo symplectic_euler_info(); }
