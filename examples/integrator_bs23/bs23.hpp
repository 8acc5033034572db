#pragma once
#include "core/integrator.hpp"
namespace my_methods { tb::IntegratorInfo bs23_info(); }
