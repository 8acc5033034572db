// Job results as bytes (core/job_result.hpp) and the resume store of the job list
// (core/jobs.hpp): exact round trips, refused malformed bytes, and which stored results a
// resumed job list reuses (matching fingerprint, whole file) or runs again.

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include "core/job_result.hpp"
#include "core/jobs.hpp"

namespace fs = std::filesystem;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

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
  return row;
}

}  // namespace

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
  // Written again, the same bytes.
  tb::ResultWriter again;
  write(again, back);
  CHECK(again.bytes() == w.bytes());
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
