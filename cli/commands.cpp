#include "cli/commands.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <tuple>

#include "app/input/case_loading.hpp"
#include "app/writing/case_run.hpp"
#include "app/judging/claims_check.hpp"
#include "app/jobs/distributed.hpp"
#include "app/judging/gate_session.hpp"
#include "app/judging/gates.hpp"
#include "app/input/integrator_selection.hpp"
#include "app/judging/order_gate.hpp"
#include "app/running/plugins.hpp"
#include "app/running/interrupt.hpp"
#include "app/judging/metric_cells.hpp"
#include "app/judging/readme_orders.hpp"
#include "app/writing/coverage.hpp"
#include "app/common/markdown_table.hpp"
#include "app/writing/report_index.hpp"
#include "app/writing/figure_plan.hpp"
#include "app/running/external_steps.hpp"
#include "app/running/reference.hpp"
#include "app/writing/report.hpp"
#include "app/running/runner.hpp"
#include "app/input/settings_doc.hpp"
#include "app/input/study.hpp"
#include "app/writing/summary.hpp"
#include "app/running/plugins.hpp"
#include "conformance/plugin_check.hpp"
#include "suite/conformance_bench.hpp"
#include "cli/options.hpp"
#include "core/format.hpp"

namespace fs = std::filesystem;

namespace tb::cli {

namespace {

constexpr const char* kSetHelp =
    "integrator setting NAME.KEY=VALUE over the case files' [integrators.NAME] (repeatable; keys: `tetherbench list`)";
// A job's result is stored in DIR/.jobs under its fingerprint: its inputs and the build's identity
// (app/common/build_identity.hpp). Running into the same folder again reuses every stored result whose
// fingerprint matches and runs the rest (a changed case, integrator, plugin or build runs again);
// --fresh runs everything. --resume, which once turned reuse on, is the default and stays accepted.
struct ReuseFlags {
  bool resume = false, fresh = false;
  void add_to(CLI::App* subcommand) {
    subcommand->add_flag("--resume", resume,
                         "reuse the results stored in DIR/.jobs whose inputs and build match (the default)");
    subcommand->add_flag("--fresh", fresh,
                         "run every job again, ignoring the results stored in DIR/.jobs (by default a stored result is "
                         "reused when its inputs and this build's identity match)");
  }
  bool reuse() const {
    if (resume && fresh) throw InputError("--fresh: expected --fresh or --resume, got both");
    return !fresh;
  }
};

constexpr const char* kSelectionHelp =
    "run only this integrator (repeatable; default all), in every table and study: e.g. a plugin's beside the "
    "built-ins it is compared with";
constexpr const char* kReferenceDirHelp =
    "a folder of your cases' reference solutions (written by `tetherbench reference --out DIR`); repeatable: searched "
    "in the order given, then the bundled reference/ folder, each case read from the first folder holding it";

std::string default_jobs() { return std::to_string(std::max(1u, std::thread::hardware_concurrency())); }

// The text of an option when it was given (even empty: "--h ''" is a bad value, not "absent").
// (A command without the option, as the catenary alias without limits: absent.)
std::optional<std::string> given(const CLI::Option* option, const std::string& text) {
  return option && option->count() > 0 ? std::optional<std::string>(text) : std::nullopt;
}

void print_row(const SummaryRow& r) {
  if (!r.outcome.ok()) {  // n/a, or no metrics to show: the run did not reach its end
    std::printf("  %-14s %s\n", r.integrator.c_str(), r.status().c_str());
    return;
  }
  // The registry's headline metrics; one the run's formulation cannot violate is left out, never
  // printed as its 0 (summary.csv's not_integrated names it).
  std::string metrics;
  for (const MetricSpec* m : headline_metrics())
    if (r.violable.covers(*m)) metrics += "  " + std::string(m->label) + " " + metric_cell(r, *m);
  std::printf("  %-14s ok     steps %-9ld%s  runtime %.4g s\n", r.integrator.c_str(), r.counters.steps, metrics.c_str(),
              r.runtime_s);
}

// `tetherbench list [--settings-table]`
class ListCommand : public Command {
 public:
  explicit ListCommand(CLI::App& app) {
    subcommand = app.add_subcommand("list", "integrators and their settings, models, studies, cases and which runs apply");
    subcommand->add_flag("--settings-table", settings_table_,
                         "print only the Markdown table of every integrator setting (cases/README.md)");
  }
  bool runs_cases() const override { return false; }
  int execute(Session& session) override {
    const Catalogue& catalogue = session.catalogue;
    if (settings_table_) {
      std::fputs(settings_markdown(catalogue).c_str(), stdout);
      return 0;
    }
    std::printf("Integrators:\n");
    for (const auto& i : catalogue.integrators) {
      std::printf("  %-8s order %d  consumes %-20s %s%s\n", i.name.c_str(), i.order, to_string(i.consumes).c_str(),
                  i.summary.c_str(), from(catalogue, "integrator", i.name).c_str());
      for (const auto& s : i.settings)
        std::printf("      %-18s default %-8s %-22s %s\n", s.name.c_str(), format_setting_default(s).c_str(),
                    s.expectation().c_str(), s.meaning.c_str());
    }
    std::printf("\nModels:\n");
    for (const auto& m : catalogue.models)
      std::printf("  %-18s %s%s\n", m.name.c_str(), m.summary.c_str(), from(catalogue, "model", m.name).c_str());
    std::printf("\nStudies (run by `report`, or alone with `study NAME`):\n");
    for (const auto& s : catalogue.studies) {
      std::printf("  %-16s %s; writes %s%s\n", s.name.c_str(), s.summary.c_str(), s.writes.c_str(),
                  from(catalogue, "study", s.name).c_str());
      for (const auto& p : s.parameters)
        std::printf("      --param %s=...  %s (default %s)\n", p.name.c_str(), p.meaning.c_str(), p.default_value.c_str());
    }
    for (const auto& p : catalogue.plugins)
      std::printf("\nPlugin %s %s (file hash %s): %s\n", p.name.c_str(), p.version.c_str(), p.hash.c_str(), p.file.c_str());
    std::printf("\nBundled cases (%s) and the runs that apply:\n", session.data.cases.c_str());
    for (const auto& c : load_cases(catalogue, session.bundled_case_files(), {}, RunLimits{})) {
      std::printf("  %s  [%s, %s]\n    %s\n", c.name.c_str(), c.model_name.c_str(), fs::path(c.file).filename().c_str(),
                  c.description.c_str());
      for (const auto& d : c.model->discretisations())
        for (const auto& i : catalogue.integrators) {
          const std::string label = run_label(i.name, *c.model, d);
          if (const auto why = why_not_applicable(c, i, d)) std::printf("    %-14s n/a: %s\n", label.c_str(), why->c_str());
          else std::printf("    %-14s yes\n", label.c_str());
        }
    }
    return 0;
  }

 private:
  static std::string from(const Catalogue& catalogue, const std::string& kind, const std::string& name) {
    const std::string origin = catalogue.origin(kind, name);
    return origin.empty() ? "" : " [" + origin + "]";
  }
  bool settings_table_ = false;
};

// `tetherbench run CASE_FILE [--integrator NAME]... [--h STEP] [--t-end T] [--out DIR] ...`
class RunCommand : public Command {
 public:
  explicit RunCommand(CLI::App& app) {
    subcommand = app.add_subcommand("run", "run one case with the chosen integrators (all applicable if none named)");
    subcommand->add_option("CASE_FILE", case_file_, "case file (TOML, see cases/README.md)")->required()->check(CLI::ExistingFile);
    subcommand->add_option("--integrator", integrator_names_, "integrator name (repeatable)")->allow_extra_args(false);
    h_opt_ = subcommand->add_option("--h", h_text_, "step size (s), overrides the case file");
    t_opt_ = subcommand->add_option("--t-end", t_end_text_, "end time (s), overrides the case file");
    subcommand->add_option("--out", out_, "output folder")->capture_default_str();
    subcommand->add_option("--repeats", repeats_, "timing passes; runtime is their minimum")->capture_default_str();
    subcommand->add_option("--min-timed-s", min_timed_text_,
                           "seconds (default " + format_g(kMinTimedSeconds) + "): a run whose passes total less is timed over further unobserved passes "
                           "until they reach it; 0: the --repeats passes alone. Never for an interpreted (Python) method, "
                           "whose passes would repeat its step's side effects");
    inputs_.add_to(subcommand);
  }
  int execute(Session& session) override {
    CaseRunRequest request;
    request.run.out_dir = output_folder("--out", out_, {"summary.csv"});
    if (h_opt_->count()) request.run.h = positive_number("--h", h_text_, "s");
    if (t_opt_->count()) request.run.t_end = positive_number("--t-end", t_end_text_, "s");
    request.run.repeats = count("--repeats", repeats_, 1000);
    if (!min_timed_text_.empty()) request.run.min_timed_s = non_negative_number("--min-timed-s", min_timed_text_, "s");
    request.run.progress = true;
    request.limits = inputs_.limits();
    request.integrators = integrator_names_;
    request.sets = inputs_.sets;
    const CaseRun run(inputs_.load(session.catalogue, {case_file_}).front(), session.catalogue, request);
    std::printf("%s (%s)\n", run.the_case().name.c_str(), run.the_case().file.c_str());
    bool all_ok = true;
    run.run(
        [&](const SummaryRow& row) {
          print_row(row);
          all_ok = all_ok && !row.outcome.no_result();
        },
        // What runs, from the request the runner takes: the step and horizon printed are those that ran.
        [](const RunRequest& r) { std::printf("  %-14s %s\n", r.key.label().c_str(), request_words(r).c_str()); });
    return finish(all_ok);
  }

 private:
  std::string case_file_, h_text_, t_end_text_, out_ = "results", repeats_ = "1", min_timed_text_;
  std::vector<std::string> integrator_names_;
  CLI::Option *h_opt_ = nullptr, *t_opt_ = nullptr;
  CaseRunOptions inputs_;
};

// `tetherbench table [CASE_FILE...] [--out DIR] [--repeats N] [--jobs N] [--fresh] ...`
class TableCommand : public Command {
 public:
  explicit TableCommand(CLI::App& app) {
    subcommand = app.add_subcommand("table", "run every case x integrator and write summary.csv and summary.md");
    subcommand->add_option("CASE_FILE", cases_, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
    subcommand->add_option("--out", out_, "output folder")->capture_default_str();
    subcommand->add_option("--repeats", repeats_, "timing passes; runtime is their minimum")->capture_default_str();
    subcommand->add_option("--jobs", jobs_, "parallel runs (per process under mpirun)")->capture_default_str();
    reuse_.add_to(subcommand);
    subcommand->add_option("--integrator", integrator_names_, kSelectionHelp)->allow_extra_args(false);
    inputs_.add_to(subcommand);
  }
  bool distributes() const override { return true; }
  int execute(Session& session) override {
    TableRequest request;
    request.resume = reuse_.reuse();  // a contradiction is refused before anything is written
    request.progress = true;
    request.out_dir = out_;
    request.repeats = count("--repeats", repeats_, 1000);
    request.workers = unsigned(count("--jobs", jobs_, 1024));
    request.cases = inputs_.choice(cases_, integrator_names_);
    const TableRun run = table(session, request);
    if (!run.outcome.gathering) return 0;  // another MPI rank: rank 0 prints and writes
    bool all_ok = true;
    std::string current;
    for (const auto& row : run.outcome.rows) {
      if (row.case_name != current) {
        current = row.case_name;
        for (const auto& c : run.cases)
          if (c.name == current) std::printf("%s (%s)\n", c.name.c_str(), c.file.c_str());
      }
      print_row(row);
      all_ok = all_ok && !row.outcome.no_result();
    }
    const auto dir = fs::path(run.out_dir);
    std::printf("wrote %s and %s\n", (dir / "summary.csv").c_str(), (dir / "summary.md").c_str());
    return finish(all_ok);
  }

 private:
  std::vector<std::string> cases_, integrator_names_;
  // All cores, as `report` and `study`: the parallel pool changes wall time only, never a result
  // (the job store and MPI tests hold tables equal whatever the worker count); --jobs 1 for
  // timings on an otherwise idle machine.
  std::string out_ = "results", repeats_ = "1", jobs_ = default_jobs();
  ReuseFlags reuse_;
  CaseRunOptions inputs_;
};

// `tetherbench report [CASE_FILE...] [--out DIR] [--jobs N] [--no-benchmarks] [--no-plots] ...`
class ReportCommand : public Command {
 public:
  explicit ReportCommand(CLI::App& app) {
    subcommand = app.add_subcommand("report", "the main job: tables, every study (work-precision sweeps, orders, paper "
                                              "comparisons, ...), benchmarks and plots for every bundled case");
    subcommand->add_option("CASE_FILE", cases_, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
    subcommand->add_option("--out", out_, "output folder")->capture_default_str();
    subcommand->add_option("--jobs", jobs_, "parallel runs (per process under mpirun)")->capture_default_str();
    reuse_.add_to(subcommand);
    subcommand->add_flag("--no-benchmarks", no_benchmarks_, "skip the Google Benchmark step-cost suite");
    subcommand->add_flag("--no-plots", no_plots_, "skip the matplotlib figures (index.md is written without them)");
    subcommand->add_option("--reference-dir", reference_dirs_, kReferenceDirHelp)->allow_extra_args(false);
    subcommand->add_option("--integrator", integrator_names_, kSelectionHelp)->allow_extra_args(false);
    subcommand->add_option("--param", params_,
                           "study parameter STUDY.KEY=VALUE (repeatable; the keys `study STUDY --param` takes, "
                           "see `tetherbench list`), e.g. stability_map.sweeps=none")
        ->allow_extra_args(false);
    inputs_.add_to(subcommand);
  }
  bool distributes() const override { return true; }
  int execute(Session& session) override {
    ReportOptions options = session.report_options();
    options.resume = reuse_.reuse();  // a contradiction is refused before anything is written
    options.study_parameters = study_parameters(session.catalogue);
    std::vector<const StudyInfo*> studies;
    for (const auto& s : session.catalogue.studies) studies.push_back(&s);
    options.out_dir = output_folder("--out", out_, report_files(studies, true));
    options.workers = unsigned(count("--jobs", jobs_, 1024));
    options.benchmarks = !no_benchmarks_;
    options.plots = !no_plots_;
    options.references = reference_search(reference_dirs_, session.data, session.catalogue);
    const ChosenRuns chosen = choose_runs(session, inputs_.choice(cases_, integrator_names_));
    const auto start = std::chrono::steady_clock::now();
    const ReportStatus status = write_report(chosen.cases, chosen.catalogue, options);
    if (!status.gathering) return 0;  // another MPI rank: rank 0 writes the report
    std::printf("report written to %s (%.1f s)%s\n", options.out_dir.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                status.scripts_ok ? "" : " -- a script step failed, see above");
    if (!status.scripts_ok) return kInternalError;
    return finish(status.all_runs_ok);
  }

 private:
  // --param STUDY.KEY=VALUE, each checked against the catalogue's studies before anything is written.
  std::map<std::string, std::map<std::string, std::string>> study_parameters(const Catalogue& catalogue) const {
    std::map<std::string, std::map<std::string, std::string>> out;
    for (const auto& p : params_) {
      const auto eq = p.find('='), dot = p.find('.');
      if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 >= eq || eq + 1 == p.size() ||
          p.find_first_of("\n\r") != std::string::npos)
        throw InputError("--param " + p + ": expected STUDY.KEY=VALUE on one line");
      const std::string study = p.substr(0, dot), key = p.substr(dot + 1, eq - dot - 1);
      if (!out[study].emplace(key, p.substr(eq + 1)).second) throw InputError("--param " + p + ": '" + study + "." + key + "' is given twice");
    }
    check_report_parameters(catalogue, out);
    return out;
  }

  std::vector<std::string> cases_, integrator_names_, reference_dirs_, params_;
  std::string out_ = "reports", jobs_ = default_jobs();
  ReuseFlags reuse_;
  bool no_benchmarks_ = false, no_plots_ = false;
  CaseRunOptions inputs_;
};

// `tetherbench study NAME [CASE_FILE...] [--param KEY=VALUE]...`, and its alias
// `tetherbench catenary CASE... --elements N,N,...` (= study catenary --param elements=...), kept for its users.
class StudyCommand : public Command {
 public:
  StudyCommand(CLI::App& app, bool catenary_alias) : alias_(catenary_alias) {
    if (alias_) {
      subcommand = app.add_subcommand("catenary", "alias of `study catenary`");
      subcommand->add_option("CASE_FILE", cases_, "case files the catenary study applies to")->required()->check(CLI::ExistingFile);
      elements_opt_ = subcommand->add_option("--elements", elements_, "element counts N, increasing, each >= 2 (comma-separated)");
      subcommand->add_option("--out", out_, "output folder (catenary.csv)")->capture_default_str();
      return;
    }
    subcommand = app.add_subcommand("study", "run one study (see `tetherbench list`) on case files");
    subcommand->add_option("NAME", name_, "study name")->required();
    subcommand->add_option("CASE_FILE", cases_, "case files (default: the bundled cases it applies to)")->check(CLI::ExistingFile);
    subcommand->add_option("--out", out_, "output folder")->capture_default_str();
    subcommand->add_option("--jobs", jobs_, "parallel runs (per process under mpirun)")->capture_default_str();
    reuse_.add_to(subcommand);
    subcommand->add_option("--param", params_, "study parameter KEY=VALUE (repeatable; see `tetherbench list`)")->allow_extra_args(false);
    subcommand->add_option("--reference-dir", reference_dirs_, kReferenceDirHelp)->allow_extra_args(false);
    inputs_.add_to(subcommand);
  }
  bool distributes() const override { return true; }
  int execute(Session& session) override {
    StudyRequest request;
    std::map<std::string, std::string>& parameters = request.parameters;
    if (alias_) {
      name_ = "catenary";
      if (elements_opt_->count()) parameters["elements"] = elements_;
    }
    request.name = name_;
    if (!session.catalogue.find_study(name_))  // named before the parameters are read
      throw InputError("study: unknown study '" + name_ + "' (expected one of: " + join_names(session.catalogue.study_names()) + ")");
    for (const auto& p : params_) {
      const auto eq = p.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == p.size() || p.find_first_of("\n\r") != std::string::npos)
        throw InputError("--param " + p + ": expected KEY=VALUE on one line");
      if (!parameters.emplace(p.substr(0, eq), p.substr(eq + 1)).second)
        throw InputError("--param " + p + ": '" + p.substr(0, eq) + "' is given twice");
    }
    request.resume = reuse_.reuse();  // a contradiction is refused before anything is written
    request.progress = true;
    request.out_dir = out_;
    request.workers = unsigned(count("--jobs", jobs_, 1024));
    request.reference_dirs = reference_dirs_;
    request.cases = inputs_.choice(cases_, {});
    const StudyOutcome outcome = study(session, request);
    if (!outcome.gathering) return 0;
    for (const auto& path : outcome.written) std::printf("wrote %s\n", path.c_str());
    return finish(outcome.all_runs_ok);
  }

 private:
  bool alias_;
  std::string name_, out_ = "results", jobs_ = default_jobs(), elements_;
  std::vector<std::string> cases_, params_, reference_dirs_;
  ReuseFlags reuse_;
  CLI::Option* elements_opt_ = nullptr;
  CaseRunOptions inputs_;
};

// `tetherbench reference [CASE_FILE...] [--out DIR]`
class ReferenceCommand : public Command {
 public:
  explicit ReferenceCommand(CLI::App& app) {
    subcommand = app.add_subcommand("reference", "recompute the reference solutions of the cases");
    subcommand->add_option("CASE_FILE", cases_, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
    out_opt_ = subcommand->add_option("--out", out_, "reference folder (default: the bundled reference/ folder)");
  }
  int execute(Session& session) override {
    // The bundled folder is written only in a source checkout (a contributor's, committed);
    // an installation's is never written unless named on purpose.
    if (!out_opt_->count() && !session.data.reference_in_checkout)
      throw InputError("--out: expected a folder of yours for the reference solutions (the bundled " + session.data.reference +
                       " belongs to an installation, not a source checkout); give --out DIR, then --reference-dir DIR "
                       "to report and study");
    const std::string out = out_opt_->count() ? out_ : session.data.reference;
    output_folder("--out", out);
    const auto cases = load_cases(session.catalogue, session.case_files_or_bundled(cases_), {}, RunLimits{});
    for (const auto& path : write_references(cases, session.catalogue, out, session.command))
      std::printf("wrote %s\n", path.c_str());
    return finish(true);
  }

 private:
  std::vector<std::string> cases_;
  std::string out_;
  CLI::Option* out_opt_ = nullptr;
};

// The --plugin options that load this catalogue's plugins again, for a command a message
// suggests: those loaded from TETHERBENCH_PLUGINS are left to the environment (given twice, a
// plugin is refused).
std::string plugin_options(const Catalogue& catalogue) {
  std::vector<fs::path> from_environment;
  for (const auto& p : plugin_files({})) from_environment.push_back(fs::weakly_canonical(p.file));
  std::string out;
  for (const auto& p : catalogue.plugins)
    if (std::find(from_environment.begin(), from_environment.end(), fs::weakly_canonical(p.file)) == from_environment.end())
      out += " --plugin " + p.file;
  return out;
}

// `tetherbench gate [CASE_FILE...] [--envelopes FILE] [--integrator NAME]... [--record [--accept-failures]]`
class GateCommand : public Command {
 public:
  explicit GateCommand(CLI::App& app) {
    subcommand = app.add_subcommand(
        "gate", "CI regression gates: short runs checked against conservation envelopes, and each fixed-step "
                "integrator's measured order against its declared order");
    subcommand->add_option("CASE_FILE", cases_, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
    envelopes_opt_ = subcommand->add_option("--envelopes", envelopes_,
                                            "envelope file (default: the bundled reference/envelopes.csv); with --record "
                                            "a file that does not exist yet is created");
    subcommand->add_flag("--record", record_,
                         "re-measure the 'recorded' envelopes of these cases and rewrite the file; refused (exit status 1, "
                         "nothing written) while a run fails that the file does not already expect to fail that way");
    accept_opt_ = subcommand->add_flag("--accept-failures", accept_failures_,
                                       "with --record: record every failing run as expected to fail (its kind, time and "
                                       "step), instead of refusing");
    subcommand->add_option("--integrator", integrators_,
                           "gate only this integrator (repeatable; default all): e.g. a plugin's, against your own "
                           "--envelopes file; --record then keeps the other integrators' rows as they are")
        ->allow_extra_args(false);
  }
  int execute(Session& session) override {
    GateRequest request;
    request.integrators = integrators_;
    if (envelopes_opt_->count()) request.envelopes = envelopes_;
    request.record = record_;
    request.accept_failures = accept_failures_;
    // The case files first: a repeatable option would take the words after it as its values.
    request.record_command = "tetherbench" + plugin_options(session.catalogue) + " gate --record";
    for (const auto& f : cases_) request.record_command += " " + f;
    for (const auto& i : integrators_) request.record_command += " --integrator " + i;
    const auto cases = load_cases(session.catalogue, session.case_files_or_bundled(cases_), {}, RunLimits{});
    const GateOutcome gates = run_gates(session.catalogue, session.data, cases, request);
    const std::string& file = gates.file;
    if (record_) {
      if (gates.interrupted) return finish(false);  // partial measurements are never recorded
      if (!gates.refused.empty()) {
        // A failing run recorded as expected to fail passes its gate: never done without being asked.
        std::fprintf(stderr, "gate --record: %zu run(s) fail, and %s does not expect them to fail that way; nothing "
                             "recorded:\n", gates.refused.size(), file.c_str());
        for (const auto& line : gates.refused) std::fprintf(stderr, "  %s\n", line.c_str());
        std::fprintf(stderr, "Fix them, leave them out with --integrator, or record them as expected to fail (kind, time "
                             "and step; their gate then fails if they fail another way or earlier) with --accept-failures.\n");
        return kRunFailed;
      }
      std::printf("recorded envelopes of %zu case(s) in %s", cases.size(), file.c_str());
      if (gates.expected_failures > 0)
        std::printf(" (%ld run(s) recorded as expected to fail: their rows say how and when)", gates.expected_failures);
      std::printf("\n");
      return 0;
    }
    int failed = 0, checked = 0, inconclusive = 0;
    for (const GateCheck& g : gates.checks) {
      ++checked;
      if (g.inconclusive()) ++inconclusive, std::printf("gate inconclusive: %s\n", g.message.c_str());
      else if (g.pass()) std::printf("gate ok:     %s\n", g.message.c_str());
      else ++failed, std::printf("GATE FAILED: %s\n", g.message.c_str());
    }
    std::printf("%d passed, %d failed, %d inconclusive\n", checked - failed - inconclusive, failed, inconclusive);
    return failed == 0 ? finish(true) : kRunFailed;
  }

 private:
  std::vector<std::string> cases_, integrators_;
  std::string envelopes_;
  CLI::Option* envelopes_opt_ = nullptr;
  CLI::Option* accept_opt_ = nullptr;
  bool record_ = false, accept_failures_ = false;
};

// `tetherbench check-plugin PLUGIN... [--fixture FILE]...`
class CheckPluginCommand : public Command {
 public:
  explicit CheckPluginCommand(CLI::App& app) {
    subcommand = app.add_subcommand("check-plugin",
                                    "run the suite's generic integrator and model conformance checks on every entry of "
                                    "plugins: a table of checks (exit status 1 if any fails)");
    subcommand->add_option("PLUGIN", plugins_, "plugin files (shared libraries, as --plugin takes)")->required();
    subcommand->add_option("--fixture", fixtures_,
                           "a small case file of a plugin's model to check it on (repeatable; each model needs one)");
  }
  bool runs_cases() const override { return false; }
  int execute(Session& session) override {
    refuse_repeats("PLUGIN", plugins_);
    refuse_repeats("--fixture", fixtures_);
    // The plugins to check: loaded here unless --plugin or TETHERBENCH_PLUGINS already did.
    std::vector<std::string> checked;  // their files as the catalogue holds them
    for (const auto& file : plugins_) {
      std::error_code ec;
      std::string held;
      for (const auto& p : session.catalogue.plugins)
        if (fs::exists(file, ec) && fs::equivalent(p.file, file, ec)) held = p.file;
      if (held.empty()) {
        load_plugins({{file, "check-plugin"}}, session.catalogue);
        held = session.catalogue.plugins.back().file;
      }
      checked.push_back(held);
    }
    const Catalogue& catalogue = session.catalogue;
    // Each fixture: a case file of one of the checked plugins' models.
    std::vector<std::string> models;
    for (const auto& p : catalogue.plugins)
      if (std::find(checked.begin(), checked.end(), p.file) != checked.end())
        for (const auto& e : p.entries)
          if (e.rfind("model ", 0) == 0) models.push_back(e.substr(6));
    std::vector<conformance::ModelFixture> fixtures;
    for (const auto& file : fixtures_) {
      if (!fs::is_regular_file(file))
        throw InputError("--fixture " + file + ": no such file (expected a case file of a plugin's model)");
      const Case c = load_case(file, catalogue);
      if (std::find(models.begin(), models.end(), c.model_name) == models.end())
        throw InputError("--fixture " + file + ": [case] model = \"" + c.model_name + "\" is not a model of the plugins checked" +
                         (models.empty() ? " (they add none)" : " (expected one of: " + join_names(models) + ")"));
      fixtures.push_back({c.model_name, file, fs::path(file).filename().string()});
    }
    const conformance::IntegratorBench bench = suite_integrator_bench(catalogue);
    bool ok = true;
    for (const auto& p : catalogue.plugins) {
      if (std::find(checked.begin(), checked.end(), p.file) == checked.end()) continue;
      std::printf("plugin %s %s (%s)\n", p.name.c_str(), p.version.c_str(), p.file.c_str());
      const auto checks = conformance::check_plugin(p, catalogue, bench, fixtures);
      std::printf("%s\n", conformance::format_checks(checks).c_str());
      ok = ok && conformance::all_passed(checks);
    }
    std::fflush(stdout);
    return ok ? 0 : kRunFailed;
  }

 private:
  std::vector<std::string> plugins_, fixtures_;
};

// `tetherbench check-claims REPORT_DIR`
class CheckClaimsCommand : public Command {
 public:
  explicit CheckClaimsCommand(CLI::App& app) {
    subcommand = app.add_subcommand(
        "check-claims", "list every verdict a report prints that its own tables contradict (exit status 1 if any)");
    subcommand->add_option("REPORT_DIR", dir_, "a report folder (tetherbench report --out)")->required()->check(CLI::ExistingDirectory);
  }
  bool runs_cases() const override { return false; }
  int execute(Session& session) override {
    if (!fs::exists(fs::path(dir_) / "summary.csv"))
      throw InputError("REPORT_DIR " + dir_ + ": expected a report folder holding summary.csv");
    const auto violations = check_claims(dir_, session.catalogue);
    for (const auto& v : violations) std::printf("CONTRADICTED: %s\n", v.line().c_str());
    std::printf("%zu verdict(s) contradicted by the report's own data\n", violations.size());
    return violations.empty() ? 0 : kRunFailed;
  }

 private:
  std::string dir_;
};

// `tetherbench index REPORT_DIR [CASE_FILE...]`: the front page again from a report's tables
// (after a study was re-run into the folder, or to read an older report with today's rules).
class IndexCommand : public Command {
 public:
  explicit IndexCommand(CLI::App& app) {
    subcommand = app.add_subcommand("index", "write a report's front page (index.md) again from its tables");
    subcommand->add_option("REPORT_DIR", dir_, "a report folder (tetherbench report --out)")->required()->check(CLI::ExistingDirectory);
    subcommand->add_option("CASE_FILE", cases_, "the report's case files (default: all bundled cases)")->check(CLI::ExistingFile);
    subcommand->add_flag("--plots", plots_, "plan and draw the figures again first (figures.csv, matplotlib)");
  }
  bool runs_cases() const override { return false; }
  int execute(Session& session) override {
    if (!fs::exists(fs::path(dir_) / "summary.csv"))
      throw InputError("REPORT_DIR " + dir_ + ": expected a report folder holding summary.csv");
    const auto cases = CaseRunOptions{}.load(session.catalogue, session.case_files_or_bundled(cases_));
    bool drawn = true;
    if (plots_) {
      write_figure_plan(dir_, session.catalogue);
      drawn = run_plots(session.report_options().scripts_dir, dir_);
    }
    write_index(dir_, cases, session.catalogue);
    std::printf("wrote %s%s\n", (fs::path(dir_) / "index.md").string().c_str(), drawn ? "" : " -- the plots failed, see above");
    return drawn ? 0 : kInternalError;
  }

 private:
  std::string dir_;
  std::vector<std::string> cases_;
  bool plots_ = false;
};

// `tetherbench readme-orders ORDERS_CSV... [--readme FILE]`
class ReadmeOrdersCommand : public Command {
 public:
  explicit ReadmeOrdersCommand(CLI::App& app) {
    subcommand = app.add_subcommand(
        "readme-orders", "the measured-orders block of cases/README.md from orders.csv files (printed, or written into --readme)");
    subcommand->add_option("ORDERS_CSV", files_, "orders.csv of a report or of `study work_precision` runs")
        ->required()
        ->check(CLI::ExistingFile);
    subcommand->add_option("--readme", readme_, "replace the generated block of this file (e.g. cases/README.md)")
        ->check(CLI::ExistingFile);
  }
  bool runs_cases() const override { return false; }
  int execute(Session&) override {
    const std::string block = render_orders_block(files_);
    if (readme_.empty()) {
      std::printf("%s\n", block.c_str());
      return 0;
    }
    std::ifstream in(readme_);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string updated = replace_orders_block(text, block, readme_);
    std::ofstream out(readme_);
    out << updated;
    if (!out) throw std::runtime_error("cannot write " + readme_);
    std::printf("%s: generated orders block rewritten from %zu file(s)\n", readme_.c_str(), files_.size());
    return 0;
  }

 private:
  std::vector<std::string> files_;
  std::string readme_;
};

// `tetherbench coverage [CASE_FILE...] [--by case|model] [--readme FILE]`
class CoverageCommand : public Command {
 public:
  explicit CoverageCommand(CLI::App& app) {
    subcommand = app.add_subcommand(
        "coverage",
        "which integrator runs which case (or model) and why not, from the registries without running anything "
        "(printed, or written into --readme's generated block)");
    subcommand->add_option("CASE_FILE", files_, "case files (default: every bundled case)")->check(CLI::ExistingFile);
    subcommand->add_option("--by", by_, "\"case\" (default): a row per case; \"model\": a cell per integrator and model")
        ->check(CLI::IsMember({"case", "model"}));
    subcommand->add_option("--readme", readme_, "replace the generated coverage block of this file (README.md: --by model; "
                                                "cases/README.md: --by case)")
        ->check(CLI::ExistingFile);
  }
  bool runs_cases() const override { return false; }
  int execute(Session& session) override {
    const auto cases = load_cases(session.catalogue, session.case_files_or_bundled(files_), {}, RunLimits{});
    const bool by_model = by_ == "model";
    const std::string block = coverage_block(coverage_of_cases(cases, session.catalogue.integrators), by_model);
    if (readme_.empty()) {
      std::printf("%s\n", block.c_str());
      return 0;
    }
    std::ifstream in(readme_);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string updated = markdown::replace_block(text, by_model ? kCoverageByModelBegin : kCoverageByCaseBegin,
                                                        by_model ? kCoverageByModelEnd : kCoverageByCaseEnd, block, readme_);
    std::ofstream out(readme_);
    out << updated;
    if (!out) throw std::runtime_error("cannot write " + readme_);
    std::printf("%s: generated coverage block (by %s) rewritten from %zu case(s)\n", readme_.c_str(), by_.c_str(),
                cases.size());
    return 0;
  }

 private:
  std::vector<std::string> files_;
  std::string by_ = "case";
  std::string readme_;
};

}  // namespace

void CaseRunOptions::add_to(CLI::App* command) {
  command->add_option("--set", sets, kSetHelp)->allow_extra_args(false);
  steps_opt = command->add_option("--max-steps", max_steps, "refuse runs of more fixed steps than this (default 1e9)");
  samples_opt = command->add_option("--max-samples", max_samples, "refuse runs of more samples than this (default 1e7)");
  state_opt = command->add_option("--max-state", max_state, "refuse models whose state holds more numbers than this (default 1e7)");
  command->add_flag("--full-horizon", full_horizon,
                    "run every integrator over its case's full horizon ([case] t_end), ignoring [case] integrator_t_end "
                    "(the main job shortens some costly runs; the tables then compare them over the shared window)");
}

RunLimits CaseRunOptions::limits() const {
  return cli::limits(given(steps_opt, max_steps), given(samples_opt, max_samples), given(state_opt, max_state));
}

CaseChoice CaseRunOptions::choice(const std::vector<std::string>& files, const std::vector<std::string>& integrators) const {
  CaseChoice c;
  c.files = files;
  c.integrators = integrators;
  c.sets = sets;
  c.limits = limits();
  c.full_horizon = full_horizon;
  return c;
}

std::vector<Case> CaseRunOptions::load(const Catalogue& catalogue, const std::vector<std::string>& files) const {
  std::vector<Case> cases = load_cases(catalogue, files, sets, limits());
  if (full_horizon)
    for (auto& c : cases) c.integrator_t_end.clear();
  return cases;
}

std::vector<std::unique_ptr<Command>> declare_commands(CLI::App& app) {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(std::make_unique<ListCommand>(app));
  commands.push_back(std::make_unique<RunCommand>(app));
  commands.push_back(std::make_unique<TableCommand>(app));
  commands.push_back(std::make_unique<ReportCommand>(app));
  commands.push_back(std::make_unique<StudyCommand>(app, false));
  commands.push_back(std::make_unique<ReferenceCommand>(app));
  commands.push_back(std::make_unique<GateCommand>(app));
  commands.push_back(std::make_unique<CheckPluginCommand>(app));
  commands.push_back(std::make_unique<CheckClaimsCommand>(app));
  commands.push_back(std::make_unique<IndexCommand>(app));
  commands.push_back(std::make_unique<ReadmeOrdersCommand>(app));
  commands.push_back(std::make_unique<CoverageCommand>(app));
  commands.push_back(std::make_unique<StudyCommand>(app, true));
  return commands;
}

int finish(bool all_ok) {
  if (interrupted()) {
    std::fprintf(stderr, "tetherbench: interrupted; what was written is kept, the runs cut short are marked\n");
    return kRunFailed;
  }
  return all_ok ? 0 : kRunFailed;
}

}  // namespace tb::cli
