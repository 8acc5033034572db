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
#include <limits>
#include <string>

#include "app/input/applicability.hpp"
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

TEST_CASE("Noether momentum: rounding means within the biased-rounding bound and not falling with the refinement", "[unilateral][snap][momentum]") {
  snap::SnapRun r;
  r.counters.steps = 10000;
  r.noether_momentum0 = 2.0;  // the bound's scale: |pi0| where above 1
  const double bound = 10.0 * 8.0 * std::numeric_limits<double>::epsilon() * 2.0 * 10000;  // linear in n
  CHECK(std::isnan(snap::noether_rounding_bound(r)));  // none measured
  r.noether_momentum_err_max = 0.9 * bound;
  CHECK(snap::noether_rounding_bound(r) == Approx(bound));
  CHECK(snap::within_noether_rounding(r));
  r.noether_momentum_err_max = 1.1 * bound;
  CHECK_FALSE(snap::within_noether_rounding(r));
  r.noether_momentum_err_max = 0.0;
  r.outcome = RunOutcome::failed_at("diverged", 1.0, 10, true);
  CHECK_FALSE(snap::within_noether_rounding(r));  // a failed run keeps nothing
  // A method's runs, coarsest first: rounding grows or stays with the refinement; a truncation error falls,
  // even where each of its runs is below the bound (rk4 on the penalty string: 2e-12 on its order-4 line).
  snap::SnapPoint coarse, fine;
  for (snap::SnapPoint* p : {&coarse, &fine}) {
    p->measured.counters.steps = 10000;
    p->measured.noether_momentum0 = 1.0;
  }
  coarse.measured.noether_momentum_err_max = 4e-14, fine.measured.noether_momentum_err_max = 9e-14;
  CHECK(snap::noether_momentum_at_rounding({&coarse, &fine}));
  coarse.measured.noether_momentum_err_max = 3.4e-11, fine.measured.noether_momentum_err_max = 2.1e-12;
  CHECK(snap::within_noether_rounding(coarse.measured));
  CHECK(snap::within_noether_rounding(fine.measured));
  CHECK_FALSE(snap::noether_momentum_at_rounding({&coarse, &fine}));
  CHECK_FALSE(snap::noether_momentum_at_rounding({&coarse}));  // one run shows no trend
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
    snap::SnapPoint coarse_point, fine_point;
    coarse_point.measured = coarse, fine_point.measured = fine;
    const bool kept = snap::noether_momentum_at_rounding({&coarse_point, &fine_point});
    if (info.name == "moreau_jean" || info.name == "nonsmooth_rattle" || info.name == "variational_collision") {
      CHECK(kept);
    } else if (info.name == "nonsmooth_generalized_alpha") {
      // Its position correction's -m delta (r^ x v), delta up to v_r h at each hit: first order.
      CHECK_FALSE(snap::within_noether_rounding(coarse));
      const double slope = std::log2(coarse.noether_momentum_err_max / fine.noether_momentum_err_max);
      CHECK(slope > 0.8);
      CHECK(slope < 1.3);
      CHECK(coarse.noether_momentum_err_max > 1e-4);  // 1 m/s of tangential speed times a depth ~ 1.7 m/s x h
    } else {
      // Any other method that runs the case (the event-driven ones, a plugin's): kept, or converging.
      INFO("max |pi - pi0| " << coarse.noether_momentum_err_max << " then " << fine.noether_momentum_err_max << ", bounds "
                               << snap::noether_rounding_bound(coarse) << ", " << snap::noether_rounding_bound(fine));
      if (!kept) CHECK(fine.noether_momentum_err_max < 0.5 * coarse.noether_momentum_err_max);
    }
  }
  CHECK(ran >= 7);  // the four time-stepping schemes and the three event-driven methods, at least
}
