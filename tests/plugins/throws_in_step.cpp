// Loads fine; its integrator throws inside a step. That is the run's failure (a row marked
// failed with the reason), never the end of the other runs.
#include <stdexcept>

#include "core/plugin.hpp"

namespace {

class Throwing final : public tb::TimeStepper {
 public:
  Throwing(const tb::OdeFormulation& ode, double t0) : TimeStepper(t0, ode.initial_state()) {}
  bool step(double, tb::StepFailure&) override { throw std::runtime_error("plugin bug in step"); }
};

void register_entries(tb::PluginRegistrar& add) {
  add.integrator({"throwing_method", 1, false, tb::MethodTraits{}, "throws in its first step", {},
                  tb::consuming([](const tb::OdeFormulation& ode, const tb::IntegratorSettings&, double t0) {
                    return std::make_unique<Throwing>(ode, t0);
                  })});
}

}  // namespace

TETHERBENCH_PLUGIN("throwing", "1.0", register_entries)
