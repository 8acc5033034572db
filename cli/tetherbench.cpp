// The tetherbench command line (a contract: scripts and CI depend on it; see README.md).
//   tetherbench list [--settings-table]
//   tetherbench run CASE_FILE [--integrator NAME]... [--h STEP] [--t-end T] [--out DIR] [--set NAME.KEY=VALUE]...
//   tetherbench table [CASE_FILE...] [--out DIR] [--set NAME.KEY=VALUE]...
//   tetherbench report [CASE_FILE...] [--out DIR] [--jobs N] [--no-benchmarks] [--no-plots] [--set NAME.KEY=VALUE]...
//   tetherbench study NAME [CASE_FILE...] [--out DIR] [--jobs N] [--param KEY=VALUE]... [--set NAME.KEY=VALUE]...
//   tetherbench reference [CASE_FILE...] [--out DIR]
//   tetherbench gate [CASE_FILE...] [--envelopes FILE] [--record]
//   tetherbench catenary CASE_FILE... [--elements 4,8,16,32,64] [--out DIR]   (= study catenary)
//
// Everything the suite is made of comes from the catalogue (suite/catalogue.hpp); this file
// names no model, integrator or study except the catenary alias kept for its users.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/options.hpp"
#include "core/case.hpp"
#include "core/claims_check.hpp"
#include "core/distributed.hpp"
#include "core/format.hpp"
#include "core/interrupt.hpp"
#include "core/gates.hpp"
#include "core/reference.hpp"
#include "core/report.hpp"
#include "core/runner.hpp"
#include "core/settings_doc.hpp"
#include "core/summary.hpp"
#include "suite/catalogue.hpp"

#if !defined(TETHERBENCH_CASES_DIR) || !defined(TETHERBENCH_REFERENCE_DIR)
#error "TETHERBENCH_CASES_DIR and TETHERBENCH_REFERENCE_DIR must point at the bundled cases/ and reference/"
#endif

namespace {

using namespace tb;

std::vector<std::string> bundled_case_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(TETHERBENCH_CASES_DIR))
    if (entry.path().extension() == ".toml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

constexpr const char* kSetHelp =
    "integrator setting NAME.KEY=VALUE over the case files' [integrators.NAME] (repeatable; keys: `tetherbench list`)";

std::vector<IntegratorInfo> select_integrators(const Catalogue& catalogue, const std::vector<std::string>& names) {
  if (names.empty()) return catalogue.integrators;
  std::vector<IntegratorInfo> selected;
  for (const auto& name : names) {
    const IntegratorInfo* info = catalogue.find_integrator(name);
    if (!info)
      throw InputError("--integrator: unknown integrator '" + name + "' (expected one of: " +
                       join_names(catalogue.integrator_names()) + ")");
    selected.push_back(*info);
  }
  return selected;
}

void print_row(const SummaryRow& r) {
  if (!r.outcome.ok()) {  // n/a, or no metrics to show: the run did not reach its end
    std::printf("  %-14s %s\n", r.integrator.c_str(), r.status().c_str());
    return;
  }
  std::printf("  %-14s ok     steps %-9ld |dE|max %-11.4g |dpi|max %-11.4g orth max %-11.4g runtime %.4g s\n",
              r.integrator.c_str(), r.counters.steps, r.metrics.energy_err_max, r.metrics.momentum_err_max,
              r.metrics.orthogonality_err_max, r.runtime_s);
}

int command_list(const Catalogue& catalogue) {
  std::printf("Integrators:\n");
  for (const auto& i : catalogue.integrators) {
    std::printf("  %-8s order %d  consumes %-20s %s\n", i.name.c_str(), i.order, to_string(i.consumes).c_str(),
                i.summary.c_str());
    for (const auto& s : i.settings)
      std::printf("      %-18s default %-8s %-22s %s\n", s.name.c_str(), format_setting_value(s, s.default_value).c_str(),
                  s.expectation().c_str(), s.meaning.c_str());
  }
  std::printf("\nModels:\n");
  for (const auto& m : catalogue.models) std::printf("  %-18s %s\n", m.name.c_str(), m.summary.c_str());
  std::printf("\nStudies (run by `report`, or alone with `study NAME`):\n");
  for (const auto& s : catalogue.studies) {
    std::printf("  %-16s %s; writes %s\n", s.name.c_str(), s.summary.c_str(), s.writes.c_str());
    for (const auto& p : s.parameters)
      std::printf("      --param %s=...  %s (default %s)\n", p.name.c_str(), p.meaning.c_str(), p.default_value.c_str());
  }
  std::printf("\nBundled cases (%s) and the runs that apply:\n", TETHERBENCH_CASES_DIR);
  for (const auto& c : cli::load_cases(catalogue, bundled_case_files(), {}, RunLimits{})) {
    std::printf("  %s  [%s, %s]\n    %s\n", c.name.c_str(), c.model_name.c_str(),
                std::filesystem::path(c.file).filename().c_str(), c.description.c_str());
    for (const auto& d : c.model->discretisations())
      for (const auto& i : catalogue.integrators) {
        const std::string label = run_label(i.name, *c.model, d);
        if (const auto why = why_not_applicable(c, i, d)) std::printf("    %-14s n/a: %s\n", label.c_str(), why->c_str());
        else std::printf("    %-14s yes\n", label.c_str());
      }
  }
  return 0;
}

// Options shared by the commands that run cases: resource limits and --set.
// The text of an option when it was given (even empty: "--h ''" is a bad value, not "absent").
std::optional<std::string> given(const CLI::Option* option, const std::string& text) {
  return option->count() > 0 ? std::optional<std::string>(text) : std::nullopt;
}

struct RunInputs {
  std::vector<std::string> sets;
  bool full_horizon = false;
  std::string max_steps, max_samples, max_state;
  CLI::Option *steps_opt = nullptr, *samples_opt = nullptr, *state_opt = nullptr;
  void add_to(CLI::App* command) {
    command->add_option("--set", sets, kSetHelp)->allow_extra_args(false);
    steps_opt = command->add_option("--max-steps", max_steps, "refuse runs of more fixed steps than this (default 1e9)");
    samples_opt = command->add_option("--max-samples", max_samples, "refuse runs of more samples than this (default 1e7)");
    state_opt = command->add_option("--max-state", max_state, "refuse models whose state holds more numbers than this (default 1e7)");
    command->add_flag("--full-horizon", full_horizon,
                      "run every integrator over its case's full horizon ([case] t_end), ignoring [case] integrator_t_end "
                      "(the main job shortens some costly runs; the tables then compare them over the shared window)");
  }
  RunLimits limits() const {
    return cli::limits(given(steps_opt, max_steps), given(samples_opt, max_samples), given(state_opt, max_state));
  }
  std::vector<Case> load(const Catalogue& catalogue, const std::vector<std::string>& files) const {
    std::vector<Case> cases = cli::load_cases(catalogue, files, sets, limits());
    if (full_horizon)
      for (auto& c : cases) c.integrator_t_end.clear();
    return cases;
  }
};

// Exit statuses (README "Exit statuses"): 0 every run ok; 1 a run failed or was interrupted
// (its row is in the summary); 2 a usage or input error, before anything is written; 3 an I/O or
// internal error.
constexpr int kRunFailed = 1, kUsageError = 2, kInternalError = 3;

int finish(bool all_ok) {
  if (interrupted()) {
    std::fprintf(stderr, "tetherbench: interrupted; what was written is kept, the runs cut short are marked\n");
    return kRunFailed;
  }
  return all_ok ? 0 : kRunFailed;
}

}  // namespace

// Started by mpirun or srun (their environment says so): one rank of a distributed run.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

// MPI for the whole of main under mpirun/srun (core/distributed.hpp); ended on every return.
struct DistributedSession {
  DistributedSession(int* argc, char*** argv) {
    if (launched_by_mpi()) distributed_init(argc, argv);
  }
  ~DistributedSession() { distributed_finalize(); }
};

int main(int argc, char** argv) {
  DistributedSession session(&argc, &argv);
  CLI::App app{"tetherbench: integrators for tethered multibody systems, compared on the same models and cases"};
  app.require_subcommand(1);

  auto* list = app.add_subcommand("list", "integrators and their settings, models, studies, cases and which runs apply");
  bool settings_table = false;
  list->add_flag("--settings-table", settings_table, "print only the Markdown table of every integrator setting (cases/README.md)");

  auto* run = app.add_subcommand("run", "run one case with the chosen integrators (all applicable if none named)");
  std::string case_file, h_text, t_end_text, run_out = "results", run_repeats = "1";
  std::vector<std::string> integrator_names;
  RunInputs run_inputs;
  run->add_option("CASE_FILE", case_file, "case file (TOML, see cases/README.md)")->required()->check(CLI::ExistingFile);
  run->add_option("--integrator", integrator_names, "integrator name (repeatable)");
  auto* h_opt = run->add_option("--h", h_text, "step size (s), overrides the case file");
  auto* t_opt = run->add_option("--t-end", t_end_text, "end time (s), overrides the case file");
  run->add_option("--out", run_out, "output folder")->capture_default_str();
  run->add_option("--repeats", run_repeats, "timing passes; runtime is their minimum")->capture_default_str();
  run_inputs.add_to(run);

  auto* table = app.add_subcommand("table", "run every case x integrator and write summary.csv and summary.md");
  std::vector<std::string> table_cases;
  std::string table_out = "results", table_repeats = "1", table_jobs = "1";
  bool table_resume = false, report_resume = false, study_resume = false;
  constexpr const char* kResumeHelp =
      "reuse the results a cut-short run stored in DIR/.jobs (matching fingerprints only); run only the missing jobs";
  RunInputs table_inputs;
  table->add_option("CASE_FILE", table_cases, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
  table->add_option("--out", table_out, "output folder")->capture_default_str();
  table->add_option("--repeats", table_repeats, "timing passes; runtime is their minimum")->capture_default_str();
  table->add_option("--jobs", table_jobs, "parallel runs (per process under mpirun)")->capture_default_str();
  table->add_flag("--resume", table_resume, kResumeHelp);
  table_inputs.add_to(table);

  auto* report = app.add_subcommand("report", "the main job: tables, every study (work-precision sweeps, orders, paper "
                                              "comparisons, ...), benchmarks and plots for every bundled case");
  std::vector<std::string> report_cases;
  std::string report_out = "reports", report_jobs = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  bool no_benchmarks = false, no_plots = false;
  RunInputs report_inputs;
  report->add_option("CASE_FILE", report_cases, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
  report->add_option("--out", report_out, "output folder")->capture_default_str();
  report->add_option("--jobs", report_jobs, "parallel runs (per process under mpirun)")->capture_default_str();
  report->add_flag("--resume", report_resume, kResumeHelp);
  report->add_flag("--no-benchmarks", no_benchmarks, "skip the Google Benchmark step-cost suite");
  report->add_flag("--no-plots", no_plots, "skip the matplotlib figures and index.md");
  report_inputs.add_to(report);

  auto* study = app.add_subcommand("study", "run one study (see `tetherbench list`) on case files");
  std::string study_name, study_out = "results", study_jobs = report_jobs;
  std::vector<std::string> study_cases, study_params;
  RunInputs study_inputs;
  study->add_option("NAME", study_name, "study name")->required();
  study->add_option("CASE_FILE", study_cases, "case files (default: the bundled cases it applies to)")->check(CLI::ExistingFile);
  study->add_option("--out", study_out, "output folder")->capture_default_str();
  study->add_option("--jobs", study_jobs, "parallel runs (per process under mpirun)")->capture_default_str();
  study->add_flag("--resume", study_resume, kResumeHelp);
  study->add_option("--param", study_params, "study parameter KEY=VALUE (repeatable; see `tetherbench list`)")->allow_extra_args(false);
  study_inputs.add_to(study);

  auto* reference = app.add_subcommand("reference", "recompute the reference solutions of the cases");
  std::vector<std::string> reference_cases;
  std::string reference_out = TETHERBENCH_REFERENCE_DIR;
  reference->add_option("CASE_FILE", reference_cases, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
  reference->add_option("--out", reference_out, "reference folder")->capture_default_str();

  auto* gate = app.add_subcommand("gate", "CI regression gates: short runs checked against conservation envelopes");
  std::vector<std::string> gate_cases;
  std::string envelopes_file = std::string(TETHERBENCH_REFERENCE_DIR) + "/envelopes.csv";
  bool record = false;
  gate->add_option("CASE_FILE", gate_cases, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
  gate->add_option("--envelopes", envelopes_file, "envelope file")->capture_default_str();
  gate->add_flag("--record", record, "re-measure the 'recorded' envelopes of these cases and rewrite the file");

  auto* claims = app.add_subcommand(
      "check-claims", "list every verdict a report prints that its own tables contradict (exit status 1 if any)");
  std::string claims_dir;
  claims->add_option("REPORT_DIR", claims_dir, "a report folder (tetherbench report --out)")->required()->check(CLI::ExistingDirectory);

  // Kept for its users: `catenary CASE... --elements N,N,...` is `study catenary CASE... --param elements=N,N,...`.
  auto* catenary = app.add_subcommand("catenary", "alias of `study catenary`");
  std::vector<std::string> catenary_cases;
  std::string catenary_elements;
  std::string catenary_out = "results";
  catenary->add_option("CASE_FILE", catenary_cases, "case files the catenary study applies to")->required()->check(CLI::ExistingFile);
  auto* elements_opt =
      catenary->add_option("--elements", catenary_elements, "element counts N, increasing, each >= 2 (comma-separated)");
  catenary->add_option("--out", catenary_out, "output folder (catenary.csv)")->capture_default_str();

  // The command-line library's own errors are usage errors too (exit status 2, like a bad case
  // key); only --help and its kin end with 0.
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11 says "A subcommand is required" for a misspelt one: name it.
    std::vector<std::string> commands;
    for (const auto* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
    if (argc > 1 && argv[1][0] != '-' && std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
      std::fprintf(stderr, "tetherbench: unknown command '%s' (expected one of: %s)\n", argv[1], join_names(commands).c_str());
      return kUsageError;
    }
    // An option the command does not take is named, rather than its value being mistaken for
    // a case file.
    if (argc > 1) {
      const CLI::App* command = nullptr;
      for (const auto* sub : app.get_subcommands({}))
        if (sub->get_name() == argv[1]) command = sub;
      for (int i = 2; command && i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0 || arg == "--") continue;
        const std::string name = arg.substr(0, arg.find('='));
        if (!command->get_option_no_throw(name) && name != "--help") {
          std::fprintf(stderr, "tetherbench %s: unknown option '%s' (see `tetherbench %s --help`)\n", argv[1],
                       name.c_str(), argv[1]);
          return kUsageError;
        }
      }
    }
    std::fprintf(stderr, "tetherbench: %s (see `tetherbench --help`)\n", e.what());
    return kUsageError;
  }
  std::string command_line = "tetherbench";
  for (int i = 1; i < argc; ++i) command_line += std::string(" ") + argv[i];

  try {
    const Catalogue& catalogue = suite_catalogue();
    if (list->parsed()) {
      if (settings_table) {
        std::fputs(settings_markdown(catalogue).c_str(), stdout);
        return 0;
      }
      return command_list(catalogue);
    }
    install_interrupt_handlers();
    if (process_count() > 1 && !(table->parsed() || report->parsed() || study->parsed() || catenary->parsed()))
      throw InputError(std::string(argv[1]) + ": only table, report and study run distributed; start it without mpirun/srun (" +
                       std::to_string(process_count()) + " ranks here)");

    if (run->parsed()) {
      RunOptions options;
      options.out_dir = cli::output_folder("--out", run_out);
      if (h_opt->count()) options.h = cli::positive_number("--h", h_text, "s");
      if (t_opt->count()) options.t_end = cli::positive_number("--t-end", t_end_text, "s");
      options.repeats = cli::count("--repeats", run_repeats, 1000);
      options.progress = true;
      cli::refuse_repeats("--integrator", integrator_names);
      Case c = run_inputs.load(catalogue, {case_file}).front();
      const double t_end = options.t_end.value_or(c.t_end), h = options.h.value_or(c.h);
      if (h > t_end)
        throw InputError("--h " + format_g(h) + ": expected a step no longer than the end time " + format_g(t_end) + " s");
      // The limits hold for the run as the options change it.
      const RunLimits limits = run_inputs.limits();
      if (!(t_end / h <= limits.max_steps))
        throw InputError("--h " + format_g(h) + " --t-end " + format_g(t_end) + ": " + format_g(t_end / h, 3) +
                         " steps exceed the limit " + format_g(limits.max_steps, 3) + " (raise it on purpose with --max-steps)");
      if (!(t_end / c.sample_interval <= limits.max_samples))
        throw InputError("--t-end " + format_g(t_end) + ": " + format_g(t_end / c.sample_interval, 3) +
                         " samples exceed the limit " + format_g(limits.max_samples, 3) +
                         " (raise it on purpose with --max-samples)");
      c.t_end = t_end;
      c.h = h;
      const auto integrators = select_integrators(catalogue, integrator_names);
      const auto keys = runs_of(c, integrators);
      std::string reasons;
      bool any = false;
      for (const auto& key : keys)
        if (const auto why = why_not_applicable(c, *key.integrator, key.discretisation)) reasons += "; " + key.label() + ": " + *why;
        else any = true;
      if (!any) throw InputError("--integrator: none of the chosen integrators runs case " + c.name + " (" + reasons.substr(2) + ")");
      const std::string summary = (std::filesystem::path(options.out_dir) / "summary.csv").string();
      check_summary_appendable(summary);
      std::printf("%s (%s)\n", c.name.c_str(), c.file.c_str());
      bool all_ok = true;
      for (const auto& key : keys) {
        const SummaryRow row = run_case(key, options);
        append_summary_csv(summary, row);
        print_row(row);
        all_ok = all_ok && !row.outcome.no_result();
      }
      return finish(all_ok);
    }

    if (table->parsed()) {
      ReportOptions options;
      options.out_dir = cli::output_folder("--out", table_out);
      const int repeats = cli::count("--repeats", table_repeats, 1000);
      options.workers = unsigned(cli::count("--jobs", table_jobs, 1024));
      options.resume = table_resume;
      options.command = command_line;
      const auto cases = table_inputs.load(catalogue, table_cases.empty() ? bundled_case_files() : table_cases);
      const TableOutcome table_run = run_table(cases, catalogue, options, repeats);
      if (!table_run.gathering) return 0;  // another MPI rank: rank 0 prints and writes
      bool all_ok = true;
      std::string current;
      for (const auto& row : table_run.rows) {
        if (row.case_name != current) {
          current = row.case_name;
          for (const auto& c : cases)
            if (c.name == current) std::printf("%s (%s)\n", c.name.c_str(), c.file.c_str());
        }
        print_row(row);
        all_ok = all_ok && !row.outcome.no_result();
      }
      const auto dir = std::filesystem::path(options.out_dir);
      std::printf("wrote %s and %s\n", (dir / "summary.csv").c_str(), (dir / "summary.md").c_str());
      return finish(all_ok);
    }

    ReportOptions report_options;
    report_options.reference_dir = TETHERBENCH_REFERENCE_DIR;
    report_options.command = command_line;

    if (report->parsed()) {
      report_options.out_dir = cli::output_folder("--out", report_out);
      report_options.workers = unsigned(cli::count("--jobs", report_jobs, 1024));
      report_options.benchmarks = !no_benchmarks;
      report_options.plots = !no_plots;
      report_options.resume = report_resume;
      const auto cases = report_inputs.load(catalogue, report_cases.empty() ? bundled_case_files() : report_cases);
      const auto start = std::chrono::steady_clock::now();
      const ReportStatus status = write_report(cases, catalogue, report_options);
      if (!status.gathering) return 0;  // another MPI rank: rank 0 writes the report
      std::printf("report written to %s (%.1f s)%s\n", report_options.out_dir.c_str(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                  status.scripts_ok ? "" : " -- a script step failed, see above");
      if (!status.scripts_ok) return kInternalError;
      return finish(status.all_runs_ok);
    }

    if (study->parsed() || catenary->parsed()) {
      std::map<std::string, std::string> parameters;
      if (catenary->parsed()) {
        study_name = "catenary";
        study_cases = catenary_cases;
        study_out = catenary_out;
        if (elements_opt->count()) parameters["elements"] = catenary_elements;
      }
      const StudyInfo* info = catalogue.find_study(study_name);
      if (!info)
        throw InputError("study: unknown study '" + study_name + "' (expected one of: " + join_names(catalogue.study_names()) + ")");
      for (const auto& p : study_params) {
        const auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == p.size() || p.find_first_of("\n\r") != std::string::npos)
          throw InputError("--param " + p + ": expected KEY=VALUE on one line");
        if (!parameters.emplace(p.substr(0, eq), p.substr(eq + 1)).second)
          throw InputError("--param " + p + ": '" + p.substr(0, eq) + "' is given twice");
      }
      report_options.out_dir = cli::output_folder("--out", study_out);
      report_options.workers = unsigned(cli::count("--jobs", study_jobs, 1024));
      report_options.resume = study_resume;
      auto cases = study_inputs.load(catalogue, study_cases.empty() ? bundled_case_files() : study_cases);
      if (study_cases.empty()) cases = cases_for_study(*info, cases);
      const StudyOutcome outcome = run_study(*info, cases, catalogue, report_options, parameters);
      if (!outcome.gathering) return 0;
      for (const auto& path : outcome.written) std::printf("wrote %s\n", path.c_str());
      return finish(outcome.all_runs_ok);
    }

    if (reference->parsed()) {
      cli::output_folder("--out", reference_out);
      const auto cases = cli::load_cases(catalogue, reference_cases.empty() ? bundled_case_files() : reference_cases, {},
                                         RunLimits{});
      for (const auto& path : write_references(cases, catalogue, reference_out, command_line))
        std::printf("wrote %s\n", path.c_str());
      return finish(true);
    }

    if (claims->parsed()) {
      if (!std::filesystem::exists(std::filesystem::path(claims_dir) / "summary.csv"))
        throw InputError("REPORT_DIR " + claims_dir + ": expected a report folder holding summary.csv");
      const auto violations = check_claims(claims_dir);
      for (const auto& v : violations) std::printf("CONTRADICTED: %s\n", v.line().c_str());
      std::printf("%zu verdict(s) contradicted by the report's own data\n", violations.size());
      return violations.empty() ? 0 : kRunFailed;
    }

    if (gate->parsed()) {
      const auto cases = cli::load_cases(catalogue, gate_cases.empty() ? bundled_case_files() : gate_cases, {}, RunLimits{});
      if (envelopes_file.empty()) throw InputError("--envelopes: expected an envelope file, got an empty path");
      auto envelopes = read_envelopes(envelopes_file);
      check_envelope_metrics(envelopes_file, envelopes);
      if (record) {
        for (const auto& c : cases) envelopes = record_envelopes(c, catalogue, envelopes);
        if (interrupted()) return finish(false);  // partial measurements are never recorded
        write_envelopes(envelopes_file, envelopes);
        std::printf("recorded envelopes of %zu case(s) in %s\n", cases.size(), envelopes_file.c_str());
        return 0;
      }
      int failed = 0, checked = 0;
      for (const auto& c : cases)
        for (const auto& g : check_gates(c, catalogue, envelopes)) {
          ++checked;
          if (g.pass) std::printf("gate ok:     %s\n", g.message.c_str());
          else ++failed, std::printf("GATE FAILED: %s\n", g.message.c_str());
        }
      std::printf("%d passed, %d failed\n", checked - failed, failed);
      return failed == 0 ? finish(true) : kRunFailed;
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "tetherbench: %s\n", e.what());
    return distributed_abort(kUsageError);  // under mpirun: every rank ends, none waits for this one
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tetherbench: error: %s\n", e.what());
    return distributed_abort(kInternalError);
  }
  return 0;
}
