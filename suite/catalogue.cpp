#include "suite/catalogue.hpp"

#include "integrators/registry.hpp"
#include "models/registry.hpp"
#include "studies/registry.hpp"

namespace tb {

const Catalogue& suite_catalogue() {
  static const Catalogue catalogue = [] {
    Catalogue c;
    c.models = model_registry();
    c.integrators = integrator_registry();
    c.studies = study_registry();
    // References: Dormand-Prince 5(4) at rtol 1e-13 on the model's ODE form (core/reference.hpp).
    c.reference_integrator = "rk45";
    c.validate();
    return c;
  }();
  return catalogue;
}

}  // namespace tb
