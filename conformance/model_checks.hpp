#pragma once
// The properties every model must have, checked on a small fixture case of the model (the case
// format of cases/README.md: small, moving, away from rest and from symmetric configurations,
// so that every derivative is exercised). For every formulation the model offers (every
// discretisation):
//   - the physical state at t0 is the same in every formulation;
//   - the observations at t0 are finite, with one extra value per extra column, and the same in
//     every formulation of the same semi-discrete system (all but the lumped-mass ones);
//   - every index-1 DAE's analytic iteration matrix dF/dy + cj dF/dy' matches central
//     differences of its residual, inside the declared band; its consistent initial values
//     solve its residual to round-off;
//   - every discrete Lie group step's Newton correction inverts the derivative of its residual;
//   - the ODE form under the catalogue's tight reference solver keeps the model's invariants
//     (energy balance, constraints, orthonormality, momenta);
//   - every constrained mechanical form's constraint Jacobian, structured products, mass matrix,
//     saddle-point solver and tangents (df/dq, df/dv, d(G^T lambda)/dq) against central
//     differences and dense products;
//   - the physical state splits into configuration and rates, kinematically;
//   - every Lie group ODE form's field, acting on its state, is its embedded ODE's right-hand side.
// One implementation for the generic tests over the registry (tests/test_models_generic.cpp,
// with the fixtures of tests/model_fixtures/) and for `tetherbench check-plugin` on a plugin's
// models (fixtures given with --fixture). The bounds and what they were measured at are stated
// at each check (conformance/model_checks.cpp) and in tests/test_models_generic.cpp.

#include <string>
#include <vector>

#include "app/input/catalogue.hpp"
#include "conformance/check.hpp"

namespace tb::conformance {

struct ModelFixture {
  std::string model;  // the registered model's name
  std::string file;   // a small case file of that model
  std::string label;  // how messages name it: <model> or <model>.<variant>, or the file's name
};

Check check_fixture(const ModelFixture& fixture, const Catalogue& catalogue);
Check check_initial_state(const ModelFixture& fixture, const Catalogue& catalogue);
Check check_observations_finite(const ModelFixture& fixture, const Catalogue& catalogue);
Check check_observations_agree(const ModelFixture& fixture, const Catalogue& catalogue);
Check check_dae_iteration_matrix(const ModelFixture& fixture, const Catalogue& catalogue);       // n/a: no DAE form
Check check_dae_consistent_values(const ModelFixture& fixture, const Catalogue& catalogue);      // n/a: no DAE form
Check check_lie_group_newton(const ModelFixture& fixture, const Catalogue& catalogue);           // n/a: no such form
Check check_invariants_under_reference(const ModelFixture& fixture, const Catalogue& catalogue);
Check check_constrained_pieces(const ModelFixture& fixture, const Catalogue& catalogue);         // n/a: no such form
Check check_constrained_saddle_point(const ModelFixture& fixture, const Catalogue& catalogue);   // n/a: no such form
Check check_constrained_tangents(const ModelFixture& fixture, const Catalogue& catalogue);       // n/a: no such form
Check check_physical_parts(const ModelFixture& fixture, const Catalogue& catalogue);
Check check_lie_group_field(const ModelFixture& fixture, const Catalogue& catalogue);            // n/a: no such form

// Every check above on one fixture.
std::vector<Check> check_model(const ModelFixture& fixture, const Catalogue& catalogue);

}  // namespace tb::conformance
