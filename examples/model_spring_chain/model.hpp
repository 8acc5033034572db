#pragma once
#include "core/model.hpp"
namespace my_models::spring_chain { tb::ModelInfo info(); }
