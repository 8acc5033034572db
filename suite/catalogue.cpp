#include "suite/catalogue.hpp"

#include <string>

#include "integrators/registry.hpp"
#include "models/registry.hpp"
#include "studies/registry.hpp"

namespace tb {

namespace {

// What benchmarks.md sets side by side beyond its tables of every method.
StepCostComparisons step_cost_comparisons() {
  StepCostComparisons s;
  // The variational integrator against the explicit method the source papers compare it with, at
  // the same step: an LGVI residual with its Newton solve against an RK4 stage.
  s.ratios = {{"lgvi", "rk4"}};
  // The LGVI and RATTLE solve one discrete system on both benchmark models, and lgvi4 and rattle4
  // compose it alike over 5 substeps (issue 23), so their Newton iterations and costs per step
  // are comparable: a difference measures how each evaluates and solves the equations.
  // - The LGVI's solve is one correction and its check per substep when the predictor is not
  //   already at the round-off floor: 2 residual evaluations, 2.5 allowing every other step a third.
  // - At the same iterations, one step differs only by how each scheme arranges its residual,
  //   Newton matrix and block solve; either twin 20% dearer than the other is above the timing
  //   noise between two benchmarks (measured on the multirotor model: RATTLE's step costs
  //   1.2-1.6 times the LGVI's there, flagged).
  const std::string counting =
      "Both count evaluations of their step's equations: the LGVI's Newton iterations stop at each row's round-off "
      "floor, RATTLE's at its newton_tol, so where RATTLE's first evaluation already meets that tolerance it takes "
      "no correction (1 per substep). The LGVI's solve is one correction and its check per substep when the "
      "predictor is not already at the round-off floor (2 evaluations); lgvi4 and rattle4 compose 5 substeps";
  StepCostComparisons::SameEquations multirotor;
  multirotor.model = "multirotor_payload";
  multirotor.pairs = {{"lgvi", "rattle", 1}, {"lgvi4", "rattle4", 5}};
  multirotor.max_iterations = 2.5;
  multirotor.max_cost_ratio = 1.2;
  multirotor.why =
      "One discrete system: in joint coordinates the LGVI's position equations are SHAKE's and its rotation update "
      "is Moser-Veselov (tests/test_lgvi_roundoff.cpp: with RATTLE solved to its round-off floor, their states agree "
      "to round-off). " + counting;
  StepCostComparisons::SameEquations string = multirotor;
  string.model = "string_pendulum";
  string.why =
      "One discrete system: the string's trapezoidal discrete Lagrangian with the rigid body's rotation updated on "
      "SO(3) (the LGVI) or carried as 9 numbers under RᵀR = I (RATTLE) (tests/test_lgvi_roundoff.cpp: with RATTLE "
      "solved to its round-off floor, their states agree to round-off). " + counting;
  s.same_equations = {multirotor, string};
  // The tension-only tether beside the bilateral one (issue 47 item 5), lumped and full: the same
  // state (half of the elements slack, half taut) and the same h, so the ratio is what the
  // tension-only branch costs or saves per element and step.
  const std::string cables =
      "The same tether, state and h; the tension-only elements give no force and no stiffness when slack (shorter "
      "than their rest length), where the bilateral ones push. Both start with the middle half of the elements 2% "
      "short and the rest 2% long (benchmarks/benchmark_models.cpp)";
  s.model_ratios = {{"hanging_tether_lumped_tension_only", "hanging_tether_lumped", cables},
                    {"hanging_tether_full_tension_only", "hanging_tether_full", cables}};
  // The adaptive index-1 DAE: its steps per simulated second, over its own horizon, say how the
  // case's physics (stiff cables, slack phases) sets its cost.
  s.step_rates = {"ida"};
  return s;
}

}  // namespace

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
    // An event-driven reference (the snap study's, rk45 on a hybrid form) is checked by CVODE's BDF with
    // its root finder: another family, with dense output, so its switches are read on the same grid.
    c.event_check_integrator = "cvode";
    c.step_cost = step_cost_comparisons();
    c.validate();
    return c;
  }();
  return catalogue;
}

}  // namespace tb
