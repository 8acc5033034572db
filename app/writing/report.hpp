#pragma once
// `tetherbench report`: the table of full runs (every case with every applicable integrator
// and discretisation) plus every study of the catalogue, all jobs in one parallel pool, then
// build information, benchmarks, and the plots and index drawn by scripts/plot_report.py.
// `tetherbench study NAME` runs one study the same way.

#include <map>
#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/common/reference_search.hpp"
#include "app/input/run_records.hpp"

namespace tb {

struct ReportOptions {
  std::string out_dir = "reports";
  std::string reference_dir;    // holds <case>/final_state*.csv, paper_claims.csv, job_costs.csv
  // Where the cases' reference solutions are looked for: --reference-dir folders, then the
  // bundled one (`bundled` empty: reference_dir).
  ReferenceSearch references;
  unsigned workers = 1;         // parallel runs
  bool benchmarks = true;       // run the Google Benchmark suite and summarise it
  bool plots = true;            // run scripts/plot_report.py (matplotlib)
  std::string command;          // the command line, recorded in build_info.csv
  // Where the suite's data were found (app/common/data_paths.hpp): the version's git commit, the
  // report's scripts and the benchmark binary.
  std::string data_root, scripts_dir, benchmarks_binary;
  // Reuse the results of an earlier run into the same folder (DIR/.jobs, one file per job,
  // fingerprinted: case file, integrator settings, study parameters, plugin file hashes and the
  // build's identity, app/common/build_identity.hpp); only the jobs without a matching result run.
  // Without it every job runs (and is stored anew). The command line reuses unless --fresh; a
  // library call (the Python package) only when asked.
  bool resume = false;
  // The job pool's progress display and its closing "jobs: R run, U reused" line on stderr
  // (app/jobs/job_progress.hpp); off for a library call that was not asked for them (the Python
  // package's study and table without progress=True).
  bool progress = true;
  // `report --param STUDY.KEY=VALUE`: study name -> its parameters (the ones `study NAME --param`
  // takes), checked before anything runs; a study not named runs with its defaults.
  std::map<std::string, std::map<std::string, std::string>> study_parameters;
};

struct ReportStatus {
  bool gathering = true;    // false on the MPI ranks other than 0: they ran jobs and wrote nothing
  bool all_runs_ok = true;  // every full run reached its end (failed runs are results, marked in the tables)
  bool scripts_ok = true;   // benchmarks and plots ran
};
ReportStatus write_report(const std::vector<Case>& cases, const Catalogue& catalogue, const ReportOptions& options);

// InputError ("--param PREFIXKEY=VALUE: study S has no parameter 'KEY' (expected one of: ...)")
// unless every parameter is one the study declares; PREFIX is "" for `study`, "S." for `report`.
void check_study_parameters(const StudyInfo& study, const std::map<std::string, std::string>& parameters,
                            const std::string& option_prefix);

// The same for `report --param STUDY.KEY=VALUE` (study name -> its parameters): InputError naming
// the option where a study is not in the catalogue or does not declare a key.
void check_report_parameters(const Catalogue& catalogue,
                             const std::map<std::string, std::map<std::string, std::string>>& study_parameters);

struct StudyOutcome {
  bool gathering = true;  // as ReportStatus::gathering
  std::vector<std::string> written;
  std::string hosts;      // the hosts that ran its jobs, with their types
  std::string jobs;       // how many jobs ran now and how many were reused (app/jobs/job_provenance.hpp)
  bool all_runs_ok = true;  // the full runs it needed (if any) all reached their end
};
// One study on the given cases (each must apply: InputError naming the file otherwise), with
// the full runs first when the study needs them.
StudyOutcome run_study(const StudyInfo& study, const std::vector<Case>& cases, const Catalogue& catalogue,
                       const ReportOptions& options, const std::map<std::string, std::string>& parameters);

// `tetherbench table`: every case's full runs through the same job list (threads, MPI ranks,
// resume store under options.out_dir/.jobs), with `repeats` timing passes. `gathering` is false
// on the MPI ranks other than 0, which return no rows and write nothing.
struct TableOutcome {
  std::vector<SummaryRow> rows;
  bool gathering = true;
};
TableOutcome run_table(const std::vector<Case>& cases, const Catalogue& catalogue, const ReportOptions& options, int repeats);

// The cases a study applies to.
std::vector<Case> cases_for_study(const StudyInfo& study, const std::vector<Case>& cases);

}  // namespace tb
