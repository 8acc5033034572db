// Job results as bytes (app/running/job_result.hpp) and the resume store of the job list
// (app/jobs/jobs.hpp): exact round trips, refused malformed bytes, and which stored results a
// resumed job list reuses (matching fingerprint, whole file) or runs again.

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include "app/common/build_identity.hpp"
#include "app/jobs/job_provenance.hpp"
#include "app/running/job_result.hpp"
#include "app/jobs/jobs.hpp"
#include "app/writing/manifest.hpp"
#include "tests/test_support.hpp"
#include "studies/long_time/long_time.hpp"
#include "studies/stability_map/stability_map.hpp"
#include "studies/work_precision/work_precision.hpp"

namespace fs = std::filesystem;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

tb::GrowthFit awkward_growth();

tb::SummaryRow awkward_row() {
  tb::SummaryRow row;
  row.case_name = "A | case";
  row.integrator = "rk4@lumped";
  row.discretisation = "line1\nline2: with colon 12:";
  row.h = 1.0 / 3.0;
  row.rtol = 1e-300;
  row.atol = 5e-324;  // the smallest subnormal
  row.t_end = -0.0;
  row.counters = {123456789012L, -1, 7, 0};
  row.metrics.energy_err_max = std::numeric_limits<double>::infinity();
  row.metrics.energy_err_mean = -std::numeric_limits<double>::infinity();
  row.metrics.energy_drift_rate = std::nextafter(1.0, 2.0);
  row.runtime_s = 0.1 + 0.2;
  row.host = "";
  row.outcome = tb::RunOutcome::failed_at("state became non-finite", 0.125, 42, true);
  row.outcome.h = 1e-3;
  row.metrics.external_work_max = 2.0 / 3.0;
  row.metrics.energy_growth = awkward_growth();
  row.metrics.momentum_growth.law = tb::GrowthLaw::RoundOff;  // the rest as a fit leaves it: NaN exponent, no envelope
  row.metrics.momentum_growth.round_off_floor = 3e-14;
  return row;
}

// Every field of a growth fit set (NaN where a fit can leave one, an infinite bound), and
// an envelope whose points must come back in order.
tb::GrowthFit awkward_growth() {
  tb::GrowthFit g;
  g.law = tb::GrowthLaw::SqrtT;
  g.exponent = 0.4987654321;
  g.std_err = 1.0 / 7.0;
  g.ci95_low = std::numeric_limits<double>::quiet_NaN();
  g.ci95_high = std::numeric_limits<double>::infinity();
  g.r2 = 0.999;
  g.coefficient = 3.3e-17;
  g.points = 17;
  g.t_from = 0.1;
  g.t_to = 1e6;
  g.err_max = 5e-324;
  g.round_off_floor = 1.25e-13;
  g.offset = 3.1e-7, g.drift = 1.14e-8, g.offset_drift_misfit = 0.05, g.power_misfit = 0.29;  // the a + b t law
  g.drift_ci95_half = 2.2e-10, g.kinks = true;
  for (int k = 0; k < 9; ++k) g.envelope.push_back({std::ldexp(1.0, k) / 3.0, 1e-15 * std::sqrt(double(k + 1))});
  return g;
}

void check_same_growth(const tb::GrowthFit& a, const tb::GrowthFit& b) {
  CHECK(a.law == b.law);
  CHECK(same_bits(a.exponent, b.exponent));
  CHECK(same_bits(a.std_err, b.std_err));
  CHECK(same_bits(a.ci95_low, b.ci95_low));
  CHECK(same_bits(a.ci95_high, b.ci95_high));
  CHECK(same_bits(a.r2, b.r2));
  CHECK(same_bits(a.coefficient, b.coefficient));
  CHECK(a.points == b.points);
  CHECK(same_bits(a.t_from, b.t_from));
  CHECK(same_bits(a.t_to, b.t_to));
  CHECK(same_bits(a.err_max, b.err_max));
  CHECK(same_bits(a.round_off_floor, b.round_off_floor));
  CHECK(same_bits(a.offset, b.offset));
  CHECK(same_bits(a.drift, b.drift));
  CHECK(same_bits(a.offset_drift_misfit, b.offset_drift_misfit));
  CHECK(same_bits(a.power_misfit, b.power_misfit));
  CHECK(same_bits(a.drift_ci95_half, b.drift_ci95_half));
  CHECK(a.kinks == b.kinks);
  REQUIRE(a.envelope.size() == b.envelope.size());
  for (size_t k = 0; k < a.envelope.size(); ++k) {
    CHECK(same_bits(a.envelope[k].t, b.envelope[k].t));
    CHECK(same_bits(a.envelope[k].value, b.envelope[k].value));
  }
}

// Writes, reads back (every byte consumed) and writes again: the same bytes.
template <class T>
T round_trip(const T& value) {
  tb::ResultWriter w;
  write(w, value);
  T back;
  tb::ResultReader r(w.bytes());
  read(r, back);
  r.expect_end();
  tb::ResultWriter again;
  write(again, back);
  CHECK(again.bytes() == w.bytes());
  return back;
}

}  // namespace

TEST_CASE("an ok run's every note survives bytes: the drifts, an error accrued once, an episode", "[jobs][resume][state]") {
  // A stored or remote job's row is the row the table prints: a note the bytes dropped would print
  // "ok" where the run said more (an error that stopped growing was lost so, before it was described).
  tb::SummaryRow row;
  row.outcome.note = "drift from t = 3 s (step 3000): ...";
  row.outcome.accrued = "an energy-balance error that stopped growing: ...";
  row.outcome.momentum_drift = "drifts in P: ...";
  row.outcome.episode = "a rise that slowed: ...";
  row.outcome.episode_t = 349.9;
  const tb::SummaryRow back = round_trip(row);
  CHECK(back.outcome.describe() == row.outcome.describe());
  CHECK(back.outcome.accrued == row.outcome.accrued);
  CHECK(back.outcome.drifts() == "energy linear_momentum");
  CHECK(back.outcome.episode_t == 349.9);
}

TEST_CASE("a summary row survives bytes exactly: every double bit for bit, NaN, infinities, any string", "[jobs][resume]") {
  const tb::SummaryRow row = awkward_row();
  tb::ResultWriter w;
  write(w, row);
  tb::SummaryRow back;
  tb::ResultReader r(w.bytes());
  read(r, back);
  r.expect_end();
  CHECK(back.case_name == row.case_name);
  CHECK(back.discretisation == row.discretisation);
  CHECK(same_bits(back.h, row.h));
  CHECK(same_bits(back.rtol, row.rtol));
  CHECK(same_bits(back.atol, row.atol));
  CHECK(same_bits(back.t_end, row.t_end));  // -0.0 stays negative zero
  CHECK(back.counters.steps == row.counters.steps);
  CHECK(back.counters.rhs_evals == -1);
  CHECK(std::isinf(back.metrics.energy_err_max));
  CHECK(back.metrics.energy_err_mean < 0.0);
  CHECK(std::isnan(back.metrics.linear_momentum_err_max));  // NaN by default: kept
  CHECK(same_bits(back.metrics.energy_drift_rate, row.metrics.energy_drift_rate));
  CHECK(same_bits(back.runtime_s, row.runtime_s));
  CHECK(back.outcome.describe() == row.outcome.describe());
  CHECK(back.outcome.diverged);
  // The growth laws the full runs carry into the summary's columns and the long_time study.
  CHECK(same_bits(back.metrics.external_work_max, row.metrics.external_work_max));
  check_same_growth(back.metrics.energy_growth, row.metrics.energy_growth);
  check_same_growth(back.metrics.momentum_growth, row.metrics.momentum_growth);
  CHECK(std::isnan(back.metrics.momentum_growth.exponent));
  CHECK(back.metrics.momentum_growth.envelope.empty());
  // Written again, the same bytes.
  tb::ResultWriter again;
  write(again, back);
  CHECK(again.bytes() == w.bytes());
}

TEST_CASE("an unstable run survives bytes: its kind and rtol and the metrics the criterion read", "[jobs][resume]") {
  tb::SummaryRow row = awkward_row();
  row.outcome = tb::RunOutcome();
  row.outcome.kind = tb::RunOutcome::Kind::Unstable;
  row.outcome.reason = "energy gain 1.38 × max KE at t = 4.99 s";
  row.outcome.t = 4.99;
  row.outcome.adaptive = true;
  row.outcome.rtol = 1.0 / 3.0;
  row.metrics.energy_gain_max = 120.0 + 1.0 / 7.0;
  row.metrics.energy_gain_t = 4.99;
  row.metrics.constraint_err_t = 1.0 / 9.0;
  row.metrics.orthogonality_err_t = std::numeric_limits<double>::quiet_NaN();
  const tb::SummaryRow back = round_trip(row);
  CHECK(back.outcome.unstable());
  CHECK(back.outcome.adaptive);
  CHECK(same_bits(back.outcome.rtol, row.outcome.rtol));
  CHECK(back.status() == row.status());
  CHECK(back.status().starts_with("unstable from t = 4.99 s (step 0): energy gain 1.38"));
  CHECK(back.status().ends_with(", at rtol = 0.333"));
  CHECK(same_bits(back.metrics.energy_gain_max, row.metrics.energy_gain_max));
  CHECK(same_bits(back.metrics.energy_gain_t, row.metrics.energy_gain_t));
  CHECK(same_bits(back.metrics.constraint_err_t, row.metrics.constraint_err_t));
  CHECK(std::isnan(back.metrics.orthogonality_err_t));
  // An energy jump and a drift off the manifold come back as they went (a worker's result).
  row.outcome.energy_jump = true;
  CHECK(round_trip(row).status().starts_with("energy jump at t = 4.99 s"));
  tb::SummaryRow off = row;
  off.outcome = tb::RunOutcome();
  off.outcome.manifold_drift = "drifts off SO(3) from t = 0.5 s (step 500): ...";
  off.outcome.manifold_t = 0.5;
  off.outcome.manifold_rotations = true;
  const tb::SummaryRow off_back = round_trip(off);
  CHECK(off_back.outcome.manifold_drift == off.outcome.manifold_drift);
  CHECK(off_back.outcome.manifold_t == 0.5);
  CHECK(off_back.outcome.drifts() == "orthogonality");
  // A kind beyond the last is refused.
  tb::ResultWriter w;
  write(w, row);
  std::string bytes = w.bytes();
  tb::ResultWriter kind;
  kind << long(tb::RunOutcome::Kind::Unstable);
  const std::string unstable_kind = kind.bytes();
  tb::ResultWriter beyond;
  beyond << long(tb::RunOutcome::Kind::Unstable) + 1;
  // The kind is written just before the reason: "<kind>\n<length>:<reason>".
  const auto at = bytes.find("\n" + unstable_kind + std::to_string(row.outcome.reason.size()) + ":energy gain");
  REQUIRE(at != std::string::npos);
  bytes.replace(at + 1, unstable_kind.size(), beyond.bytes());
  tb::SummaryRow bad;
  tb::ResultReader rb(bytes);
  CHECK_THROWS_AS(read(rb, bad), std::runtime_error);
}

TEST_CASE("a measurement survives bytes with its final state", "[jobs][resume]") {
  tb::Measurement m;
  m.final_physical = Eigen::VectorXd::LinSpaced(7, -1.0, 1.0 / 7.0);
  m.extra_columns = {"x", "", "a,b"};
  m.host = "node-01";
  m.runtime_s = 2.5e-7;
  tb::ResultWriter w;
  write(w, m);
  tb::Measurement back;
  tb::ResultReader r(w.bytes());
  read(r, back);
  r.expect_end();
  REQUIRE(back.final_physical.size() == 7);
  for (int i = 0; i < 7; ++i) CHECK(same_bits(back.final_physical[i], m.final_physical[i]));
  CHECK(back.extra_columns == m.extra_columns);
  CHECK(back.host == "node-01");
}

TEST_CASE("a work-precision point survives bytes: measurement, final-state error, trajectory errors, note",
          "[jobs][resume]") {
  tb::WorkPrecisionResult p;
  p.measured.final_physical = Eigen::VectorXd::LinSpaced(5, 0.25, 1.0 / 3.0);
  p.measured.counters = {4000, 16000, 321, 2};
  p.measured.metrics.energy_growth = awkward_growth();
  p.measured.host = "node-7";
  p.measured.runtime_s = 0.0123;
  p.error = 1.0 / 3.0 * 1e-9;
  p.trajectory = {2.5e-10, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), -0.0};
  p.trajectory_note = "no trajectory errors: sample at t = 0.1 s off the grid; \"quoted\"\nnext line";
  const tb::WorkPrecisionResult back = round_trip(p);
  CHECK(same_bits(back.error, p.error));
  for (size_t m = 0; m < 4; ++m) CHECK(same_bits(back.trajectory[m], p.trajectory[m]));
  CHECK(back.trajectory_note == p.trajectory_note);
  CHECK(back.measured.counters.newton_iters == 321);
  CHECK(back.measured.counters.error_test_failures == 2);
  CHECK(back.measured.host == "node-7");
  REQUIRE(back.measured.final_physical.size() == 5);
  for (int i = 0; i < 5; ++i) CHECK(same_bits(back.measured.final_physical[i], p.measured.final_physical[i]));
  check_same_growth(back.measured.metrics.energy_growth, p.measured.metrics.energy_growth);
  // A failed point: NaN trajectory errors by default, kept.
  const tb::WorkPrecisionResult failed = round_trip(tb::WorkPrecisionResult{});
  for (double x : failed.trajectory) CHECK(std::isnan(x));
}

TEST_CASE("a stability search survives bytes: bound, h_max, h_fail, every probe in order", "[jobs][resume]") {
  tb::StabilitySearch s;
  s.bound = tb::StabilitySearch::Bound::Bracketed;
  s.h_max = 1e-3 / 32.0;  // the probes below: down from 1e-3, the last stable
  s.h_fail = 1e-3 / 16.0;
  s.cap = 0.2;
  s.floor = 1e-3 / 64.0;
  for (int k = 0; k < 6; ++k) {
    tb::StabilityProbe p;
    p.h = 1e-3 / std::ldexp(1.0, k);
    p.end = k == 5 ? tb::StabilityProbe::End::Stable
                   : k % 2 ? tb::StabilityProbe::End::SolverFailure
                           : tb::StabilityProbe::End::Unstable;
    p.reason = k == 5 ? "" : (k % 2 ? "solver failure: Newton did not converge | at t = 0.5" : "non-finite state");
    p.t_horizon = 0.2 + 1.0 / (3.0 + k);
    p.t_reached = 0.1 * k;
    p.runtime_s = 1e-4 * k;
    p.host = "rank-" + std::to_string(k);
    p.counters = {1000L * k, 4000L * k, 3L * k, k};
    p.energy_gain_rel = k == 0 ? std::numeric_limits<double>::infinity() : 0.01 * k;
    p.energy_loss_rel = std::numeric_limits<double>::quiet_NaN();
    p.constraint_err_max = 1e-12 * k;
    p.orthogonality_err_max = 2e-16 * k;
    s.probes.push_back(p);
  }
  const tb::StabilitySearch back = round_trip(s);
  CHECK(back.bound == tb::StabilitySearch::Bound::Bracketed);
  CHECK(same_bits(back.h_max, s.h_max));
  CHECK(same_bits(back.h_fail, s.h_fail));
  CHECK(same_bits(back.cap, s.cap));
  CHECK(same_bits(back.floor, s.floor));
  REQUIRE(back.probes.size() == s.probes.size());
  for (size_t k = 0; k < s.probes.size(); ++k) {
    const auto &a = back.probes[k], &b = s.probes[k];
    CHECK(same_bits(a.h, b.h));
    CHECK(a.end == b.end);
    CHECK(a.reason == b.reason);
    CHECK(same_bits(a.t_horizon, b.t_horizon));
    CHECK(same_bits(a.t_reached, b.t_reached));
    CHECK(same_bits(a.runtime_s, b.runtime_s));
    CHECK(a.host == b.host);
    CHECK(a.counters.steps == b.counters.steps);
    CHECK(a.counters.rhs_evals == b.counters.rhs_evals);
    CHECK(a.counters.newton_iters == b.counters.newton_iters);
    CHECK(a.counters.error_test_failures == b.counters.error_test_failures);
    CHECK(same_bits(a.energy_gain_rel, b.energy_gain_rel));
    CHECK(same_bits(a.energy_loss_rel, b.energy_loss_rel));
    CHECK(same_bits(a.constraint_err_max, b.constraint_err_max));
    CHECK(same_bits(a.orthogonality_err_max, b.orthogonality_err_max));
  }
  // The lookups the tables use work on the read copy.
  REQUIRE(back.at(s.h_fail) != nullptr);
  CHECK(back.at(s.h_fail)->reason == s.probes[4].reason);
  REQUIRE(back.at(s.h_max) != nullptr);
  CHECK(back.at(s.h_max)->stable());
  CHECK(back.limited_by_solver() == s.limited_by_solver());
  for (auto bound : {tb::StabilitySearch::Bound::AtCap, tb::StabilitySearch::Bound::BelowFloor}) {
    tb::StabilitySearch other;
    other.bound = bound;
    CHECK(round_trip(other).bound == bound);
  }
  // An unknown bound is refused.
  tb::ResultWriter w;
  write(w, s);
  std::string bytes = w.bytes();
  bytes[0] = '7';
  tb::StabilitySearch bad;
  tb::ResultReader r(bytes);
  CHECK_THROWS_AS(read(r, bad), std::runtime_error);
}

TEST_CASE("a long run survives bytes: its row with the growth fits and the probe's flag", "[jobs][resume]") {
  tb::LongRunResult run;
  run.row = awkward_row();
  run.probed_work = true;
  const tb::LongRunResult back = round_trip(run);
  CHECK(back.probed_work);
  CHECK(back.row.case_name == run.row.case_name);
  CHECK(same_bits(back.row.metrics.external_work_max, run.row.metrics.external_work_max));
  check_same_growth(back.row.metrics.energy_growth, run.row.metrics.energy_growth);
  check_same_growth(back.row.metrics.momentum_growth, run.row.metrics.momentum_growth);
  CHECK_FALSE(round_trip(tb::LongRunResult{}).probed_work);
}

TEST_CASE("malformed result bytes are refused, never read as a result", "[jobs][resume]") {
  tb::ResultWriter w;
  write(w, awkward_row());
  const std::string bytes = w.bytes();
  for (size_t cut : {size_t(0), size_t(1), bytes.size() / 2, bytes.size() - 1}) {
    tb::SummaryRow row;
    const std::string truncated = bytes.substr(0, cut);
    tb::ResultReader r(truncated);
    CHECK_THROWS_AS(read(r, row), std::runtime_error);
  }
  tb::SummaryRow row;
  const std::string longer = bytes + "1\n";
  tb::ResultReader r(longer);
  read(r, row);
  CHECK_THROWS_AS(r.expect_end(), std::runtime_error);
}

TEST_CASE("the resume store: matching results are reused, changed inputs, a torn file and a new job run again",
          "[jobs][resume]") {
  std::random_device rd;
  const fs::path dir = fs::temp_directory_path() / ("tb_store_" + std::to_string(rd()));
  std::vector<int> ran;
  std::vector<long> slots;
  auto jobs_for = [&](std::vector<std::string> inputs) {
    slots.assign(inputs.size(), -1);
    std::vector<tb::StudyJob> jobs;
    for (size_t i = 0; i < inputs.size(); ++i)
      jobs.push_back(tb::result_job<long>(
          "job " + std::to_string(i), double(i + 1), inputs[i],
          [&ran, i] {
            ran.push_back(int(i));
            return long(100 + i);
          },
          slots[i]));
    return jobs;
  };
  tb::JobOptions options;
  options.store_dir = dir.string();
  options.version = "test";
  options.quiet = true;

  auto first = tb::run_jobs(jobs_for({"a", "b", "c", "d"}), options);
  CHECK(first.ran == 4);
  CHECK(first.reused == 0);
  CHECK(slots == std::vector<long>{100, 101, 102, 103});
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) files += entry.path().extension() == ".job";
  CHECK(files == 4);

  // Not resuming: everything runs again.
  ran.clear();
  CHECK(tb::run_jobs(jobs_for({"a", "b", "c", "d"}), options).ran == 4);

  // Resuming: job 1's inputs changed (stale fingerprint), job 2's file torn, job 4 is new.
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find("job 2") != std::string::npos) std::ofstream(entry.path(), std::ios::trunc) << text.substr(0, text.size() - 3);
  }
  ran.clear();
  options.resume = true;
  const auto resumed = tb::run_jobs(jobs_for({"a", "B", "c", "d", "e"}), options);
  std::sort(ran.begin(), ran.end());
  CHECK(ran == std::vector<int>{1, 2, 4});
  CHECK(resumed.ran == 3);
  CHECK(resumed.reused == 2);
  CHECK(slots == std::vector<long>{100, 101, 102, 103, 104});  // reused results applied like computed ones

  // Another suite version: nothing is reused.
  ran.clear();
  options.version = "test 2";
  CHECK(tb::run_jobs(jobs_for({"a", "B", "c", "d", "e"}), options).reused == 0);
  CHECK(ran.size() == 5);
  fs::remove_all(dir);
}

TEST_CASE("a stored job is reused only by the same build: another build's result runs again, and each result says "
          "which build ran it and when",
          "[jobs][resume]") {
  // The code identity is the build's (app/common/build_identity.hpp), recorded at build time: 16 hex
  // digits, never the commit read at run time.
  const tb::BuildIdentity& build = tb::build_identity();
  REQUIRE(build.hash.size() == 16);
  CHECK(build.hash.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(tb::code_identity() == "build " + build.hash);
  CHECK(tb::describe(build).rfind(build.hash + " (git ", 0) == 0);
  CHECK(build.built_at.size() == std::string("2026-11-29 03:40:12 UTC").size());

  std::random_device rd;
  const fs::path dir = fs::temp_directory_path() / ("tb_store_build_" + std::to_string(rd()));
  int runs = 0;
  std::vector<long> slots(3, -1);
  auto jobs = [&] {
    std::vector<tb::StudyJob> list;
    for (size_t i = 0; i < slots.size(); ++i)
      list.push_back(tb::result_job<long>("job " + std::to_string(i), 1.0, "inputs " + std::to_string(i),
                                          [&runs, i] { return ++runs, long(10 * i); }, slots[i]));
    return list;
  };
  tb::JobOptions options;
  options.store_dir = dir.string();
  options.quiet = true;
  options.resume = true;
  options.version = tb::code_identity();
  const auto first = tb::run_jobs(jobs(), options);
  CHECK(first.ran == 3);
  CHECK(runs == 3);
  CHECK(tb::job_provenance_line(first) == "3 jobs, all run now");
  for (size_t i = 0; i < 3; ++i) {
    CHECK_FALSE(first.reused_flags[i]);
    CHECK(first.builds[i] == tb::describe(build));
    CHECK(first.finished_at[i].size() == std::string("2026-11-29 03:40:12 UTC").size());
  }

  // The same build again: every result reused, with the build and time it was made.
  const auto again = tb::run_jobs(jobs(), options);
  CHECK(again.reused == 3);
  CHECK(again.ran == 0);
  CHECK(runs == 3);
  CHECK(slots == std::vector<long>{0, 10, 20});
  for (size_t i = 0; i < 3; ++i) {
    CHECK(again.reused_flags[i]);
    CHECK(again.builds[i] == first.builds[i]);
    CHECK(again.finished_at[i] == first.finished_at[i]);
  }
  CHECK(tb::job_provenance_line(again).rfind("3 jobs: 0 run now, 3 reused from this folder's store", 0) == 0);
  tb::write_job_provenance(dir.string(), {"job 0", "job 1", "job 2"}, again);
  {
    std::ifstream in(dir / "jobs.csv");
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    CHECK(header == "job,origin,seconds,host,build,finished_at");
    CHECK(row.rfind("job 0,reused,", 0) == 0);
    CHECK(row.find(build.hash) != std::string::npos);
  }

  // Another build (other code, other flags): its identity differs, nothing is reused.
  options.version = "build 0123456789abcdef";
  const auto other = tb::run_jobs(jobs(), options);
  CHECK(other.reused == 0);
  CHECK(runs == 6);
  fs::remove_all(dir);
}

TEST_CASE("a run's inputs are a described record: every input changes its text, nothing else does", "[jobs][resume]") {
  // The fingerprint of a job is taken of record_text(RunInputs) (app/running/job_result.hpp): the case's
  // file and model, the integrator's effective settings, the horizon and a plugin's origin.
  tb::Case c = tb::load_case(std::string(TETHERBENCH_CASES_DIR) + "/T_planar_pendulum_60deg.toml", tb::testing::catalogue());
  const std::string base = tb::run_inputs(c, "rk45");
  CHECK(base == tb::run_inputs(c, "rk45"));                       // deterministic
  CHECK(base.find("case{case=T_planar_pendulum_60deg;") == 0);   // every field by name
  CHECK(base != tb::run_inputs(c, "rk4"));                        // another integrator
  tb::Case tighter = c;
  tighter.settings["rk45"].set_tolerances({1e-9, 1e-11});
  CHECK(base != tb::run_inputs(tighter, "rk45"));                 // a setting (--set)
  tb::Case other_rk4 = c;
  other_rk4.settings["rk4"].h = 2e-3;
  CHECK(base == tb::run_inputs(other_rk4, "rk45"));               // another integrator's setting: not this run's
  CHECK(tb::case_inputs(c) != tb::case_inputs(other_rk4));        // but the case's
  tb::Case shorter = c;
  shorter.t_end = 1.0;
  CHECK(base != tb::run_inputs(shorter, "rk45"));                 // the horizon
  tb::Case from_plugin = c;
  from_plugin.origins["integrator rk45"] = "plugin x 1.0, file hash 0123456789abcdef";
  CHECK(base != tb::run_inputs(from_plugin, "rk45"));             // a plugin's version and file
  // A job's own parameters and the version with the label make the fingerprint.
  tb::StudyJob job;
  job.label = "x";
  job.inputs = tb::job_inputs(base, {{"h", tb::exact(1e-3)}});
  tb::StudyJob other = job;
  other.inputs = tb::job_inputs(base, {{"h", tb::exact(2e-3)}});
  CHECK(tb::job_fingerprint(job, "v") != tb::job_fingerprint(other, "v"));
  CHECK(tb::job_fingerprint(job, "v") != tb::job_fingerprint(job, "w"));
  CHECK(tb::job_fingerprint(job, "v") == tb::job_fingerprint(job, "v"));
}
