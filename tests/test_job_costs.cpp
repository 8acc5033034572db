// The report's job ordering and ETA estimates (app/jobs/jobs.hpp) and the stored job costs they
// come from (reference/job_costs.csv, app/input/reference_data.hpp).
#include <catch2/catch.hpp>


#include "app/jobs/jobs.hpp"
#include "app/input/reference_data.hpp"
#include "core/table_reader.hpp"
#include "tests/temp_file.hpp"

namespace {

using Catch::Matchers::Contains;

struct CostsFile : tb::testing::TempFile {
  explicit CostsFile(const std::string& content) : tb::testing::TempFile("tb_job_costs_", content) {}
};

tb::StudyJob job(const std::string& label, double expected_cost) {
  return {label, expected_cost, "", [] { return std::string(); }, [](const std::string&) {}};
}

}  // namespace

TEST_CASE("stored job costs: known jobs take their stored seconds, others their cost at the median rate",
          "[jobs]") {
  const std::vector<tb::StudyJob> jobs = {job("a", 100.0), job("b", 10.0), job("c", 1000.0), job("new", 50.0),
                                          job("d", 1.0)};
  // Rates (s per unit of expected cost) of the stored jobs: 0.02, 0.5, 0.001, 3 -> median
  // (upper middle of four) 0.5.
  const tb::StoredJobSeconds stored = {{"a", 2.0}, {"b", 5.0}, {"c", 1.0}, {"d", 3.0}, {"gone", 7.0}};
  bool in_seconds = false;
  const auto e = tb::estimated_job_costs(jobs, stored, in_seconds);
  CHECK(in_seconds);
  CHECK(e == std::vector<double>{2.0, 5.0, 1.0, 25.0, 3.0});

  // Nothing stored: the bare expected costs, which are not seconds.
  const auto bare = tb::estimated_job_costs(jobs, {}, in_seconds);
  CHECK_FALSE(in_seconds);
  CHECK(bare == std::vector<double>{100.0, 10.0, 1000.0, 50.0, 1.0});
}

TEST_CASE("run_jobs runs the stored-longest job first and returns each job's wall time in the order given", "[jobs]") {
  std::vector<std::string> order;
  std::vector<tb::StudyJob> jobs;
  for (const char* name : {"short", "long", "middle"})
    jobs.push_back({name, 1.0, "", [&order, name] {
                      order.push_back(name);
                      return std::string();
                    },
                    [](const std::string&) {}});
  const tb::StoredJobSeconds stored = {{"short", 0.1}, {"long", 30.0}, {"middle", 2.0}};
  const auto seconds = tb::run_jobs(jobs, 1, stored);  // one worker: runs in the pool's order
  CHECK(order == std::vector<std::string>{"long", "middle", "short"});
  REQUIRE(seconds.size() == 3);
  for (double s : seconds) CHECK(s >= 0.0);
}

TEST_CASE("job_costs.csv round-trips, and bad rows are refused naming the file, line and column", "[jobs][input]") {
  const std::vector<tb::JobCost> rows = {{"C_single | lgvi | full run", 5.25}, {"A | rk4, \"quoted\" | h = 1e-3", 0.5}};
  CostsFile file("");
  tb::write_job_costs(file.path.string(), rows, "test");
  const auto back = tb::read_job_costs(file.path.string());
  REQUIRE(back.size() == 2);
  CHECK(back[0].job == rows[0].job);
  CHECK(back[0].seconds == 5.25);
  CHECK(back[1].job == rows[1].job);

  struct Bad {
    std::string content, fragment;
  };
  for (const Bad& bad : std::vector<Bad>{{"job,seconds\na,-1\n", "expected a number >= 0, got '-1'"},
                                         {"job,seconds\na,soon\n", "column 'seconds': expected a finite number"},
                                         {"job,seconds\na,nan\n", "expected a finite number, got 'nan'"},
                                         {"job,seconds\na,1\na,2\n", "expected each job once, got 'a' again"},
                                         {"job,seconds\n,1\n", "column 'job': expected a job label"},
                                         {"label,seconds\na,1\n", "job"}}) {
    CostsFile f(bad.content);
    INFO(bad.content);
    CHECK_THROWS_WITH(tb::read_job_costs(f.path.string()),
                      Contains(f.path.string()) && Contains(bad.fragment));
  }
}
