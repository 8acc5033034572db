// `tetherbench report` into a folder it wrote before: a report killed midway (SIGTERM once N jobs
// have finished, by the test hook TETHERBENCH_TEST_STOP_AFTER_JOBS) resumes into the same folder,
// reuses the N stored results, runs only the missing jobs, and writes the same tables as an
// uninterrupted report (every column but the runtimes and their hosts), the stability map's
// searches and the long-time growth laws included. Run again unchanged, it reuses every job
// (the default, issue 43); --fresh runs them all. A changed case file is never reused.

#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Run {
  int exit_code;
  std::string err;
};

Run tetherbench(const fs::path& dir, const std::string& env, const std::string& args) {
  const fs::path err = dir / "stderr.txt";
  const std::string cmd = env + " " + TETHERBENCH_BINARY + " " + args + " >/dev/null 2>" + err.string();
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(err)};
}

// A CSV's rows with the runtime columns (runtime_s, the stability map's runtime_at_...) and the
// host column left out (quoted cells may hold commas), and the rows of rankings by runtime
// (work = runtime: measured, like the runtime columns).
std::vector<std::vector<std::string>> without_runtimes(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string cell;
  bool quoted = false;
  for (char ch : text) {
    if (quoted) {
      if (ch == '"') quoted = false;
      else cell += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      row.push_back(cell), cell.clear();
    } else if (ch == '\n') {
      row.push_back(cell), cell.clear();
      rows.push_back(row), row.clear();
    } else {
      cell += ch;
    }
  }
  if (rows.empty()) return rows;
  if (const auto work = std::find(rows[0].begin(), rows[0].end(), "work"); work != rows[0].end()) {
    const size_t w = size_t(work - rows[0].begin());
    rows.erase(std::remove_if(rows.begin() + 1, rows.end(),
                              [w](const std::vector<std::string>& r) { return w < r.size() && r[w] == "runtime"; }),
               rows.end());
  }
  std::vector<size_t> keep;
  for (size_t c = 0; c < rows[0].size(); ++c)
    if (rows[0][c].rfind("runtime", 0) != 0 && rows[0][c] != "host") keep.push_back(c);
  for (auto& r : rows) {
    std::vector<std::string> kept;
    for (size_t c : keep) kept.push_back(c < r.size() ? r[c] : "<missing>");
    r = kept;
  }
  return rows;
}

// Every table of a report folder (its CSVs but the job costs and build information), by path.
std::map<std::string, std::string> tables(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string rel = fs::relative(e.path(), dir).string();
    if (e.path().extension() != ".csv" || rel.rfind(".jobs", 0) == 0 || rel == "job_costs.csv" || rel == "jobs.csv" ||
        rel == "build_info.csv" || rel.find("timeseries") != std::string::npos)
      continue;
    out[rel] = read_text(e.path());
  }
  return out;
}

size_t stored_results(const fs::path& out) {
  size_t n = 0;
  if (fs::exists(out / ".jobs"))
    for (const auto& e : fs::directory_iterator(out / ".jobs")) n += e.path().extension() == ".job";
  return n;
}

// "jobs: R run, U reused" of the report's stderr.
std::pair<long, long> job_counts(const std::string& err) {
  std::smatch m;
  const std::regex line("jobs: ([0-9]+) run, ([0-9]+) reused");
  REQUIRE(std::regex_search(err, m, line));
  return {std::stol(m[1]), std::stol(m[2])};
}

}  // namespace

TEST_CASE("a report killed midway resumes: the stored jobs are reused, only the missing ones run, same tables",
          "[cli][resume]") {
  std::random_device rd;
  const fs::path dir = fs::temp_directory_path() / ("tb_resume_" + std::to_string(rd()));
  fs::create_directories(dir);
  // Two short cases: their full runs, work-precision sweeps and orders, stability searches and
  // long runs, the latter cut to 20000 steps (10^6 in the bundled files: most of the job time;
  // the long_time study still runs its own jobs).
  const fs::path pendulum = dir / "T_planar_pendulum_60deg.toml", elastic = dir / "T_elastic_pendulum.toml";
  for (const fs::path& copy : {pendulum, elastic}) {
    const std::string text = read_text(fs::path(TETHERBENCH_CASES_DIR) / copy.filename());
    const std::regex steps("\\nlong_time_steps *= *[0-9]+");
    REQUIRE(std::regex_search(text, steps));
    std::ofstream(copy, std::ios::binary) << std::regex_replace(text, steps, "\nlong_time_steps = 20000");
  }
  const std::string cases = pendulum.string() + " " + elastic.string() + " --no-benchmarks --no-plots --jobs 1 --out ";

  const Run whole = tetherbench(dir, "", "report " + cases + (dir / "whole").string());
  REQUIRE(whole.exit_code == 0);
  const auto [total, none_reused] = job_counts(whole.err);
  CHECK(none_reused == 0);
  REQUIRE(total > 20);
  CHECK(stored_results(dir / "whole") == size_t(total));

  // Killed once 12 jobs have finished: the status of an interrupted report, 12 results stored.
  const long finished = 12;
  const Run killed = tetherbench(dir, "TETHERBENCH_TEST_STOP_AFTER_JOBS=" + std::to_string(finished),
                                 "report " + cases + (dir / "resumed").string());
  INFO(killed.err);
  CHECK(killed.exit_code == 1);
  CHECK(stored_results(dir / "resumed") == size_t(finished));

  const Run resumed = tetherbench(dir, "", "report " + cases + (dir / "resumed").string() + " --resume");
  INFO(resumed.err);
  REQUIRE(resumed.exit_code == 0);
  const auto [ran, reused] = job_counts(resumed.err);
  CHECK(reused == finished);
  CHECK(ran == total - finished);
  CHECK(stored_results(dir / "resumed") == size_t(total));

  const auto expected = tables(dir / "whole"), got = tables(dir / "resumed");
  REQUIRE(expected.size() >= 4);  // summary.csv, per-case summaries, work_precision.csv, orders.csv, ...
  // Every study's jobs went through the store, those returning searches and growth fits too.
  for (const char* table : {"summary.csv", "work_precision.csv", "orders.csv", "stability_map.csv", "stability_probes.csv",
                            "long_time.csv", "long_time_envelope.csv"})
    CHECK(expected.count(table));
  for (const auto& [path, text] : expected) {
    INFO(path);
    REQUIRE(got.count(path));
    CHECK(without_runtimes(got.at(path)) == without_runtimes(text));
  }
  CHECK(got.size() == expected.size());

  // The same command again, with nothing changed: every job reused without being asked (issue 43),
  // the same tables, and jobs.csv and build_info.csv say so.
  const Run unchanged = tetherbench(dir, "", "report " + cases + (dir / "resumed").string());
  INFO(unchanged.err);
  REQUIRE(unchanged.exit_code == 0);
  CHECK(job_counts(unchanged.err) == std::pair<long, long>{0, total});
  for (const auto& [path, text] : expected) {
    INFO(path);
    CHECK(without_runtimes(read_text(dir / "resumed" / path)) == without_runtimes(text));
  }
  const std::string provenance = read_text(dir / "resumed" / "jobs.csv");
  CHECK(provenance.rfind("job,origin,seconds,host,build,finished_at\n", 0) == 0);
  CHECK(std::count(provenance.begin(), provenance.end(), '\n') == total + 1);
  CHECK(provenance.find(",run,") == std::string::npos);
  CHECK(read_text(dir / "resumed" / "build_info.csv").find("jobs,\"" + std::to_string(total) + " jobs: 0 run now, " +
                                                           std::to_string(total) + " reused") != std::string::npos);

  // --fresh runs everything again, though every job is stored (on the pendulum alone: the
  // same rule per job, at half the cost); with --resume it is refused before anything runs.
  long pendulum_jobs = 0;  // the pendulum's jobs, by their labels in the job costs
  {
    std::istringstream costs(read_text(dir / "whole" / "job_costs.csv"));
    for (std::string line; std::getline(costs, line);) pendulum_jobs += line.find("T_planar_pendulum_60deg |") != std::string::npos;
  }
  CHECK(pendulum_jobs > 5);
  const Run fresh = tetherbench(dir, "", "report " + pendulum.string() + " --no-benchmarks --no-plots --jobs 1 --out " +
                                             (dir / "resumed").string() + " --fresh");
  REQUIRE(fresh.exit_code == 0);
  CHECK(job_counts(fresh.err) == std::pair<long, long>{pendulum_jobs, 0});
  const Run both = tetherbench(dir, "", "report " + cases + (dir / "both").string() + " --fresh --resume");
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--fresh") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "both" / "summary.csv"));

  // A case file changed since: none of its jobs is reused, the other case's all are.
  std::ofstream(elastic, std::ios::app) << "\n# edited\n";
  const Run after_edit = tetherbench(dir, "", "report " + cases + (dir / "resumed").string());
  REQUIRE(after_edit.exit_code == 0);
  const auto [ran_again, reused_again] = job_counts(after_edit.err);
  long elastic_jobs = 0;  // the edited case's jobs, by their labels in the job costs
  std::istringstream costs(read_text(dir / "whole" / "job_costs.csv"));
  for (std::string line; std::getline(costs, line);) elastic_jobs += line.find("T_elastic_pendulum |") != std::string::npos;
  CHECK(elastic_jobs > 5);
  CHECK(ran_again == elastic_jobs);
  CHECK(reused_again == total - elastic_jobs);
  fs::remove_all(dir);
}

TEST_CASE("a report run again reuses its benchmark parts, and a new integrator is measured alone",
          "[cli][resume]") {
  std::random_device rd;
  const fs::path dir = fs::temp_directory_path() / ("tb_bench_reuse_" + std::to_string(rd()));
  fs::create_directories(dir);
  const fs::path pendulum = dir / "T_planar_pendulum_60deg.toml";
  const std::string text = read_text(fs::path(TETHERBENCH_CASES_DIR) / pendulum.filename());
  std::ofstream(pendulum, std::ios::binary) << std::regex_replace(text, std::regex("\\nlong_time_steps *= *[0-9]+"),
                                                                  "\nlong_time_steps = 20000");
  const std::string args = "report " + pendulum.string() + " --no-plots --jobs 2 --out " + (dir / "rep").string();
  // "benchmarks: M parts measured now, R reused" of the report's stderr.
  auto parts = [](const std::string& err) {
    std::smatch m;
    REQUIRE(std::regex_search(err, m, std::regex("benchmarks: ([0-9]+) parts measured now, ([0-9]+) reused")));
    return std::pair<long, long>{std::stol(m[1]), std::stol(m[2])};
  };
  // One integrator: its step costs and the mass-matrix solve, two parts.
  const Run first = tetherbench(dir, "", args + " --integrator rk4");
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(parts(first.err) == std::pair<long, long>{2, 0});
  const std::string csv = read_text(dir / "rep" / "benchmarks.csv");
  CHECK(csv.find("/rk4/") != std::string::npos);

  const Run again = tetherbench(dir, "", args + " --integrator rk4");
  REQUIRE(again.exit_code == 0);
  CHECK(parts(again.err) == std::pair<long, long>{0, 2});
  CHECK(read_text(dir / "rep" / "benchmarks.csv") == csv);  // the same measurements, not new ones

  // A second integrator: only its part is measured; both are in the table.
  const Run more = tetherbench(dir, "", args + " --integrator rk4 --integrator rk2");
  REQUIRE(more.exit_code == 0);
  CHECK(parts(more.err) == std::pair<long, long>{1, 2});
  const std::string both = read_text(dir / "rep" / "benchmarks.csv");
  CHECK(both.find("/rk4/") != std::string::npos);
  CHECK(both.find("/rk2/") != std::string::npos);

  // --fresh measures everything again.
  const Run fresh = tetherbench(dir, "", args + " --integrator rk4 --fresh");
  REQUIRE(fresh.exit_code == 0);
  CHECK(parts(fresh.err) == std::pair<long, long>{2, 0});
  fs::remove_all(dir);
}
