// How a run's runtime is measured (app/running/runner.hpp): a full run shorter than the timing floor
// (kMinTimedSeconds) is repeated unobserved until its passes reach it, the runtime being the
// fastest pass; a run whose runtime nothing reads (RunOptions::untimed(): the long-time study,
// the error spread, the gates) takes the observed pass alone. Both measure the same run: the
// observed pass is the first in either case, so every metric is the same number.

#include <catch2/catch.hpp>

#include "app/running/runner.hpp"
#include "tests/test_support.hpp"

using namespace tb;

TEST_CASE("a run under the timing floor is timed over more passes, and a run whose runtime nothing reads takes one",
          "[runner][timing]") {
  // 50 steps of the planar pendulum: well under 0.05 s for every integrator that runs it.
  const Case c = testing::load_case(TETHERBENCH_CASES_DIR "/T_planar_pendulum_60deg.toml");
  RunOptions timed;
  timed.t_end = 50 * c.h;
  RunOptions untimed = RunOptions::untimed();
  untimed.t_end = timed.t_end;
  REQUIRE(timed.min_timed_s == kMinTimedSeconds);
  REQUIRE(untimed.min_timed_s == 0.0);
  int runs = 0, repeated = 0;
  for (const auto& key : runs_of(c, testing::catalogue().integrators)) {
    if (why_not_applicable(c, *key.integrator, key.discretisation)) continue;
    INFO(key.label());
    const SummaryRow a = run_case(key, timed), b = run_case(key, untimed);
    REQUIRE(a.outcome.ok());
    REQUIRE(b.outcome.ok());
    CHECK(b.timing_passes == 1);
    // One pass only when that pass alone reached the floor; otherwise passes while their total
    // was under it, so all but the last, each at least the fastest, sum to less than the floor.
    if (a.timing_passes == 1)
      CHECK(a.runtime_s >= kMinTimedSeconds);
    else
      CHECK((a.timing_passes - 1) * a.runtime_s < kMinTimedSeconds);
    repeated += a.timing_passes > 1;
    CHECK(a.metrics.energy_err_max == b.metrics.energy_err_max);
    CHECK(a.metrics.constraint_err_max == b.metrics.constraint_err_max);
    ++runs;
  }
  CHECK(runs >= 10);
  CHECK(repeated * 2 >= runs);  // runs of microseconds: the floor repeats (nearly) all of them
}
