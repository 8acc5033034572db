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

std::string idle_baumgarte_setting(const std::string& key, const Formulation& form) {
  const auto* dae = dynamic_cast<const DaeFormulation*>(&form);
  if (!dae || (key != "baumgarte_p" && key != "baumgarte_gamma")) return "";
  if (std::string why = dae->why_not_stabilised(); !why.empty()) return why;
  if (key == "baumgarte_p" && !form.integrated_constraints().positions)
    return "the form integrates no constraint that can drift, so p has nothing to keep";
  return "";
}

}  // namespace tb
