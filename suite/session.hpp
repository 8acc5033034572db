#pragma once
// What the command line and the Python package run with, and the commands both offer, written
// once (issue 45 item 4): cli/commands.cpp and python/module.cpp fill a request from their own
// options or arguments and call the same function, so that a table or a study run from a notebook
// checks its inputs, chooses its cases and writes its folder exactly as `tetherbench table` or
// `tetherbench study` does.

#include <map>
#include <string>
#include <vector>

#include "app/common/data_paths.hpp"
#include "app/input/case.hpp"
#include "app/input/catalogue.hpp"
#include "app/input/limits.hpp"
#include "app/writing/report.hpp"

namespace tb {

struct Session {
  Catalogue catalogue;  // the suite's, with the plugins' entries
  DataPaths data;       // bundled cases, reference data, scripts, the benchmark binary
  // How the outputs record the command that wrote them: "tetherbench table --out r", "tetherbench.table()".
  std::string command;
  std::vector<std::string> bundled_case_files() const;
  // The files given, or every bundled case when none is.
  std::vector<std::string> case_files_or_bundled(const std::vector<std::string>& given) const;
  // The options every report, table and study starts from: the data folder's paths and the command.
  ReportOptions report_options() const;
};

// Which cases a command runs, and with which integrators.
struct CaseChoice {
  std::vector<std::string> files;        // none: every bundled case (a study: those it applies to)
  std::vector<std::string> integrators;  // none: all (--integrator)
  std::vector<std::string> sets;         // NAME.KEY=VALUE over the case files' settings (--set)
  RunLimits limits;
  bool full_horizon = false;  // every integrator over the case's t_end, [case] integrator_t_end ignored
};
struct ChosenRuns {
  Catalogue catalogue;  // the session's with only the chosen integrators compared
  std::vector<Case> cases;
};
// The cases loaded and checked against the session's catalogue, as the chosen integrators run
// them. InputError naming the file or option and what was expected.
ChosenRuns choose_runs(const Session& session, const CaseChoice& choice);

// The top-level files a report or study folder receives, checked before anything runs (output_folder).
std::vector<std::string> report_files(const std::vector<const StudyInfo*>& studies, bool full_runs);

// `table`: every chosen case with every chosen integrator, summary.csv and summary.md in out_dir.
struct TableRequest {
  CaseChoice cases;
  std::string out_dir;
  int repeats = 1;       // timing passes, 1 to 1000
  unsigned workers = 1;
  bool resume = false;   // reuse the results stored in out_dir/.jobs whose inputs and build match
  bool progress = false;
  std::string command;   // as recorded in the outputs; "": the session's
};
struct TableRun {
  std::vector<Case> cases;  // as run, for the caller's printing
  TableOutcome outcome;
  std::string out_dir;      // as checked
};
TableRun table(const Session& session, const TableRequest& request);

// `study NAME`: one study of the catalogue on the chosen cases (none given: the bundled ones it applies to).
struct StudyRequest {
  std::string name;
  CaseChoice cases;
  std::map<std::string, std::string> parameters;  // KEY=VALUE of the study (`tetherbench list`)
  std::vector<std::string> reference_dirs;         // searched before the bundled reference/ folder
  std::string out_dir;
  unsigned workers = 1;
  bool resume = false;
  bool progress = false;
  std::string command;  // as recorded in the outputs; "": the session's
};
StudyOutcome study(const Session& session, const StudyRequest& request);

}  // namespace tb
