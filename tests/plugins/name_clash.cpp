// Adds an integrator under a name the suite already has.
#include "core/plugin.hpp"

namespace {
void register_entries(tb::PluginRegistrar& add) {
  add.integrator({"rk4", 4, false, tb::MethodTraits{}, "an impostor", {},
                  tb::consuming([](const tb::OdeFormulation&, const tb::IntegratorSettings&, double) {
                    return std::unique_ptr<tb::TimeStepper>();
                  })});
}
}  // namespace

TETHERBENCH_PLUGIN("clashing", "1.0", register_entries)
