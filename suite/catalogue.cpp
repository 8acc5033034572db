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
    // References (app/running/reference.hpp) on the model's ODE form at rtol 1e-13: Fehlberg 7(8), a
    // method none of the compared integrators is, cross-checked by the compared Dormand-Prince 5(4).
    c.reference_solvers = reference_solver_registry();
    c.reference_integrator = "rkf78";
    c.crosscheck_integrator = "rk45";
    c.validate();
    return c;
  }();
  return catalogue;
}

}  // namespace tb
