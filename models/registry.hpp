#pragma once
// Every model a case file can name, sorted by name. The executable and the tests hand this
// list to core (app/input/catalogue.hpp); core never calls it.
#include <vector>

#include "core/model.hpp"

namespace tb {
std::vector<ModelInfo> model_registry();
}
