// One run request (app/running/run_request.hpp, issue 45 item 3): an override of the step or the
// horizon is applied once, into the request; the case keeps its file's values; the row, the
// record bound to Python and the words `tetherbench run` prints say what ran.

#include <catch2/catch.hpp>

#include <set>

#include "app/running/runner.hpp"
#include "app/writing/case_run.hpp"
#include "app/input/catalogue.hpp"
#include "core/format.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace run_request_tests {

// Every run of the planar pendulum that applies, from the registry.
std::vector<RunKey> applicable_runs(const Case& c) {
  std::vector<RunKey> keys;
  for (const auto& key : runs_of(c, testing::catalogue().integrators))
    if (!why_not_applicable(c, *key.integrator, key.discretisation)) keys.push_back(key);
  return keys;
}

}  // namespace run_request_tests

TEST_CASE("an override of h and t_end is applied once, into the request, and the row says what ran", "[run_request]") {
  const Case c = testing::load_case(TETHERBENCH_CASES_DIR "/T_planar_pendulum_60deg.toml");
  const double file_h = c.h, h = c.h / 2.0, t_end = 40 * c.h;  // 80 steps of the halved step
  RunOptions options = RunOptions::untimed();
  options.h = h;
  options.t_end = t_end;
  const auto keys = run_request_tests::applicable_runs(c);
  REQUIRE(keys.size() >= 10);
  int fixed = 0;
  for (const auto& key : keys) {
    INFO(key.label());
    const RunRequest request = full_run_request(key, options);
    CHECK(request.h() == h);
    CHECK(request.t_end() == t_end);
    CHECK(c.settings_for(key.integrator->name).h == file_h);  // the case is as its file says
    // Without an override, the request runs the case's own step and the integrator's horizon.
    const RunRequest plain = full_run_request(key, RunOptions{});
    CHECK(plain.h() == file_h);
    CHECK(plain.t_end() == c.t_end_for(key.integrator->name));

    const SummaryRow row = run_case(request);
    REQUIRE(row.outcome.ok());
    CHECK(row.h == h);
    CHECK(row.t_end == t_end);
    CHECK(row.outcome.h == h);
    if (!key.integrator->adaptive) {  // a fixed-step run took exactly t_end / h steps of the request's h
      CHECK(row.counters.steps == 80);
      ++fixed;
    }
    // The record bound to Python and the printed words carry the same step and horizon.
    const RunRequestRecord record = record_of(request);
    CHECK(record.integrator.h == h);
    CHECK(record.t_end == t_end);
    CHECK(record.run == key.label());
    CHECK_THAT(request_words(request), Catch::StartsWith("h = " + format_g(h, 6) + " s") &&
                                           Catch::EndsWith("t_end = " + format_g(t_end, 6) + " s"));
  }
  CHECK(fixed >= 5);
}

TEST_CASE("tetherbench run's request: the case stays as its file says, each run's request carries --h, and it prints what ran",
          "[run_request][cli]") {
  const Case c = testing::load_case(TETHERBENCH_CASES_DIR "/T_planar_pendulum_60deg.toml");
  CaseRunRequest request;
  request.run.h = c.h / 4.0;
  request.run.t_end = 10 * c.h;
  const CaseRun run(c, testing::catalogue(), request);
  CHECK(run.the_case().h == c.h);
  CHECK(run.the_case().t_end == c.t_end);
  REQUIRE(run.requests().size() == run.keys().size());
  std::vector<std::string> printed;
  const std::vector<SummaryRow> rows = run.run({}, [&](const RunRequest& r) { printed.push_back(request_words(r)); });
  REQUIRE(rows.size() == run.keys().size());
  REQUIRE(printed.size() == rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO(rows[i].integrator);
    if (rows[i].outcome.not_applicable()) continue;
    CHECK(run.requests()[i].h() == *request.run.h);
    CHECK(rows[i].h == *request.run.h);
    CHECK_THAT(printed[i], Catch::StartsWith("h = " + format_g(*request.run.h, 6) + " s"));
    CHECK_THAT(printed[i], Catch::EndsWith("t_end = " + format_g(*request.run.t_end, 6) + " s"));
  }
}

TEST_CASE("a job is fingerprinted by the request it runs: its step, settings, horizon and case, not where it writes",
          "[run_request][fingerprint]") {
  const Case c = testing::load_case(TETHERBENCH_CASES_DIR "/T_planar_pendulum_60deg.toml");
  const Case other = testing::load_case(TETHERBENCH_CASES_DIR "/T_elastic_pendulum.toml");
  const auto keys = run_request_tests::applicable_runs(c);
  REQUIRE(!keys.empty());
  const RunRequest request = full_run_request(keys.front(), RunOptions{});
  const std::string inputs = request_inputs(request);
  RunRequest elsewhere = request;
  elsewhere.measure.timeseries_path = "/somewhere/else/timeseries.csv";
  CHECK(request_inputs(elsewhere) == inputs);  // where it writes is not what it computes
  RunRequest finer = request;
  finer.settings.h /= 2.0;
  CHECK(request_inputs(finer) != inputs);
  CHECK_THAT(request_inputs(finer), Catch::Contains("h=" + format_g(finer.h(), 17)));
  RunRequest longer = request;
  longer.measure.t_end *= 2.0;
  CHECK(request_inputs(longer) != inputs);
  RunRequest set = request;
  REQUIRE((!set.settings.values().empty() || !set.settings.words().empty()));
  if (!set.settings.values().empty()) {
    const auto& [key, value] = *set.settings.values().begin();
    set.settings.set(key, value * 2.0 + 1.0);
    CHECK(request_inputs(set) != inputs);
  }
  CHECK(request_inputs(request, {{"model.gravity", "9.82"}}) != inputs);  // what the request does not say
  for (const auto& key : runs_of(other, testing::catalogue().integrators))
    if (key.integrator == keys.front().integrator && !why_not_applicable(other, *key.integrator, key.discretisation))
      CHECK(request_inputs(full_run_request(key, RunOptions{})) != inputs);
}

TEST_CASE("a sweep's jobs carry their own request's step in their fingerprint, one fingerprint a point",
          "[run_request][fingerprint][study]") {
  // The energy balance sweeps h over every fixed-step run of the damped tether (its bundled table).
  const Catalogue& catalogue = testing::catalogue();
  const std::vector<Case> cases = {testing::load_case(TETHERBENCH_CASES_DIR "/T_hanging_tether_lumped.toml")};
  auto study = catalogue.find_study("energy_balance")->make();
  StudyContext context;
  context.catalogue = &catalogue;
  context.cases = &cases;
  const std::vector<StudyJob> jobs = study->plan(context);
  REQUIRE(jobs.size() >= 10);
  std::set<std::string> fingerprints;
  int swept = 0;
  for (const StudyJob& job : jobs) {
    INFO(job.label);
    fingerprints.insert(job.inputs);
    const size_t at = job.label.find("h = ");
    if (at == std::string::npos) continue;  // the reference
    const double h = std::stod(job.label.substr(at + 4));
    CHECK_THAT(job.inputs, Catch::Contains("h=" + format_g(h, 17)));
    ++swept;
  }
  CHECK(swept + 1 == int(jobs.size()));
  CHECK(fingerprints.size() == jobs.size());
}
