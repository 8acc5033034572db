// Adds an integrator under a name the suite already has.
#include "core/plugin.hpp"

namespace {
std::unique_ptr<tb::TimeStepper> never(const tb::Formulation&, const tb::IntegratorSettings&, double) { return nullptr; }
void register_entries(tb::PluginRegistrar& add) {
  add.integrator({"rk4", tb::FormulationKind::EmbeddedOde, 4, false, tb::MethodTraits{}, "an impostor", {}, &never});
}
}  // namespace

TETHERBENCH_PLUGIN("clashing", "1.0", register_entries)
