#pragma once
#include "core/model.hpp"
namespace tb::string_pendulum {
// Registry entry for Model A (case files with model = "string_pendulum").
ModelInfo info();
}
