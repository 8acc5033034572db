#include "app/writing/report.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "app/common/progress_sink.hpp"
#include "app/jobs/distributed.hpp"
#include "app/running/external_steps.hpp"
#include "app/writing/figure_plan.hpp"
#include "core/format.hpp"
#include "app/running/interrupt.hpp"
#include "app/jobs/job_provenance.hpp"
#include "app/running/job_result.hpp"
#include "app/jobs/jobs.hpp"
#include "app/writing/manifest.hpp"
#include "app/running/plugins.hpp"
#include "app/input/reference_data.hpp"
#include "app/writing/report_index.hpp"
#include "app/writing/step_cost_page.hpp"
#include "app/writing/summary.hpp"

namespace fs = std::filesystem;

namespace tb {

namespace {

// Said before the runs and again with the results (index.md's build section): runtimes of a
// plugin compiled without optimisation are not comparable with the others'.
void warn_unoptimised_plugins(const Catalogue& catalogue) {
  if (process_rank() != 0) return;
  for (const auto& w : unoptimised_plugin_warnings(catalogue)) std::fprintf(stderr, "tetherbench: warning: %s\n", w.c_str());
}

// The jobs' options for a report or study writing into options.out_dir.
JobOptions job_options(const ReportOptions& options, StoredJobSeconds stored) {
  JobOptions j;
  j.workers = options.workers;
  j.quiet = !options.progress;
  j.stored = std::move(stored);
  j.store_dir = (fs::path(options.out_dir) / ".jobs").string();
  j.resume = options.resume;
  j.version = code_identity();
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
      // The run said once: what the job runs and what its stored result is fingerprinted by.
      RunRequest request = full_run_request(keys[i], options);
      const RunKey& key = request.key;
      const double cost = request.t_end() / request.h();  // steps at the run's step: the long runs first
      const std::string label = key.c->name + " | " + key.label() + " | full run", inputs = request_inputs(request);
      // The time series is written by the process that runs the job (a shared folder on a cluster).
      jobs.push_back(result_job<SummaryRow>(label, cost, inputs, [request = std::move(request)] { return run_case(request); },
                                            rows[i]));
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
  // How its parameters are named on the command line: "" (`study NAME --param KEY=...`) or
  // "NAME." (`report --param NAME.KEY=...`), so that a bad value's message names the option given.
  std::string option_prefix;
};

// `parameters` by study name; a study absent from it runs with its defaults.
std::vector<PlannedStudy> plan_studies(const std::vector<const StudyInfo*>& infos, const std::vector<Case>& cases,
                                       const Catalogue& catalogue, const ReportOptions& options,
                                       const std::map<std::string, std::map<std::string, std::string>>& parameters) {
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
    p.context.references = options.references;
    p.context.workers = options.workers;
    if (const auto it = parameters.find(p.info->name); it != parameters.end()) p.context.parameters = it->second;
  }
  return planned;
}

// Plans everything first (so a missing reference or a bad parameter stops the run before
// anything is written), runs every job in one pool, then writes.
StudyOutcome run_planned(std::vector<PlannedStudy>& planned, bool full_runs_wanted,
                                     const std::vector<Case>& cases, const Catalogue& catalogue,
                                     const ReportOptions& options) {
  const StoredJobSeconds stored = stored_job_seconds(options.reference_dir);  // bad file: InputError before any run
  warn_unoptimised_plugins(catalogue);
  FullRuns full;
  std::vector<StudyJob> jobs;
  if (full_runs_wanted) jobs = full.plan(cases, catalogue, options.out_dir);
  for (auto& p : planned) {
    p.context.full_runs = &full.rows;
    std::vector<StudyJob> mine;
    try {
      mine = p.study->plan(p.context);
    } catch (const InputError& e) {
      const std::string what = e.what(), option = "--param ";
      if (p.option_prefix.empty() || what.rfind(option, 0) != 0) throw;
      throw InputError(option + p.option_prefix + what.substr(option.size()));
    }
    // A plugin's study: its results depend on the plugin's version and file too.
    if (const std::string origin = catalogue.origin("study", p.info->name); !origin.empty())
      for (auto& job : mine) job.inputs = job_inputs(job.inputs, {{"study_origin", origin}});
    jobs.insert(jobs.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
  }
  std::vector<JobCost> costs;
  std::vector<std::string> labels;  // in the jobs' order, as JobsDone's vectors
  for (const auto& j : jobs) {
    costs.push_back({j.label, 0.0});
    labels.push_back(j.label);
  }
  const JobsDone done = run_jobs(std::move(jobs), job_options(options, stored));
  if (!done.gathering) {  // another MPI rank: its jobs' results went to rank 0, which writes
    StudyOutcome outcome;
    outcome.gathering = false;
    return outcome;
  }
  if (options.progress) progress_line(jobs_line(done));
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
  outcome.jobs = job_provenance_line(done);
  fs::create_directories(options.out_dir);
  write_job_provenance(options.out_dir, labels, done);
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

void check_study_parameters(const StudyInfo& study, const std::map<std::string, std::string>& parameters,
                            const std::string& option_prefix) {
  for (const auto& [name, value] : parameters) {
    bool known = false;
    std::vector<std::string> names;
    for (const auto& p : study.parameters) known = known || p.name == name, names.push_back(p.name);
    if (!known)
      throw InputError("--param " + option_prefix + name + "=" + value + ": study " + study.name + " has no parameter '" +
                       name + "'" +
                       (names.empty() ? std::string(" (it takes none)") : " (expected one of: " + join_names(names) + ")"));
  }
}

void check_report_parameters(const Catalogue& catalogue,
                             const std::map<std::string, std::map<std::string, std::string>>& study_parameters) {
  for (const auto& [name, parameters] : study_parameters) {
    const StudyInfo* study = catalogue.find_study(name);
    if (!study && !parameters.empty())
      throw InputError("--param " + name + "." + parameters.begin()->first + "=" + parameters.begin()->second +
                       ": no study '" + name + "' (expected one of: " + join_names(catalogue.study_names()) + ")");
    if (study) check_study_parameters(*study, parameters, name + ".");
  }
}

TableOutcome run_table(const std::vector<Case>& cases, const Catalogue& catalogue, const ReportOptions& options, int repeats) {
  warn_unoptimised_plugins(catalogue);
  FullRuns full;
  std::vector<StudyJob> jobs = full.plan(cases, catalogue, options.out_dir, repeats);
  std::vector<std::string> labels;
  for (const auto& job : jobs) labels.push_back(job.label);
  JobOptions j = job_options(options, {});
  // The progress bar on a terminal or a host's sink (a notebook); the table prints its rows after.
  j.quiet = j.quiet || (!isatty(STDERR_FILENO) && !progress_sink());
  const JobsDone done = run_jobs(std::move(jobs), j);
  TableOutcome outcome;
  outcome.gathering = done.gathering;
  if (!done.gathering) return outcome;
  if (options.progress) progress_line(jobs_line(done));
  const std::string note = host_types_note(done);
  fs::create_directories(options.out_dir);
  write_job_provenance(options.out_dir, labels, done);
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
  check_report_parameters(catalogue, options.study_parameters);
  auto planned = plan_studies(infos, cases, catalogue, options, options.study_parameters);
  for (auto& p : planned) p.option_prefix = p.info->name + ".";
  ReportStatus status;
  const StudyOutcome outcome = run_planned(planned, true, cases, catalogue, options);
  status.gathering = outcome.gathering;
  if (!status.gathering) return status;
  status.all_runs_ok = outcome.all_runs_ok;
  auto manifest = reproducibility_manifest(catalogue, {options.data_root, options.command, options.workers, process_count()});
  manifest.emplace_back("hosts", outcome.hosts);
  manifest.emplace_back("jobs", outcome.jobs);
  write_manifest(dir.string(), manifest);
  if (interrupted()) return status;  // tables written; no benchmarks or plots of a cut-short report

  bool scripts_ok = true;
  if (options.benchmarks) {
    // The benchmark binary loads the same plugins and measures the report's integrators (only
    // those the command selected with --integrator).
    BenchmarkRun bench;
    bench.binary = options.benchmarks_binary;
    bench.dir = dir.string();
    for (const auto& p : catalogue.plugins) bench.plugins.push_back(p.file);
    for (const auto& i : catalogue.integrators) bench.measured.emplace_back(i.name, catalogue.origin("integrator", i.name));
    for (const auto& m : catalogue.models)
      if (const std::string origin = catalogue.origin("model", m.name); !origin.empty())
        bench.models_origin += m.name + ": " + origin + "\n";
    bench.identity = code_identity();
    bench.store_dir = (dir / ".jobs" / "benchmarks").string();
    bench.reuse = options.resume;
    const BenchmarksDone benchmarks = run_benchmarks(bench);
    manifest.emplace_back("benchmarks", std::to_string(benchmarks.measured) + " parts measured now, " +
                                            std::to_string(benchmarks.reused) +
                                            " reused from this folder's store (the same build and plugins)");
    write_manifest(dir.string(), manifest);
    // The page only of a complete measurement: a built-in part that failed leaves it unwritten
    // and the report's status says so; without the binary there is nothing to write (said above).
    scripts_ok = benchmarks.skipped ||
                 (benchmarks.ok && write_step_cost_page(benchmarks.parts, dir.string(), catalogue.step_cost, benchmarks.without_models));
    // A plugin's fault in the benchmarks is a failed measurement of the plugin (status 1), as in a run.
    if (!benchmarks.plugin_fault.empty()) status.all_runs_ok = false;
  }
  write_figure_plan(dir.string(), catalogue);  // after the benchmarks (their figure), before the plots that draw it
  if (options.plots) scripts_ok = run_plots(options.scripts_dir, dir.string(), options.resume) && scripts_ok;
  write_index(dir.string(), cases, catalogue);  // after the plots: it links the figures they drew
  status.scripts_ok = scripts_ok;
  return status;
}

StudyOutcome run_study(const StudyInfo& study, const std::vector<Case>& cases, const Catalogue& catalogue,
                                   const ReportOptions& options, const std::map<std::string, std::string>& parameters) {
  for (const auto& c : cases)
    if (study.why_not)
      if (const std::string why = study.why_not(c); !why.empty())
        throw InputError(c.file + ": study " + study.name + " does not apply to case " + c.name + ": " + why);
  check_study_parameters(study, parameters, "");
  auto planned = plan_studies({&study}, cases, catalogue, options, {{study.name, parameters}});
  return run_planned(planned, study.needs_full_runs, cases, catalogue, options);
}

}  // namespace tb
