// The list of models a case file can name. Keep it sorted by name.
// Adding a model: its folder under models/ and one line here.

#include "core/model.hpp"
#include "models/planar_pendulum/model.hpp"
#include "models/reel_pendulum/model.hpp"
#include "models/string_pendulum/model.hpp"

namespace tb {

const std::vector<ModelInfo>& model_registry() {
  static const std::vector<ModelInfo> registry = {
      planar_pendulum::info(),
      reel_pendulum::info(),
      string_pendulum::info(),
  };
  return registry;
}

}  // namespace tb
