#pragma once
// The properties every integrator must have, checked on any IntegratorInfo (after Drake's
// generic_integrator_test): its measured convergence order against the declared one (adaptive
// ones: the error follows the tolerance), landing exactly on the end time without stepping past
// t_stop, a failed step that leaves time and state unchanged (and integrate() reporting where it
// failed), and its declared MethodTraits against what it does where that is cheap to measure
// and robust: implicit (iterations or none), adaptive (the step follows the tolerance, or is h),
// symmetric (a step back undoes a step, HLW II.3 Def. 3.1), conserving the momentum map,
// symplectic (energy error bounded over 64 T) or none of symplectic, symmetric and dissipative
// (it drifts), on the manifold (R^T R = I and |q| = 1 to round-off). One implementation for the
// generic tests over the registry (tests/test_integrators_generic.cpp) and for `tetherbench
// check-plugin` on a plugin's integrators.
//
// The checks run on test models the caller hands over (IntegratorBench: the suite's are
// assembled in suite/conformance_bench.cpp), so this layer names none. Orders are measured
// against the catalogue's reference solver's tight solution of the model's ODE form (the same
// semi-discrete system the integrator's formulation discretises), cross-checked by the
// catalogue's cross-check solver, and judged by the rule of orders.csv (measure_order).

#include <memory>
#include <string>
#include <vector>

#include "app/input/catalogue.hpp"
#include "conformance/check.hpp"
#include "core/model.hpp"

namespace tb::conformance {

struct IntegratorBench {
  const Catalogue* catalogue = nullptr;  // the reference and cross-check solvers, and drift_integrator
  // Tried in order for the formulation an integrator consumes (order, end time, failure, the
  // implicit and adaptive traits, the step back): the first that offers its form and that it
  // does not decline (IntegratorInfo::why_not). Every degree of freedom should move from t = 0.
  std::vector<std::shared_ptr<const Model>> general;
  // A model with a momentum map (the `momentum` observation) that a method declaring
  // conserves_momentum_map must keep to round-off; it must offer every such method's form.
  std::shared_ptr<const Model> momentum_map;
  // Models offering between them every formulation kind (the factory refuses the other kinds).
  std::vector<std::shared_ptr<const Model>> every_kind;
  // Models whose energy has one clean mode, tried in order (symplectic: bounded energy error;
  // others drift), run at h = 0.02 s over T = 4 s and 64 T; the first must hold a period in T.
  std::vector<std::shared_ptr<const Model>> one_mode;
  // Models with rotations and unit directions (Observation::orthogonality_err, constraint_err),
  // tried in order, for the on-manifold trait; and the integrator of the catalogue that drifts off
  // them (the check shows the bound can tell the two apart).
  std::vector<std::shared_ptr<const Model>> manifold;
  std::string drift_integrator;
};

// One per check, in the order `check-plugin` prints them.
Check check_order(const IntegratorInfo& info, const IntegratorBench& bench);
Check check_end_time(const IntegratorInfo& info, const IntegratorBench& bench);
Check check_failed_step(const IntegratorInfo& info, const IntegratorBench& bench);
Check check_failure_report(const IntegratorInfo& info, const IntegratorBench& bench);
Check check_implicit_trait(const IntegratorInfo& info, const IntegratorBench& bench);
Check check_adaptive_trait(const IntegratorInfo& info, const IntegratorBench& bench);
Check check_step_back(const IntegratorInfo& info, const IntegratorBench& bench);        // n/a: adaptive
Check check_momentum_map(const IntegratorInfo& info, const IntegratorBench& bench);     // n/a: not declared
Check check_form_type(const IntegratorInfo& info, const IntegratorBench& bench);
Check check_energy_behaviour(const IntegratorInfo& info, const IntegratorBench& bench);
Check check_on_manifold(const IntegratorInfo& info, const IntegratorBench& bench);      // n/a: not declared

// The bench's drift integrator leaves the manifold models far above the on-manifold bound (so
// that the bound tells the two apart): a property of the bench, checked by the suite's tests.
Check check_manifold_baseline(const IntegratorBench& bench);

// Every check above on one integrator.
std::vector<Check> check_integrator(const IntegratorInfo& info, const IntegratorBench& bench);

}  // namespace tb::conformance
