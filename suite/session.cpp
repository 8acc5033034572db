#include "suite/session.hpp"

#include <algorithm>

#include "app/common/output_folder.hpp"
#include "app/common/reference_search.hpp"
#include "app/input/case_loading.hpp"
#include "app/input/integrator_selection.hpp"
#include "core/table_reader.hpp"  // InputError

namespace tb {

namespace {

// The file names in a list such as StudyInfo::writes ("work_precision.csv, orders.csv, ...").
std::vector<std::string> files_named_in(const std::string& list) {
  std::vector<std::string> names;
  std::string name;
  for (char c : list + ",") {
    if (c == ',' || c == ' ' || c == ';') {
      if (name.find('.') != std::string::npos && name.find('/') == std::string::npos && name.find('*') == std::string::npos)
        names.push_back(name);
      name.clear();
    } else {
      name += c;
    }
  }
  return names;
}

}  // namespace

std::vector<std::string> Session::bundled_case_files() const { return tb::bundled_case_files(data); }

std::vector<std::string> Session::case_files_or_bundled(const std::vector<std::string>& given) const {
  return given.empty() ? bundled_case_files() : given;
}

ReportOptions Session::report_options() const {
  ReportOptions options;
  options.reference_dir = data.reference;
  options.data_root = data.root;
  options.scripts_dir = data.scripts;
  options.benchmarks_binary = data.benchmarks;
  options.command = command;
  return options;
}

ChosenRuns choose_runs(const Session& session, const CaseChoice& choice) {
  ChosenRuns chosen;
  chosen.catalogue = selected_catalogue(session.catalogue, choice.integrators);
  std::vector<Case> cases = load_cases(session.catalogue, session.case_files_or_bundled(choice.files), choice.sets, choice.limits);
  if (choice.full_horizon)
    for (auto& c : cases) c.integrator_t_end.clear();
  chosen.cases = selected_cases(cases, chosen.catalogue, choice.sets);
  return chosen;
}

std::vector<std::string> report_files(const std::vector<const StudyInfo*>& studies, bool full_runs) {
  std::vector<std::string> files = {"build_info.csv", "job_costs.csv", "jobs.csv", "index.md", "benchmarks.json", "benchmarks.log",
                                    "benchmarks.md"};
  if (full_runs) files.insert(files.end(), {"summary.csv", "summary.md"});
  for (const auto* s : studies)
    for (const auto& f : files_named_in(s->writes)) files.push_back(f);
  return files;
}

TableRun table(const Session& session, const TableRequest& request) {
  if (request.repeats < 1 || request.repeats > 1000)
    throw InputError("--repeats: expected an integer from 1 to 1000, got '" + std::to_string(request.repeats) + "'");
  ReportOptions options = session.report_options();
  if (!request.command.empty()) options.command = request.command;
  options.resume = request.resume;
  options.progress = request.progress;
  options.workers = std::max(1u, request.workers);
  options.out_dir = output_folder("--out", request.out_dir, {"summary.csv", "summary.md", "job_costs.csv", "jobs.csv"});
  ChosenRuns chosen = choose_runs(session, request.cases);
  TableRun run;
  run.out_dir = options.out_dir;
  run.outcome = run_table(chosen.cases, chosen.catalogue, options, request.repeats);
  run.cases = std::move(chosen.cases);
  return run;
}

StudyOutcome study(const Session& session, const StudyRequest& request) {
  const StudyInfo* info = session.catalogue.find_study(request.name);
  if (!info)
    throw InputError("study: unknown study '" + request.name + "' (expected one of: " +
                     join_names(session.catalogue.study_names()) + ")");
  ReportOptions options = session.report_options();
  if (!request.command.empty()) options.command = request.command;
  options.resume = request.resume;
  options.progress = request.progress;
  options.workers = std::max(1u, request.workers);
  options.out_dir = output_folder("--out", request.out_dir, report_files({info}, info->needs_full_runs));
  options.references = reference_search(request.reference_dirs, session.data, session.catalogue);
  ChosenRuns chosen = choose_runs(session, request.cases);
  if (request.cases.files.empty()) chosen.cases = cases_for_study(*info, chosen.cases);
  return run_study(*info, chosen.cases, chosen.catalogue, options, request.parameters);
}

}  // namespace tb
