// The record of the impacts a time-stepping scheme applies inside its steps (issue 48;
// TimeStepper::applied_impacts) and what the snap study makes of it (studies/snap/applied_impacts.hpp,
// observation.hpp summarise_impacts), on inputs whose answers are known by construction. The schemes'
// records against the closed forms: tests/test_unilateral_links.cpp ("applied impacts").

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/fixed_step.hpp"
#include "studies/snap/applied_impacts.hpp"
#include "studies/snap/observation.hpp"

using namespace tb;

namespace {

// A fixed-step scheme that notes one impact in every step and two in every third, and fails the steps
// listed in `failing` after noting them: a failed step's impacts must not be recorded.
class NotingStepper final : public FixedStepStepper {
 public:
  NotingStepper(double h, std::vector<int> failing) : FixedStepStepper(0.0, h, Eigen::VectorXd::Zero(1)), failing_(std::move(failing)) {}

 private:
  bool advance(double dt, Eigen::VectorXd& next, StepFailure& failure) override {
    ++calls_;
    note_impact(t_ + dt, AppliedImpact::Kind::AtStepEnd, 1);
    if (calls_ % 3 == 0) note_impact(t_ + 0.5 * dt, AppliedImpact::Kind::Located, 2);
    for (int f : failing_)
      if (f == calls_) {
        failure = {StepFailure::Kind::SolverFailed, "asked to fail"};
        return false;
      }
    next = y_;
    return true;
  }
  std::vector<int> failing_;
  int calls_ = 0;
};

}  // namespace

TEST_CASE("applied impacts: a fixed-step scheme's impacts are recorded for its accepted steps only, numbered by step",
          "[impacts]") {
  NotingStepper stepper(0.1, {2});
  StepFailure failure;
  REQUIRE(stepper.step(1.0, failure));       // call 1: one impact, step 1
  REQUIRE_FALSE(stepper.step(1.0, failure));  // call 2 fails: its impact is dropped
  REQUIRE(stepper.step(1.0, failure));       // call 3: two impacts, step 2
  const auto& record = stepper.applied_impacts();
  REQUIRE(record.size() == 3);
  CHECK(record[0].step == 1);
  CHECK(record[0].t == Approx(0.1));
  CHECK(record[1].step == 2);
  CHECK(record[1].t == Approx(0.2));
  CHECK(record[2].step == 2);
  CHECK(record[2].kind == AppliedImpact::Kind::Located);
  CHECK(record[2].links == 2);
  CHECK(stepper.impacts_not_recorded() == 0);
}

TEST_CASE("applied impacts: the snap study's counts of a known record", "[impacts]") {
  IntegrationOutcome run;
  using K = AppliedImpact::Kind;
  run.impacts = {{0.10, K::AtStepEnd, 1, 1}, {0.25, K::Located, 3, 3}, {0.27, K::Located, 1, 3}, {0.27, K::Absorbed, 1, 3},
                 {0.29, K::Located, 1, 3},   {0.50, K::AtStepEnd, 2, 5}, {0.61, K::Located, 1, 7}, {0.62, K::Located, 1, 7}};
  run.impacts_not_recorded = 4;
  snap::SnapRun out;
  snap::summarise_impacts(run, out);
  CHECK(out.impacts_applied == 7 + 4);  // the absorbed rebound is not an impact problem
  CHECK(out.absorbed_rebounds == 1);
  CHECK(out.steps_with_several_impacts == 2);  // steps 3 and 7
  CHECK(out.most_impacts_in_a_step == 3);      // step 3, the absorbed rebound between its collisions not counted
  CHECK(out.most_links_in_an_impact == 3);
  CHECK(out.links_closed == 1 + 3 + 1 + 1 + 2 + 1 + 1);  // the recorded ones' links (the unrecorded four unknown)
  CHECK(snap::located_impact_times(out) == std::vector<double>{0.25, 0.27, 0.29, 0.61, 0.62});
}

TEST_CASE("applied impacts: located collision times are matched to the expected snaps within half the gap to their neighbours",
          "[impacts]") {
  // A snap at 1 s, a rebound's snap and opening at 2 s, an opening at 3 s, a snap at 3.5 s; horizon 4 s.
  const std::vector<std::pair<double, bool>> expected = {{1.0, true}, {2.0, true}, {2.0, false}, {3.0, false}, {3.5, true}};
  // Windows: the snap at 1 s, 0.5 s (half the gap to 2 s); at 2 s, 0.5 s; at 3.5 s, 0.25 s (to 3 s and to 4 s).
  const std::vector<double> offsets = snap::located_offsets(expected, 4.0, {1.4, 1.6, 2.01, 3.9});
  REQUIRE(offsets.size() == 3);
  CHECK(offsets[0] == Approx(0.4));     // 1.4 inside the 1 s snap's window, 1.6 beyond it
  CHECK(offsets[1] == Approx(0.01));    // 2.01: the rebound's snap (its opening at the same time is no neighbour)
  CHECK(std::isnan(offsets[2]));        // 3.9 is beyond half the gap to the opening at 3 s (0.25 s) from 3.5
  CHECK(snap::located_offsets(expected, 4.0, {}).size() == 3);
}
