// Issue 48, referee 6 Dec point 10: the Noether momentum across a collision. Without gravity the
// pendulum on a unilateral string has the plane's rotations about the pivot as a symmetry, and its
// angular momentum pi = m (z vx - x vz) is kept by the flights and by Newton's impulse along the string
// (cases/T_rebound_in_free_space.toml). What each scheme does with it follows from its step's algebra
// (studies/snap/noether_momentum.cpp): Moreau-Jean moves the mass from the midpoint where its impulse
// is posed, RATTLE's half-kicks lie along the string at their own ends, and the variational collision
// integrator moves on from its collision point: those keep it to round-off. Nonsmooth generalized-alpha's
// position correction moves the mass along the string without touching its velocity: an O(h) error.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "app/input/applicability.hpp"
#include "app/running/round_off.hpp"
#include "studies/snap/noether_momentum.hpp"
#include "tests/snap_run.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

namespace {

const Case& rebound_case() {
  static const Case c = load_case(std::string(TETHERBENCH_CASES_DIR) + "/T_rebound_in_free_space.toml");
  return c;
}

}  // namespace

TEST_CASE("Noether momentum: kept means within 10 Brouwer floors of the run's steps and samples", "[unilateral][snap][momentum]") {
  snap::SnapRun r;
  r.outcome = RunOutcome{};
  r.counters.steps = 10000;
  r.samples_read = 2500;
  r.noether_momentum0 = 2.0;  // the floor's scale: |pi0| where above 1
  const double floor = round_off_floor(2.0, 12500);  // the steps and the samples
  CHECK(snap::noether_momentum_floor(r) != snap::noether_momentum_floor(r));  // none measured: NaN
  r.noether_momentum_err_max = 9.0 * floor;
  CHECK(snap::noether_momentum_floor(r) == Approx(floor));
  CHECK(snap::keeps_noether_momentum(r));
  r.noether_momentum_err_max = 11.0 * floor;
  CHECK_FALSE(snap::keeps_noether_momentum(r));
  r.noether_momentum_err_max = 0.0;
  r.outcome = RunOutcome::failed_at("diverged", 1.0, 10, true);
  CHECK_FALSE(snap::keeps_noether_momentum(r));  // a failed run keeps nothing
}

TEST_CASE("Noether momentum on the rebound in free space: every method that runs it, by its step's algebra", "[unilateral][snap][momentum]") {
  const Case& c = rebound_case();
  REQUIRE(c.model->has_momentum_map());
  // The same string under gravity has none: its momentum is not measured.
  const Case drop = load_case(std::string(TETHERBENCH_CASES_DIR) + "/T_pendulum_drop.toml");
  CHECK_FALSE(drop.model->has_momentum_map());
  int ran = 0;
  for (const auto& info : catalogue().integrators) {
    if (why_not_applicable(c, info, c.model->default_discretisation())) continue;
    INFO(info.name);
    ++ran;
    // Two settings a factor 2 apart (adaptive: a factor 100 in rtol).
    const snap::SnapRun coarse = observe_run(c, info, 2.5e-4, 1e-6, 1e-2);
    const snap::SnapRun fine = observe_run(c, info, 1.25e-4, 1e-8, 1e-2);
    REQUIRE(coarse.outcome.ok());
    REQUIRE(fine.outcome.ok());
    REQUIRE(std::isfinite(coarse.noether_momentum_err_max));
    CHECK(std::abs(coarse.noether_momentum0) == Approx(1.0));  // |r0 x v0| = 0.5 m x 2 m/s, m = 1 kg
    const bool kept = snap::keeps_noether_momentum(coarse) && snap::keeps_noether_momentum(fine);
    if (info.name == "moreau_jean" || info.name == "nonsmooth_rattle" || info.name == "variational_collision") {
      CHECK(kept);
    } else if (info.name == "nonsmooth_generalized_alpha") {
      // Its position correction's -m delta (r^ x v), delta up to v_r h at each hit: first order.
      CHECK_FALSE(snap::keeps_noether_momentum(coarse));
      const double slope = std::log2(coarse.noether_momentum_err_max / fine.noether_momentum_err_max);
      CHECK(slope > 0.8);
      CHECK(slope < 1.3);
      CHECK(coarse.noether_momentum_err_max > 1e-4);  // 1 m/s of tangential speed times a depth ~ 1.7 m/s x h
    } else {
      // Any other method that runs the case (the event-driven ones, a plugin's): kept, or converging.
      INFO("max |pi - pi0| " << coarse.noether_momentum_err_max << " then " << fine.noether_momentum_err_max << ", floors "
                               << snap::noether_momentum_floor(coarse) << ", " << snap::noether_momentum_floor(fine));
      if (!kept) CHECK(fine.noether_momentum_err_max < 0.5 * coarse.noether_momentum_err_max);
    }
  }
  CHECK(ran >= 7);  // the four time-stepping schemes and the three event-driven methods, at least
}
