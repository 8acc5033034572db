#include "core/formulation.hpp"

namespace tb {

std::string to_string(FormulationKind kind) {
  switch (kind) {
    case FormulationKind::DiscreteLieGroup: return "discrete-lie-group";
    case FormulationKind::EmbeddedOde: return "embedded-ode";
    case FormulationKind::IndexOneDae: return "index-1-dae";
    case FormulationKind::ConstrainedMechanical: return "constrained-mechanical";
    case FormulationKind::LieGroupOde: return "lie-group-ode";
  }
  return "unknown";
}

}  // namespace tb
