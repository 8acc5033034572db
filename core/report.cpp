#include "core/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/distributed.hpp"
#include "core/format.hpp"
#include "core/interrupt.hpp"
#include "core/job_result.hpp"
#include "core/jobs.hpp"
#include "core/reference_data.hpp"
#include "core/summary.hpp"

#ifndef TETHERBENCH_SOURCE_DIR
#error "TETHERBENCH_SOURCE_DIR must be defined by the build"
#endif

namespace fs = std::filesystem;

namespace tb {

namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string git_commit() {
  static std::string cached;  // asked for by the job fingerprints and build_info.csv
  if (!cached.empty()) return cached;
  std::string out;
  if (FILE* p = popen(("git -C " + shell_quote(TETHERBENCH_SOURCE_DIR) + " rev-parse --short HEAD 2>/dev/null").c_str(), "r")) {
    char buf[64];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return cached = out.empty() ? "unknown" : out;
}

void write_build_info(const fs::path& dir, const ReportOptions& o) {
  fs::create_directories(dir);
  std::ofstream out(dir / "build_info.csv");
  if (!out) throw std::runtime_error("cannot write " + (dir / "build_info.csv").string());
  out << "key,value\n";
  out << "version," << TETHERBENCH_VERSION << " (git " << git_commit() << ")\n";
  out << "compiler," << TETHERBENCH_COMPILER << "\n";
  out << "flags,\"" << TETHERBENCH_FLAGS << "\"\n";
  out << "build_type," << TETHERBENCH_BUILD_TYPE << "\n";
  out << "date," << utc_now() << "\n";
  out << "workers," << o.workers << "\n";
  out << "command,\"" << o.command << "\"\n";
  out << "processes," << process_count() << "\n";
}

// The jobs' options for a report or study writing into options.out_dir.
JobOptions job_options(const ReportOptions& options, StoredJobSeconds stored) {
  JobOptions j;
  j.workers = options.workers;
  j.stored = std::move(stored);
  j.store_dir = (fs::path(options.out_dir) / ".jobs").string();
  j.resume = options.resume;
  j.version = std::string(TETHERBENCH_VERSION) + " (git " + git_commit() + ")";
  return j;
}

// Where the runtimes were measured: every host with its type; a warning when more than one
// type contributed (runtimes then compare only within a type).
std::string hosts_line(const JobsDone& done) {
  std::string line;
  for (const auto& [host, type] : done.host_types) line += (line.empty() ? "" : "; ") + host + " (" + type + ")";
  return line;
}
// "  jobs: R run, U reused" (what --resume saved), with the share of each MPI rank.
std::string jobs_line(const JobsDone& done) {
  std::string line = "  jobs: " + std::to_string(done.ran) + " run, " + std::to_string(done.reused) + " reused";
  if (done.cut_short > 0) line += " (" + std::to_string(done.cut_short) + " cut short by the interrupt: not stored)";
  if (done.by_rank.size() > 1)
    for (size_t r = 0; r < done.by_rank.size(); ++r) line += (r ? ", " : "; by rank: ") + std::to_string(done.by_rank[r]);
  return line;
}

std::string host_types_note(const JobsDone& done) {
  std::set<std::string> types;
  for (const auto& [host, type] : done.host_types) types.insert(type);
  if (types.size() < 2) return "";
  return "Timings come from " + std::to_string(types.size()) + " host types (" + hosts_line(done) +
         "): compare runtimes within one host type only (the host column).";
}

// The table of full runs: one job per run of runs_of(), writing its time series.
struct FullRuns {
  std::vector<RunKey> keys;
  std::vector<SummaryRow> rows;

  std::vector<StudyJob> plan(const std::vector<Case>& cases, const Catalogue& catalogue, const std::string& out_dir,
                             int repeats = 1) {
    for (const auto& c : cases)
      for (const auto& key : runs_of(c, catalogue.integrators)) keys.push_back(key);
    rows.resize(keys.size());
    std::vector<StudyJob> jobs;
    RunOptions options;
    options.out_dir = out_dir;
    options.repeats = repeats;
    for (size_t i = 0; i < keys.size(); ++i) {
      const RunKey key = keys[i];
      const double cost = key.c->t_end_for(key.integrator->name) / key.c->h;  // steps at the case's step: the long runs first
      // The time series is written by the process that runs the job (a shared folder on a cluster).
      jobs.push_back(result_job<SummaryRow>(key.c->name + " | " + key.label() + " | full run", cost,
                                            run_inputs(*key.c, key.integrator->name) + ";" + key.discretisation +
                                                ";repeats=" + std::to_string(repeats) +
                                                ";min_timed_s=" + format_g(options.min_timed_s, 17),
                                            [key, options] { return run_case(key, options); }, rows[i]));
    }
    return jobs;
  }

  void write(const std::vector<Case>& cases, const fs::path& dir, const std::string& note) const {
    write_summary_csv((dir / "summary.csv").string(), rows);
    write_summary_markdown((dir / "summary.md").string(), rows);
    if (!note.empty()) std::ofstream(dir / "summary.md", std::ios::app) << "\n" << note << "\n";
    for (const auto& c : cases) {
      std::vector<SummaryRow> mine;
      for (const auto& r : rows)
        if (r.case_name == c.name) mine.push_back(r);
      write_summary_csv((dir / c.name / "summary.csv").string(), mine);
      write_summary_markdown((dir / c.name / "summary.md").string(), mine);
    }
  }
};

// The wall times of an earlier report's jobs (<reference_dir>/job_costs.csv), for ordering the
// jobs and the ETA; without the file the jobs are ordered by their own expected cost, and the
// progress line says so.
StoredJobSeconds stored_job_seconds(const std::string& reference_dir) {
  const fs::path path = fs::path(reference_dir) / "job_costs.csv";
  if (reference_dir.empty() || !fs::exists(path)) {
    std::fprintf(stderr, "  no stored job costs (%s): jobs ordered by steps, ETA from the share done\n",
                 path.string().c_str());
    return {};
  }
  StoredJobSeconds stored;
  for (const auto& row : read_job_costs(path.string())) stored[row.job] = row.seconds;
  return stored;
}

// A planned study: the study object with the cases it applies to (the context points at them).
struct PlannedStudy {
  const StudyInfo* info = nullptr;
  std::vector<Case> cases;
  std::unique_ptr<Study> study;
  StudyContext context;
};

std::vector<PlannedStudy> plan_studies(const std::vector<const StudyInfo*>& infos, const std::vector<Case>& cases,
                                       const Catalogue& catalogue, const ReportOptions& options,
                                       const std::map<std::string, std::string>& parameters) {
  std::vector<PlannedStudy> planned(infos.size());
  for (size_t i = 0; i < infos.size(); ++i) {
    planned[i].info = infos[i];
    planned[i].cases = cases_for_study(*infos[i], cases);
    planned[i].study = infos[i]->make();
  }
  for (auto& p : planned) {  // after the vector stopped moving: the contexts point into it
    p.context.catalogue = &catalogue;
    p.context.cases = &p.cases;
    p.context.out_dir = options.out_dir;
    p.context.reference_dir = options.reference_dir;
    p.context.workers = options.workers;
    p.context.parameters = parameters;
  }
  return planned;
}

// Plans everything first (so a missing reference or a bad parameter stops the run before
// anything is written), runs every job in one pool, then writes.
StudyOutcome run_planned(std::vector<PlannedStudy>& planned, bool full_runs_wanted,
                                     const std::vector<Case>& cases, const Catalogue& catalogue,
                                     const ReportOptions& options) {
  const StoredJobSeconds stored = stored_job_seconds(options.reference_dir);  // bad file: InputError before any run
  FullRuns full;
  std::vector<StudyJob> jobs;
  if (full_runs_wanted) jobs = full.plan(cases, catalogue, options.out_dir);
  for (auto& p : planned) {
    p.context.full_runs = &full.rows;
    auto mine = p.study->plan(p.context);
    jobs.insert(jobs.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
  }
  std::vector<JobCost> costs;
  for (const auto& j : jobs) costs.push_back({j.label, 0.0});
  const JobsDone done = run_jobs(std::move(jobs), job_options(options, stored));
  if (!done.gathering) {  // another MPI rank: its jobs' results went to rank 0, which writes
    StudyOutcome outcome;
    outcome.gathering = false;
    return outcome;
  }
  std::fprintf(stderr, "%s\n", jobs_line(done).c_str());
  const std::string note = host_types_note(done);
  if (!note.empty()) std::fprintf(stderr, "  note: %s\n", note.c_str());
  if (!interrupted()) {  // a cut-short job's time is not its cost
    for (size_t i = 0; i < costs.size(); ++i) costs[i].seconds = done.seconds[i];
    std::sort(costs.begin(), costs.end(), [](const JobCost& a, const JobCost& b) { return a.job < b.job; });
    fs::create_directories(options.out_dir);
    write_job_costs((fs::path(options.out_dir) / "job_costs.csv").string(), costs,
                    std::to_string(options.workers) + " workers x " + std::to_string(process_count()) + " processes, " +
                        utc_now());
  }
  StudyOutcome outcome;
  outcome.hosts = hosts_line(done);
  if (full_runs_wanted) {
    full.write(cases, options.out_dir, note);
    outcome.written.push_back((fs::path(options.out_dir) / "summary.csv").string());
    for (const auto& row : full.rows) outcome.all_runs_ok = outcome.all_runs_ok && !row.outcome.no_result();
  }
  for (auto& p : planned) {
    const auto files = p.study->write(p.context);
    outcome.written.insert(outcome.written.end(), files.begin(), files.end());
  }
  return outcome;
}

}  // namespace

TableOutcome run_table(const std::vector<Case>& cases, const Catalogue& catalogue, const ReportOptions& options, int repeats) {
  FullRuns full;
  std::vector<StudyJob> jobs = full.plan(cases, catalogue, options.out_dir, repeats);
  JobOptions j = job_options(options, {});
  j.quiet = !isatty(STDERR_FILENO);  // the progress bar on a terminal; the table prints its rows after
  const JobsDone done = run_jobs(std::move(jobs), j);
  TableOutcome outcome;
  outcome.gathering = done.gathering;
  if (!done.gathering) return outcome;
  std::fprintf(stderr, "%s\n", jobs_line(done).c_str());
  const std::string note = host_types_note(done);
  fs::create_directories(options.out_dir);
  write_summary_csv((fs::path(options.out_dir) / "summary.csv").string(), full.rows);
  write_summary_markdown((fs::path(options.out_dir) / "summary.md").string(), full.rows);
  if (!note.empty()) std::ofstream(fs::path(options.out_dir) / "summary.md", std::ios::app) << "\n" << note << "\n";
  outcome.rows = full.rows;
  return outcome;
}

std::vector<Case> cases_for_study(const StudyInfo& study, const std::vector<Case>& cases) {
  std::vector<Case> out;
  for (const auto& c : cases)
    if (!study.why_not || study.why_not(c).empty()) out.push_back(c);
  return out;
}

ReportStatus write_report(const std::vector<Case>& cases, const Catalogue& catalogue, const ReportOptions& options) {
  const fs::path dir(options.out_dir);
  std::vector<const StudyInfo*> infos;
  for (const auto& s : catalogue.studies) infos.push_back(&s);
  auto planned = plan_studies(infos, cases, catalogue, options, {});
  ReportStatus status;
  const StudyOutcome outcome = run_planned(planned, true, cases, catalogue, options);
  status.gathering = outcome.gathering;
  if (!status.gathering) return status;
  status.all_runs_ok = outcome.all_runs_ok;
  write_build_info(dir, options);
  std::ofstream(dir / "build_info.csv", std::ios::app) << "hosts,\"" << outcome.hosts << "\"\n";
  if (interrupted()) return status;  // tables written; no benchmarks or plots of a cut-short report

  const std::string scripts = std::string(TETHERBENCH_SOURCE_DIR) + "/scripts/";
  int failures = 0;
  if (options.benchmarks) {
    const std::string bench = TETHERBENCH_BENCHMARK_BINARY;
    if (!fs::exists(bench)) {
      std::fprintf(stderr, "tetherbench: benchmark binary %s not built; skipping benchmarks\n", bench.c_str());
    } else {
      std::fprintf(stderr, "  running benchmarks (Google Benchmark, min time 0.05 s each)\n");
      const std::string json = (dir / "benchmarks.json").string();
      failures |= std::system((shell_quote(bench) + " --benchmark_min_time=0.05 --benchmark_out=" + shell_quote(json) +
                             " --benchmark_out_format=json > " + shell_quote((dir / "benchmarks.log").string()) + " 2>&1")
                                .c_str());
      failures |= std::system(("/usr/bin/python3 " + shell_quote(scripts + "summarise_benchmarks.py") + " " +
                             shell_quote(json) + " " + shell_quote(dir.string()))
                                .c_str());
    }
  }
  if (options.plots)
    failures |= std::system(("/usr/bin/python3 " + shell_quote(scripts + "plot_report.py") + " " + shell_quote(dir.string())).c_str());
  status.scripts_ok = failures == 0;
  return status;
}

StudyOutcome run_study(const StudyInfo& study, const std::vector<Case>& cases, const Catalogue& catalogue,
                                   const ReportOptions& options, const std::map<std::string, std::string>& parameters) {
  for (const auto& c : cases)
    if (study.why_not)
      if (const std::string why = study.why_not(c); !why.empty())
        throw InputError(c.file + ": study " + study.name + " does not apply to case " + c.name + ": " + why);
  for (const auto& [name, value] : parameters) {
    bool known = false;
    std::vector<std::string> names;
    for (const auto& p : study.parameters) known = known || p.name == name, names.push_back(p.name);
    if (!known)
      throw InputError("--param " + name + "=" + value + ": study " + study.name + " has no parameter '" + name + "'" +
                       (names.empty() ? std::string(" (it takes none)") : " (expected one of: " + join_names(names) + ")"));
  }
  auto planned = plan_studies({&study}, cases, catalogue, options, parameters);
  return run_planned(planned, study.needs_full_runs, cases, catalogue, options);
}

}  // namespace tb
