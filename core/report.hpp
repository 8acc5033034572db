#pragma once
// `tetherbench report`: the table of full runs (every case with every applicable integrator
// and discretisation) plus every study of the catalogue, all jobs in one parallel pool, then
// build information, benchmarks, and the plots and index drawn by scripts/plot_report.py.
// `tetherbench study NAME` runs one study the same way.

#include <string>
#include <vector>

#include "core/case.hpp"
#include "core/runner.hpp"

namespace tb {

struct ReportOptions {
  std::string out_dir = "reports";
  std::string reference_dir;    // holds <case>/final_state*.csv and paper_figures.csv
  unsigned workers = 1;         // parallel runs
  bool benchmarks = true;       // run the Google Benchmark suite and summarise it
  bool plots = true;            // run scripts/plot_report.py (matplotlib)
  std::string command;          // the command line, recorded in build_info.csv
};

struct ReportStatus {
  bool all_runs_ok = true;  // every full run reached its end (failed runs are results, marked in the tables)
  bool scripts_ok = true;   // benchmarks and plots ran
};
ReportStatus write_report(const std::vector<Case>& cases, const Catalogue& catalogue, const ReportOptions& options);

struct StudyOutcome {
  std::vector<std::string> written;
  bool all_runs_ok = true;  // the full runs it needed (if any) all reached their end
};
// One study on the given cases (each must apply: InputError naming the file otherwise), with
// the full runs first when the study needs them.
StudyOutcome run_study(const StudyInfo& study, const std::vector<Case>& cases, const Catalogue& catalogue,
                       const ReportOptions& options, const std::map<std::string, std::string>& parameters);

// The cases a study applies to.
std::vector<Case> cases_for_study(const StudyInfo& study, const std::vector<Case>& cases);

}  // namespace tb
