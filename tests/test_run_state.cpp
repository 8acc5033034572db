// A run's state in one word (RunOutcome::word, issue 46): what a reader filters on, beside the
// status cell that says why; summary.csv carries it as `state`, just before `status`.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "app/common/csv_table.hpp"
#include "app/judging/metric_cells.hpp"
#include "app/writing/summary.hpp"
#include "tests/temp_file.hpp"

using namespace tb;

namespace run_state_tests {

RunOutcome ok_with(std::string RunOutcome::*part, const std::string& text) {
  RunOutcome o;
  o.*part = text;
  return o;
}

}  // namespace run_state_tests

TEST_CASE("each way a run ends is one word, and a drift noted on an ok run is its own word", "[summary][state]") {
  using run_state_tests::ok_with;
  CHECK(RunOutcome{}.word() == "ok");
  CHECK(ok_with(&RunOutcome::note, "drift from t = 3.05 s (step 3050): ...").word() == "drift");
  CHECK(ok_with(&RunOutcome::momentum_drift, "drifts in P: max |dP| 0.148 N s").word() == "drift");
  // An episode is the motion's (every method's error rose with it), not the method's: still ok.
  CHECK(ok_with(&RunOutcome::episode, "a x119 rise of max |dE| that stopped").word() == "ok");
  CHECK(RunOutcome::not_applicable_because("the model offers no constrained form").word() == "n/a");
  CHECK(RunOutcome::failed_at("Newton did not converge", 0.5, 501).word() == "failed");
  CHECK(RunOutcome::failed_at("non-finite state", 0.5, 501, true).word() == "diverged");
  CHECK(RunOutcome::interrupted_at(0.1, 100).word() == "interrupted");
  RunOutcome unstable;
  unstable.kind = RunOutcome::Kind::Unstable;
  CHECK(unstable.word() == "unstable");
  // One step's gain past the bound that stayed (core/stability_criterion.hpp, EnergyJump): its own
  // word and status, still no result.
  RunOutcome jump = unstable;
  jump.energy_jump = true;
  jump.t = 0.248;
  jump.step = 993;
  jump.h = 2.5e-4;
  jump.reason = "energy jump: ...";
  CHECK(jump.word() == "energy jump");
  CHECK(jump.describe().starts_with("energy jump at t = 0.248 s (step 993): ..., at h = 0.00025"));
  CHECK(jump.no_result());
  CHECK(jump.completed());
  // Off the manifold without an amplification: a drift.
  CHECK(ok_with(&RunOutcome::manifold_drift, "drifts off the constraint manifold from t = 0.15 s ...").word() == "drift");
  // The word is the status cell's first word wherever that cell starts with one of them.
  // A fixed-step run's non-finite state included: "diverged at h = ...", the legend's word too.
  for (const RunOutcome& o : {RunOutcome{}, RunOutcome::failed_at("x", 1.0, 2), RunOutcome::interrupted_at(0.1, 100),
                              RunOutcome::failed_at("state became non-finite", 1.0, 2, true)})
    CHECK(o.describe().rfind(std::string(o.word()), 0) == 0);
}

TEST_CASE("a drift says what drifts: the energy balance and the linear momentum are two mechanisms", "[summary][state]") {
  using run_state_tests::ok_with;
  CHECK(RunOutcome{}.drifts().empty());
  CHECK(ok_with(&RunOutcome::note, "drift from t = 3.05 s (step 3050): ...").drifts() == "energy");
  CHECK(ok_with(&RunOutcome::momentum_drift, "drifts in P: max |dP| 0.148 N s").drifts() == "linear_momentum");
  RunOutcome both = ok_with(&RunOutcome::note, "drift from t = 3.05 s");
  both.momentum_drift = "drifts in P: ...";
  CHECK(both.drifts() == "energy linear_momentum");
  CHECK(ok_with(&RunOutcome::episode, "a x119 rise of max |dE| that stopped").drifts().empty());
  RunOutcome off = ok_with(&RunOutcome::manifold_drift, "drifts off the constraint manifold from t = 0.15 s ...");
  CHECK(off.drifts() == "constraint");
  off.manifold_rotations = true;
  CHECK(off.drifts() == "orthogonality");
  // In summary.csv: the drifts and an episode's start beside the state.
  SummaryRow drifting, episode;
  drifting.case_name = episode.case_name = "c";
  drifting.integrator = "a";
  episode.integrator = "b";
  drifting.outcome = both;
  episode.outcome = ok_with(&RunOutcome::episode, "a x119 rise of max |dE| that stopped");
  episode.outcome.episode_t = 330.5;
  const std::filesystem::path dir = testing::scratch_dir("run_drifts");
  const std::string path = (dir / "summary.csv").string();
  write_summary_csv(path, {drifting, episode});
  const CsvTable t = read_csv_table(path);
  std::filesystem::remove_all(dir);
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0].at("state") == "drift");
  CHECK(t.rows[0].at("drifts") == "energy linear_momentum");
  CHECK(t.rows[0].at("episode_from").empty());
  CHECK(t.rows[1].at("state") == "ok");
  CHECK(t.rows[1].at("drifts").empty());
  CHECK(t.rows[1].at("episode_from") == "330.5");
}

TEST_CASE("summary.csv has the state beside the status cell, one word a row", "[summary][state]") {
  SummaryRow ok, failed;
  ok.case_name = failed.case_name = "c";
  ok.integrator = "a";
  failed.integrator = "b";
  failed.outcome = RunOutcome::failed_at("the step broke", 0.5, 501, true);
  const auto& columns = summary_columns();
  const auto state = std::find(columns.begin(), columns.end(), "state");
  REQUIRE(state != columns.end());
  REQUIRE(state + 1 != columns.end());
  CHECK(*(state + 1) == "status");
  const std::filesystem::path dir = testing::scratch_dir("run_state");
  const std::string path = (dir / "summary.csv").string();
  write_summary_csv(path, {ok, failed});
  const CsvTable t = read_csv_table(path);
  std::filesystem::remove_all(dir);
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0].at("state") == "ok");
  CHECK(t.rows[0].at("status") == "ok");
  CHECK(t.rows[1].at("state") == "diverged");
  CHECK(t.rows[1].at("status").rfind("diverged at h = ", 0) == 0);  // a fixed-step run's non-finite state
}

TEST_CASE("the summary's status cell leads a drift in P with the whole energy error it carries", "[summary][state]") {
  // The referee read of r46: summary.md said "ok, drifts in P" beside 137 J (54 E_s).
  SummaryRow row;
  row.outcome = run_state_tests::ok_with(&RunOutcome::momentum_drift, "drifts in P: max |ΔE| 137 J; ...");
  row.metrics.energy_err_max = 137.227;
  row.metrics.energy_err_com_max = 137.2;
  CHECK(status_cell(row) == "drifts in P (max ΔE 137 J, the centre of mass's 137 J), the motion's own energy ok");
  CHECK(status_cell(row).find('|') == std::string::npos);  // a markdown table's cell (summary.md)
  row.outcome.note = "drift from t = 70.8 s (step 70800): ...";
  row.outcome.t = 70.8;
  CHECK(status_cell(row) == "drifts in P (max ΔE 137 J, the centre of mass's 137 J), drift from t = 70.8 s");
  // A drift says its sign (EnergyDrift::describe): a loss is a dissipation.
  row.outcome.note = "drift from t = 70.8 s (step 70800): |E − E0 − W| passed 0.01 × E_s = 0.0161 J (max 0.758 J, a loss: the method dissipates)";
  CHECK(status_cell(row) == "drifts in P (max ΔE 137 J, the centre of mass's 137 J), dissipates from t = 70.8 s");
  CHECK(status_cell(SummaryRow{}) == "ok");
}
