// The list of models a case file can name. Keep it sorted by name.
// Adding a model: its folder under models/ and one line here.

#include "models/registry.hpp"

#include "models/elastic_pendulum/model.hpp"
#include "models/free_rigid_body/model.hpp"
#include "models/hanging_tether/model.hpp"
#include "models/multirotor_payload/model.hpp"
#include "models/planar_pendulum/model.hpp"
#include "models/reel_pendulum/model.hpp"
#include "models/string_pendulum/model.hpp"

namespace tb {

std::vector<ModelInfo> model_registry() {
  return {
      elastic_pendulum::info(),
      free_rigid_body::info(),
      hanging_tether::info(),
      multirotor_payload::info(),
      planar_pendulum::info(),
      reel_pendulum::info(),
      string_pendulum::info(),
  };
}

}  // namespace tb
