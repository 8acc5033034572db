// Properties every registered model must have, checked for each model of the suite's catalogue
// on small fixture cases in tests/model_fixtures (the case format of cases/README.md):
// <model>.toml for every model (a model without one fails here, naming the file to add), plus
// optional variants <model>.<variant>.toml for what one case file cannot select (the
// hanging tether's lumped discretisation, the reel locked). For every formulation a fixture's
// model offers:
//   1. the physical state at t0 is the same in every formulation;
//   2. the observations at t0 are finite, with one extra value per extra column, and the same
//      in every formulation of the same semi-discrete system (all but the lumped-mass ones);
//   3. every index-1 DAE's analytic iteration matrix dF/dy + cj dF/dy' matches central
//      differences of its residual, inside the declared band;
//   4. every DAE's consistent initial values solve its residual to round-off;
//   5. every discrete Lie group step's Newton correction inverts the derivative of its
//      residual;
//   6. the model's ODE form under tight RK45 keeps the model's invariants (energy balance,
//      constraints, orthonormality, momenta).
// The checks are conformance/model_checks.cpp (the same code `tetherbench check-plugin` runs on a
// plugin's models with --fixture); each test here replays their assertions on every fixture
// (tests/conformance_replay.hpp), and the comments keep what the suite's models measured.
// A new model is covered by adding it to the registry and its fixture here. Every discretisation
// a model offers is covered (its formulations compared within the discretisation's system). The fixtures are
// small (N = 4..6 elements, 2 cables x 3 links) and start moving, away from rest and from
// symmetric configurations, so that every derivative is exercised.
//
// Set TB_GENERIC_REPORT=1 to print every measured value.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "conformance/model_checks.hpp"
#include "tests/conformance_replay.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {

std::string fixture_path(const std::string& model) {
  return std::string(TETHERBENCH_MODEL_FIXTURES_DIR) + "/" + model + ".toml";
}

// The model's fixture files: <model>.toml first (listed even when absent, so that loading it
// fails naming it), then its variants <model>.<variant>.toml in name order.
std::vector<std::string> fixture_files(const std::string& model) {
  std::vector<std::string> variants;
  const std::string prefix = model + ".";
  for (const auto& entry : std::filesystem::directory_iterator(TETHERBENCH_MODEL_FIXTURES_DIR)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".toml" && name.rfind(prefix, 0) == 0 && name != model + ".toml")
      variants.push_back(entry.path().string());
  }
  std::sort(variants.begin(), variants.end());
  variants.insert(variants.begin(), fixture_path(model));
  return variants;
}

// Every registered model's fixtures, in registry order.
std::vector<conformance::ModelFixture> all_fixtures() {
  std::vector<conformance::ModelFixture> out;
  for (const auto& info : testing::catalogue().models)
    for (const auto& file : fixture_files(info.name))
      out.push_back({info.name, file, std::filesystem::path(file).stem().string()});
  return out;
}

// Replays one shared check on every fixture, one section per fixture.
template <class CheckFunction>
void on_every_fixture(CheckFunction check, bool succeed_when_not_applicable) {
  for (const auto& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) { testing::replay(check(fixture, testing::catalogue()), succeed_when_not_applicable); }
  }
}

}  // namespace

TEST_CASE("every registered model has a fixture case", "[models-generic]") {
  REQUIRE_FALSE(testing::catalogue().models.empty());
  on_every_fixture(conformance::check_fixture, false);
}

TEST_CASE("every fixture case names a registered model", "[models-generic]") {
  // Every file is <model>.toml or <model>.<variant>.toml of a registered model (a misspelt or
  // renamed model's fixture would otherwise be silently skipped).
  for (const auto& entry : std::filesystem::directory_iterator(TETHERBENCH_MODEL_FIXTURES_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    const std::string name = entry.path().filename().string();
    const std::string model = name.substr(0, name.find('.'));
    INFO("fixture " << entry.path().string() << " does not name a registered model");
    CHECK(std::any_of(testing::catalogue().models.begin(), testing::catalogue().models.end(),
                      [&](const ModelInfo& info) { return info.name == model; }));
  }
}

TEST_CASE("every model's formulations start from the same physical state", "[models-generic]") {
  // Against the embedded ODE where offered (else the first formulation); tolerance 1e-12
  // relative to the largest entry of the physical state. The conversions at t0 (the continuous
  // Legendre transform and its O(N) inverse for the LGVI forms; the body's centre of mass to
  // the attachment point for the DAE forms) are exact up to round-off. Measured:
  //   LGVI: elastic_pendulum 0, free_rigid_body 2.0e-16, multirotor_payload 7.8e-14 (its
  //     momenta-to-velocities solve; M_q's eigenvalues span l^2 m_i to the payload mass),
  //     reel_pendulum 1.5e-15 (both fixtures), string_pendulum 8.9e-16;
  //   DAE: free_rigid_body 0, multirotor_payload 1.1e-16, planar_pendulum 0,
  //     reel_pendulum 3.7e-17 (both), string_pendulum 1.9e-17; the DAE's initial_state()
  //     against its consistent_initial_state(b): the same physical state, differential part
  //     identical (0).
  // The lumped-mass forms (string_pendulum, reel_pendulum.locked; hanging_tether.lumped offers
  // only that one) are a different semi-discrete system with a different mass matrix, but take
  // the same initial condition (node positions and velocities, R, Omega), so they must agree
  // here too; they do, exactly (0).
  on_every_fixture(conformance::check_initial_state, false);
}

TEST_CASE("every model's observations at t0 are finite in every formulation", "[models-generic]") {
  on_every_fixture(conformance::check_observations_finite, false);
}

TEST_CASE("every model's formulations observe the same state alike at t0", "[models-generic]") {
  // Energy, kinetic energy, momentum, linear momentum and every extra column at t0, against the
  // embedded ODE where offered (else the first formulation), to 1e-12 relative: energy and
  // kinetic energy against max(|E|, T), the momentum against |pi| (plus 1e-15 N m s for momenta
  // that vanish), P and the extra columns against max(1, |value|). Measured (worst quantity):
  // the LGVI forms (velocities through the inverse Legendre transform) free_rigid_body 3.7e-16,
  // multirotor_payload 2.4e-15, reel_pendulum 4.4e-15 (both fixtures), string_pendulum 1.3e-15;
  // the DAE forms <= 3.5e-16 (planar_pendulum 1.2e-16); elastic_pendulum 0.
  // Not for the lumped-mass forms: a different mass matrix gives another kinetic energy and
  // momentum for the same velocities (string_pendulum: |dE| / max(|E|, T) = 1.2e-4), and the
  // locked reel's lumped form (Model A's lumped string of length L - s_p) leaves out the reel's
  // potential V_r(s_p) = -mu g [(s_p - b) r_d.e3 + d^2 (cos((s_p - b)/d) - 1)], a constant while
  // the reel is locked (0.339 J here, |dE| / max(|E|, T) = 0.21): harmless to every energy
  // metric (differences from t0), but its E column is offset from the other formulations'.
  // Lumped forms are only required to be finite (previous test).
  on_every_fixture(conformance::check_observations_agree, false);
}

TEST_CASE("every DAE's iteration matrix matches central differences inside its declared band", "[models-generic]") {
  // At the consistent initial values plus a deterministic perturbation of 1e-3 (1 + |y_i|) of
  // every entry of y and y' (R leaves SO(3), so Xi != 0; the constraints and multipliers are
  // off their consistent values), for cj in {0, 1e3} and (p, gamma) in {(10, 10), (0, 0)}.
  // Error: each row against its largest entry (conformance/dae_checks.hpp). Measured (max over the
  // four combinations): free_rigid_body 1.3e-10, multirotor_payload 9.3e-9,
  // planar_pendulum 8.5e-11, reel_pendulum 1.2e-10 (free reel, dense border),
  // reel_pendulum.locked 1.1e-10, string_pendulum 7.9e-11 (over 12 other seeds: at most
  // 9.1e-9). Bound 1e-6 (100x the worst): one Baumgarte term of planar_pendulum's matrix
  // scaled by 1.01 measured 1.7e-3.
  on_every_fixture(conformance::check_dae_iteration_matrix, true);
}

TEST_CASE("every DAE's consistent initial values solve its residual to round-off", "[models-generic]") {
  // |F(t0, y0, y0')|_inf relative to the residual's scale |F(t0, y0, 0)|_inf, the size of the
  // terms that y0' must cancel (velocities in the kinematic rows, forces in the dynamic ones),
  // for (p, gamma) in {(10, 10), (0, 0)}. Measured (worst of the two): free_rigid_body 2.0e-16,
  // multirotor_payload 1.8e-15, planar_pendulum 1.7e-16, reel_pendulum 9.6e-15 (both fixtures,
  // at p = 10), string_pendulum 1.4e-15. Bound 1e-12.
  on_every_fixture(conformance::check_dae_consistent_values, true);
}

TEST_CASE("every discrete Lie group step's Newton correction inverts the derivative of its residual",
          "[models-generic]") {
  // newton_correction(x, v) returns dx with J(x) dx = -v. The directional central difference
  // D(e) = (G(x + e dx) - G(x - e dx)) / (2e) is J(x) dx up to O(e^2) and round-off, so it must
  // equal -v: this checks the model's structured J^{-1} against its residual without forming J.
  // x: the initial guess at the fixture's initial state and step h, plus a perturbation of 1e-2
  // of its size |x|_inf; v: three pseudo-random right-hand sides with entries in [-1, 1]. No
  // residual(x) call precedes newton_correction(x, ...): the interface passes x explicitly.
  // Error: |D(e) + v|_inf / |v|_inf, the smallest over |e dx|_inf = eta |x|_inf with eta in
  // {1e-2, 1e-3, 1e-4}: the unknowns are tiny (h v, h Omega / 2 ~ 1e-6..1e-3) and the residuals
  // nearly linear in them, so round-off dominates small steps (measured at eta = 1e-6: up to
  // 1e-4 for multirotor_payload) while truncation shows only for the rigid body at 1e-2 (6e-9);
  // a wrong Jacobian is wrong at every step, so the best step is the right measure. Measured
  // (worst of the three v): elastic_pendulum 6.6e-15, free_rigid_body 6.4e-12,
  // multirotor_payload 7.4e-9, reel_pendulum 5.0e-10, reel_pendulum.locked 7.8e-10,
  // string_pendulum 4.2e-10 (over 12 other seeds: at most 1.4e-8). Bound 1e-6 (70x the
  // worst): elastic_pendulum's correction scaled by 1.001 measured 1.0e-3.
  on_every_fixture(conformance::check_lie_group_newton, true);
}

TEST_CASE("every model's ODE form keeps its invariants under tight RK45", "[models-generic]") {
  // RK45 at rtol 1e-10, atol 1e-12 over the fixture's t_end, metrics as the runner computes them
  // (core/metrics.hpp), sampled on the fixture's grid. What is conserved:
  //  - the energy balance E(t) - E(0) - W(t) (W: control, Carnot and damping work), for every
  //    model: measured energy_err_rel_ke elastic_pendulum 5.7e-11, free_rigid_body 1.6e-13,
  //    hanging_tether 3.4e-10, hanging_tether.lumped 7.9e-11, multirotor_payload 7.4e-12,
  //    planar_pendulum 1.6e-10, reel_pendulum 2.4e-13, reel_pendulum.locked 1.1e-12,
  //    string_pendulum 6.1e-13. Bound 1e-8 (30x the worst; elastic_pendulum's kinetic energy
  //    scaled by 1.001 in observe() measured 3.6e-4).
  //  - the constraints not satisfied by construction: only Model C's ODE has one (|q_i| = 1,
  //    q_i integrated as 3-vectors), measured 1.1e-13; planar_pendulum's polar form 2.2e-16
  //    (round-off of |r| - l), 0 elsewhere. Bound 1e-9 (dimensionless, or m at l ~ 1 m).
  //  - orthonormality of R (models with a rigid body): measured free_rigid_body 3.9e-11,
  //    multirotor_payload 6.6e-15, reel_pendulum 7.7e-13, reel_pendulum.locked 9.7e-14,
  //    string_pendulum 3.6e-14. Bound 1e-9 (25x the worst).
  //  - the `momentum` observation, which core/formulation.hpp defines as "the model's conserved
  //    momentum" (pi3 or pi.e3 where the model conserves it, identically 0 for the planar
  //    pendulum and the fixed-support tether): so it is checked for every model, relative to its
  //    largest magnitude over the run (a momentum that is not conserved has an error of that
  //    size; one that is identically 0 must stay exactly 0). Measured relative errors:
  //    elastic_pendulum 2.7e-11, free_rigid_body 3.3e-11, hanging_tether 0 (momentum 0, both
  //    fixtures), multirotor_payload 2.0e-14, planar_pendulum 0 (momentum 0), reel_pendulum
  //    3.8e-13, reel_pendulum.locked 2.1e-13, string_pendulum 3.4e-14. Bound 1e-9 (30x the
  //    worst). The bundled envelopes (reference/envelopes.csv) claim the same: every bundled
  //    case bounds rk45's momentum_err_max, at <= 1e-13 N m s or (T_free_rigid_body, 20 s
  //    gate run at rtol 1e-10) 9e-11 N m s.
  //  - the total linear momentum where the model reports it (finite: zero net external force;
  //    Model C), relative to its largest magnitude: measured multirotor_payload 1.5e-11.
  //    Bound 1e-9.
  // Each fixture must actually move (max kinetic energy > 0), else the energy check is void.
  on_every_fixture(conformance::check_invariants_under_reference, false);
}

TEST_CASE("every constrained mechanical form's pieces are consistent: g, G, M and the initial state",
          "[models-generic]") {
  // At the initial configuration plus a deterministic perturbation of 1e-3 (1 + |q_i|) (off the
  // constraints, so that the checks are not special to g = 0):
  //  - G(q) as entries against central differences of g (step 1e-6 (1 + |q_i|)), each row
  //    against its largest entry: the constraints are quadratic, so central differences are
  //    exact up to round-off. Measured: free_rigid_body 4.6e-11, multirotor_payload 6.1e-11,
  //    planar_pendulum 3.1e-11, string_pendulum 2.8e-11 (elastic_pendulum has none). Bound 1e-7.
  //  - G v and G^T lambda (the structured products) against the entries' dense products, and
  //    M v against the mass entries, to 1e-13 relative; M symmetric, positive semi-definite.
  //  - the initial state on the constraints: |g_i| / scale_i and |G v| / (|G| |v|) at round-off
  //    (<= 1e-13; measured <= 2.2e-16).
  on_every_fixture(conformance::check_constrained_pieces, true);
}

TEST_CASE("every constrained mechanical form's structured solver solves its saddle-point system", "[models-generic]") {
  // [M, G(q_b)^T; G(q_a), 0] [x; lambda] = [r; s] at two different configurations near the
  // initial one (as in RATTLE's Newton: q_a the iterate, q_b = q_k), r and s pseudo-random;
  // the residual of the structured solution in the dense matrix built from the entries,
  // relative to |K| |[x; lambda]| + |[r; s]|. Measured: elastic_pendulum 0, free_rigid_body
  // 9.6e-17, multirotor_payload 5.8e-12 (CableTreeKkt eliminates without pivoting between
  // blocks, and q_a, q_b 1e-2 apart here are farther than any step: the link masses 0.01 kg
  // against the multirotor's 1.1 kg, and the link rows against the mass rows, spread the
  // pivots), planar_pendulum 2.3e-16, string_pendulum 1.1e-16. Bound 1e-10: a wrong block
  // gives O(1).
  on_every_fixture(conformance::check_constrained_saddle_point, true);
}

TEST_CASE("every constrained mechanical form's tangents match central differences", "[models-generic]") {
  // The tangents the index-3 alpha methods' Newton needs (generalized_alpha): K_f = df/dq,
  // C_f = df/dv and K_g = d(G(q)^T lambda)/dq, as entries, against central differences (step
  // 1e-6 (1 + |x_k|)) of force() and constraint_jacobian_transpose_times() at a configuration
  // and velocity off the initial ones (1e-3 (1 + |q_i|), v + 1e-1 (1 + |v_i|)) and a
  // pseudo-random lambda; error relative to the largest entry of the matrix, or to
  // |f|_inf / (1 + |q|_inf) where the tangent vanishes (a constant force: the differences must
  // then vanish too). Every model with the form provides them (why_not_tangents() empty), so
  // generalized_alpha runs every constrained form.
  // Measured (K_f / C_f / K_g): elastic_pendulum 4.5e-11 / 0 / 0 (no constraints),
  // free_rigid_body 0 / 0 / 2.6e-11, multirotor_payload 0 / 0 / 5.0e-11, planar_pendulum
  // 0 / 0 / 1.9e-11, string_pendulum 5.8e-11 / 0 / 5.9e-11, hanging_tether 4.6e-11 / 2.8e-10 / 0,
  // hanging_tether.lumped 4.0e-11 / 2.4e-10 / 0 (no constraints) (zero: constant forces, the
  // differences vanish exactly). Bound 1e-6: a wrong or missing term gives O(1).
  on_every_fixture(conformance::check_constrained_tangents, true);
}

TEST_CASE("every model's physical state splits into configuration and rates, and the split is kinematic",
          "[models-generic][trajectory]") {
  // Model::physical_parts (the trajectory norms of the work-precision study measure the two
  // parts separately): one entry per number of every formulation's physical state, with at
  // least one configuration and one rate entry. Kinematics: on an embedded ODE whose state is
  // the physical state, setting every rate entry to zero must stop every configuration entry
  // (x' = v, R' = R hat(Omega), q' = omega x q, s' = sdot), to round-off (|x'| <= 1e-12 of the
  // state's scale); with every rate non-zero the configuration moves. A rate labelled as
  // configuration (moved by gravity at rest) or a configuration labelled as a rate fails it.
  on_every_fixture(conformance::check_physical_parts, false);
}

TEST_CASE("every bundled case's model declares one physical part per number of each form's physical state",
          "[models-generic][trajectory]") {
  // The fixtures' check above runs each model at its fixture's parameters; a case's own options
  // can change the physical state (the driven anchor adds W~ to the tether's), and the report's
  // reference trajectories are split by physical_parts(): a size that differs stops the report.
  // Every bundled case, every formulation kind its model offers, at its default discretisation.
  int checked = 0;
  for (const Case& c : testing::bundled_cases()) {
    const std::vector<PhysicalPart> parts = c.model->physical_parts();
    if (parts.empty()) continue;  // the model does not split its state
    for (const FormulationKind kind : kAllFormulationKinds) {
      std::string why_not;
      auto form = c.model->make_formulation(kind, why_not);
      if (!form) continue;
      INFO(c.name << ", " << to_string(kind));
      CHECK(size_t(form->physical_state(form->initial_state()).size()) == parts.size());
      ++checked;
    }
  }
  CHECK(checked > 20);
}

TEST_CASE("every Lie group ODE form's field, acting on its state, is its embedded ODE's right-hand side",
          "[models-generic]") {
  // The Lie group form reads the rates of R, q and the positions from the state and acts with
  // them (R' = R hat(Omega), q' = omega x q, x' = v); the embedded ODE computes the same rows
  // itself. Equal to round-off at t0 and at a perturbed state (on the manifold: the perturbation
  // moves R and q by the group) for every discretisation that offers both, so a factor declared
  // at the wrong offset, or a rate that is not the one the ODE uses, fails here. The forms that
  // decline say why.
  on_every_fixture(conformance::check_lie_group_field, false);
}
