// Properties every registered integrator must have, checked automatically for each entry of
// the registry (after Drake's generic_integrator_test): measured convergence order equal to
// the declared one (adaptive ones: error following the tolerance), landing exactly on the end time, and a failed step that leaves time and
// state unchanged; and its declared MethodTraits against what it does, where that is cheap to
// measure and robust: implicit (Newton iterations or none), adaptive (the step follows the
// tolerance, or is h), symmetric (a step back undoes a step, HLW II.3 Def. 3.1), conserving
// the momentum map (pi3 of the spinning Model A to round-off), symplectic (energy error bounded
// over 64 T) or none of symplectic, symmetric and dissipative (it drifts). A new integrator is
// covered by adding it to the registry.
//
// The checks are conformance/integrator_checks.cpp (the same code `tetherbench check-plugin` runs
// on a plugin's integrators), on the suite's test models (suite/conformance_bench.cpp); each test
// here replays their assertions (tests/conformance_replay.hpp). Orders are measured against the
// reference solver's tight solution of the model's ODE form (the same semi-discrete system the
// integrator's formulation discretises), and judged both as a slope within 0.25 of the declared
// order and by the rule of orders.csv.

#include <catch2/catch.hpp>
#include <cstdio>

#include "conformance/integrator_checks.hpp"
#include "suite/conformance_bench.hpp"
#include "tests/conformance_replay.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

namespace {

const conformance::IntegratorBench& bench() {
  static const conformance::IntegratorBench b = suite_integrator_bench(catalogue());
  return b;
}

}  // namespace

TEST_CASE("every integrator converges at its declared order", "[generic][order]") {
  for (const auto& info : catalogue().integrators) {
    DYNAMIC_SECTION(info.name) {
      const auto check = conformance::check_order(info, bench());
      std::printf("measured order %-18s %s\n", info.name.c_str(), check.measurements().c_str());
      replay(check);
    }
  }
}

TEST_CASE("every integrator lands exactly on the end time", "[generic]") {
  for (const auto& info : catalogue().integrators) {
    DYNAMIC_SECTION(info.name) { replay(conformance::check_end_time(info, bench())); }
  }
}

TEST_CASE("a failed step leaves time and state unchanged", "[generic][failure]") {
  for (const auto& info : catalogue().integrators) {
    DYNAMIC_SECTION(info.name) { replay(conformance::check_failed_step(info, bench())); }
  }
}

TEST_CASE("integrate() reports the failure time and step and keeps the samples taken", "[generic][failure]") {
  for (const auto& info : catalogue().integrators) {
    DYNAMIC_SECTION(info.name) { replay(conformance::check_failure_report(info, bench())); }
  }
}

// ---- Declared traits against behaviour ----

TEST_CASE("an implicit method iterates (Newton or fixed point), an explicit one does not", "[generic][traits]") {
  for (const auto& info : catalogue().integrators) {
    DYNAMIC_SECTION(info.name) { replay(conformance::check_implicit_trait(info, bench())); }
  }
}

TEST_CASE("an adaptive method's step follows its tolerance, a fixed-step method's is h", "[generic][traits]") {
  for (const auto& info : catalogue().integrators) {
    DYNAMIC_SECTION(info.name) { replay(conformance::check_adaptive_trait(info, bench())); }
  }
}

TEST_CASE("a symmetric method's step back undoes its step to round-off - another's does not", "[generic][traits]") {
  // Adaptive methods are not compared: their step back is not the step they took.
  for (const auto& info : catalogue().integrators) {
    if (info.adaptive) continue;
    DYNAMIC_SECTION(info.name) {
      const auto check = conformance::check_step_back(info, bench());
      std::printf("step back %-22s %s\n", info.name.c_str(), check.measurements().c_str());
      replay(check);
    }
  }
}

TEST_CASE("a method declared symmetric whose step back misses by a share of its step fails, however its miss falls",
          "[generic][traits]") {
  // The time-stepping schemes for unilateral links (the registry's fixed-step entries that take
  // impacts) have one-sided velocity laws, not time-reversible: a step back from the bench's taut
  // swing takes no impulse where the step took one. Declared symmetric here, each must fail; and at
  // least one by the share rule (conformance/integrator_checks.cpp kStepBackToleranceShare), whose
  // miss falls like h, as a solver's tolerance can, so that the fall alone passed it.
  int judged = 0, by_share = 0;
  for (IntegratorInfo info : catalogue().integrators) {
    if (info.adaptive || info.impacts_by.empty() || info.traits.symmetric) continue;
    info.traits.symmetric = true;
    const auto check = conformance::check_step_back(info, bench());
    INFO(info.name << ": " << check.measurements());
    CHECK(check.result() == conformance::Check::Result::Fail);
    for (const auto& a : check.assertions())
      if (!a.passed && a.what.find("no solver's tolerance is that large") != std::string::npos) ++by_share;
    ++judged;
  }
  CHECK(judged >= 2);
  CHECK(by_share >= 1);
}

TEST_CASE("a method that declares it conserves the momentum map conserves it to round-off", "[generic][traits]") {
  // The spinning Model A (N = 8) conserves pi3, the momentum map of rotations about e3.
  for (const auto& info : catalogue().integrators) {
    if (!info.traits.conserves_momentum_map) continue;
    DYNAMIC_SECTION(info.name) { replay(conformance::check_momentum_map(info, bench())); }
  }
}

TEST_CASE("a factory builds only on the form type it takes - another kind is refused", "[generic][traits]") {
  for (const auto& info : catalogue().integrators) {
    DYNAMIC_SECTION(info.name) { replay(conformance::check_form_type(info, bench())); }
  }
}

TEST_CASE("a symplectic method's energy error stays bounded - a dissipative one's falls - another's drifts", "[generic][traits]") {
  // On the suite's bench (suite/conformance_bench.cpp): the planar pendulum released at 60
  // degrees (period 2.15 s) or, for a form it does not offer, the tumbling free rigid body
  // (|Omega| ~ 4.6 rad/s, h |Omega| ~ 0.09), at h = 0.02 s over T = 4 s and 64 T (at 16 T the
  // adaptive RKMK's drift on the tumbling body, x1.4, was still below its oscillation; the
  // long-time study over 1000 s fits it a linear law). The Moser-Veselov step of the free rigid
  // body conserves its energy exactly (round-off). Generalized-alpha damps the modes it
  // resolves poorly (h w >~ 1, its own tests: test_generalized_alpha.cpp), which a one-mode test
  // at a stable step barely reaches (x1.09 over 64 T here); CVODE and IDA at rtol 1e-4 *gain*
  // energy on the pendulum (+0.098 J and +0.021 J over 64 s), so "one-signed loss" is not what
  // their trait can promise on every problem.
  for (const auto& info : catalogue().integrators) {
    DYNAMIC_SECTION(info.name) {
      const auto check = conformance::check_energy_behaviour(info, bench());
      std::printf("energy %-22s %s\n", info.name.c_str(), check.measurements().c_str());
      replay(check);
    }
  }
}

TEST_CASE("a method that declares it stays on the manifold keeps R^T R = I and |q_i| = 1 to round-off - rk4 drifts off",
          "[generic][traits]") {
  // Model C with a 4-link cable, its multirotor spinning at |Omega| ~ 8.8 rad/s and the cable
  // swinging out of plane (every R and q_i moves), 2000 steps of h = 1e-3 s: a method that moves
  // R and q_i only by the group (Cayley or exp updates) ends with ||I - R^T R||_F and
  // max | |q_i| - 1 | at a few hundred eps at most, whatever its truncation error; rk4 on the
  // embedded ODE, whose R and q_i are 9 + 3n free numbers, drifts off by its truncation error,
  // far above that (measured below), so the bound can tell the two apart. Where Model C does not
  // offer a method's form, the tumbling free rigid body (R only) stands in.
  const auto baseline = conformance::check_manifold_baseline(bench());
  std::printf("on-manifold: %s (the drift to tell apart) %s\n", bench().drift_integrator.c_str(),
              baseline.measurements().c_str());
  replay(baseline);
  int declared = 0;
  for (const auto& info : catalogue().integrators) {
    if (!info.traits.on_manifold) continue;
    ++declared;
    DYNAMIC_SECTION(info.name) {
      const auto check = conformance::check_on_manifold(info, bench());
      std::printf("on-manifold: %-22s %s\n", info.name.c_str(), check.measurements().c_str());
      replay(check);
    }
  }
  CHECK(declared >= 6);  // lgvi, lgvi4, rkmk4, rkmk45, cf4, lie_generalized_alpha
}
