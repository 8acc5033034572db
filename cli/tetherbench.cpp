// The tetherbench command line (a contract: scripts and CI depend on it; see README.md).
//   tetherbench list
//   tetherbench run CASE_FILE [--integrator NAME]... [--h STEP] [--t-end T] [--out DIR] [--set NAME.KEY=VALUE]...
//   tetherbench table [CASE_FILE...] [--out DIR] [--set NAME.KEY=VALUE]...
//   tetherbench report [CASE_FILE...] [--out DIR] [--jobs N] [--no-benchmarks] [--no-plots] [--set NAME.KEY=VALUE]...
//   tetherbench reference [CASE_FILE...] [--out DIR]
//   tetherbench gate [CASE_FILE...] [--envelopes FILE] [--record]

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "core/case.hpp"
#include "core/gates.hpp"
#include "core/report.hpp"
#include "core/runner.hpp"
#include "core/summary.hpp"

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

// Loads every case and applies the --set overrides first, so a bad file or override stops
// everything before anything is written.
std::vector<Case> load_cases(const std::vector<std::string>& files, const std::vector<std::string>& overrides = {}) {
  std::vector<Case> cases;
  for (const auto& f : files) {
    cases.push_back(load_case(f));
    for (const auto& o : overrides) apply_setting_override(cases.back(), o);
  }
  return cases;
}

constexpr const char* kSetHelp =
    "integrator setting NAME.KEY=VALUE over the case files' [integrators.NAME] (repeatable; keys: cases/README.md)";

std::vector<const IntegratorInfo*> select_integrators(const std::vector<std::string>& names) {
  std::vector<const IntegratorInfo*> selected;
  if (names.empty()) {
    for (const auto& info : integrator_registry()) selected.push_back(&info);
    return selected;
  }
  for (const auto& name : names) {
    const IntegratorInfo* info = find_integrator(name);
    if (!info) {
      std::string known;
      for (const auto& i : integrator_registry()) known += (known.empty() ? "" : ", ") + i.name;
      throw InputError("--integrator: unknown integrator '" + name + "' (expected one of: " + known + ")");
    }
    selected.push_back(info);
  }
  return selected;
}

bool applies(const Case& c, const IntegratorInfo& info, std::string& why_not) {
  return c.model->make_formulation(info.consumes, why_not) != nullptr;
}

void print_row(const SummaryRow& r) {
  if (r.status.rfind("n/a", 0) == 0) {
    std::printf("  %-10s %s\n", r.integrator.c_str(), r.status.c_str());
    return;
  }
  std::printf("  %-10s %-6s steps %-9ld |dE|max %-11.4g |dpi|max %-11.4g orth max %-11.4g runtime %.4g s\n",
              r.integrator.c_str(), r.status == "ok" ? "ok" : "FAILED", r.counters.steps, r.metrics.energy_err_max,
              r.metrics.momentum_err_max, r.metrics.orthogonality_err_max, r.runtime_s);
  if (r.status != "ok") std::printf("             %s\n", r.status.c_str());
}

int command_list() {
  std::printf("Integrators:\n");
  for (const auto& i : integrator_registry())
    std::printf("  %-8s order %d  consumes %-20s %s\n", i.name.c_str(), i.order, to_string(i.consumes).c_str(),
                i.summary.c_str());
  std::printf("\nModels:\n");
  for (const auto& m : model_registry()) std::printf("  %-18s %s\n", m.name.c_str(), m.summary.c_str());
  std::printf("\nBundled cases (%s) and the integrators that apply:\n", TETHERBENCH_CASES_DIR);
  for (const auto& c : load_cases(bundled_case_files())) {
    std::printf("  %s  [%s, %s]\n    %s\n", c.name.c_str(), c.model_name.c_str(),
                std::filesystem::path(c.file).filename().c_str(), c.description.c_str());
    for (const auto& i : integrator_registry()) {
      std::string why_not;
      if (applies(c, i, why_not)) std::printf("    %-8s yes\n", i.name.c_str());
      else std::printf("    %-8s n/a: %s\n", i.name.c_str(), why_not.c_str());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tetherbench: integrators for tethered multibody systems, compared on the same models and cases"};
  app.require_subcommand(1);

  auto* list = app.add_subcommand("list", "cases, integrators, and which pairs apply");

  auto* run = app.add_subcommand("run", "run one case with the chosen integrators (all applicable if none named)");
  std::string case_file;
  std::vector<std::string> integrator_names;
  double h = 0.0, t_end = 0.0;
  std::string run_out = "results";
  int repeats = 1;
  run->add_option("CASE_FILE", case_file, "case file (TOML, see cases/README.md)")->required()->check(CLI::ExistingFile);
  run->add_option("--integrator", integrator_names, "integrator name (repeatable)");
  auto* h_opt = run->add_option("--h", h, "step size (s), overrides the case file")->check(CLI::PositiveNumber);
  auto* t_opt = run->add_option("--t-end", t_end, "end time (s), overrides the case file")->check(CLI::PositiveNumber);
  run->add_option("--out", run_out, "output folder")->capture_default_str();
  run->add_option("--repeats", repeats, "timing passes; runtime is their minimum")->check(CLI::PositiveNumber)->capture_default_str();
  std::vector<std::string> run_sets;
  run->add_option("--set", run_sets, kSetHelp)->allow_extra_args(false);

  auto* table = app.add_subcommand("table", "run every case x integrator and write summary.csv and summary.md");
  std::vector<std::string> table_cases;
  std::string table_out = "results";
  int table_repeats = 1;
  table->add_option("CASE_FILE", table_cases, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
  table->add_option("--out", table_out, "output folder")->capture_default_str();
  table->add_option("--repeats", table_repeats, "timing passes; runtime is their minimum")->check(CLI::PositiveNumber)->capture_default_str();
  std::vector<std::string> table_sets;
  table->add_option("--set", table_sets, kSetHelp)->allow_extra_args(false);

  auto* report = app.add_subcommand("report", "the main job: tables, work-precision sweeps, orders, paper "
                                              "comparisons, benchmarks and plots for every bundled case");
  std::vector<std::string> report_cases;
  std::string report_out = "reports";
  unsigned report_jobs = std::max(1u, std::thread::hardware_concurrency());
  bool no_benchmarks = false, no_plots = false;
  report->add_option("CASE_FILE", report_cases, "case files (default: all bundled cases)")->check(CLI::ExistingFile);
  report->add_option("--out", report_out, "output folder")->capture_default_str();
  report->add_option("--jobs", report_jobs, "parallel runs")->check(CLI::PositiveNumber)->capture_default_str();
  report->add_flag("--no-benchmarks", no_benchmarks, "skip the Google Benchmark step-cost suite");
  report->add_flag("--no-plots", no_plots, "skip the matplotlib figures and index.md");
  std::vector<std::string> report_sets;
  report->add_option("--set", report_sets, kSetHelp)->allow_extra_args(false);

  auto* reference = app.add_subcommand("reference", "recompute the reference solutions of the cases (tight RK45)");
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

  CLI11_PARSE(app, argc, argv);
  std::string command_line = "tetherbench";
  for (int i = 1; i < argc; ++i) command_line += std::string(" ") + argv[i];

  try {
    if (list->parsed()) return command_list();

    if (run->parsed()) {
      const Case c = load_cases({case_file}, run_sets).front();
      const auto integrators = select_integrators(integrator_names);
      RunOptions options;
      options.out_dir = run_out;
      if (*h_opt) options.h = h;
      if (*t_opt) options.t_end = t_end;
      options.repeats = repeats;
      options.progress = true;
      std::printf("%s (%s)\n", c.name.c_str(), c.file.c_str());
      bool all_ok = true;
      for (const auto* info : integrators) {
        const SummaryRow row = run_case(c, *info, options);
        append_summary_csv((std::filesystem::path(run_out) / "summary.csv").string(), row);
        print_row(row);
        all_ok = all_ok && (row.status == "ok" || row.status.rfind("n/a", 0) == 0);
      }
      return all_ok ? 0 : 1;
    }

    if (table->parsed()) {
      const auto cases = load_cases(table_cases.empty() ? bundled_case_files() : table_cases, table_sets);
      RunOptions options;
      options.out_dir = table_out;
      options.repeats = table_repeats;
      options.progress = true;
      std::vector<SummaryRow> rows;
      for (const auto& c : cases) {
        std::printf("%s (%s)\n", c.name.c_str(), c.file.c_str());
        for (const auto& info : integrator_registry()) {
          rows.push_back(run_case(c, info, options));
          print_row(rows.back());
        }
      }
      const auto dir = std::filesystem::path(table_out);
      write_summary_csv((dir / "summary.csv").string(), rows);
      write_summary_markdown((dir / "summary.md").string(), rows);
      std::printf("wrote %s and %s\n", (dir / "summary.csv").c_str(), (dir / "summary.md").c_str());
      return 0;  // failed runs are results: they are marked in the summary
    }

    if (report->parsed()) {
      const auto cases = load_cases(report_cases.empty() ? bundled_case_files() : report_cases, report_sets);
      ReportOptions options;
      options.out_dir = report_out;
      options.reference_dir = TETHERBENCH_REFERENCE_DIR;
      options.workers = report_jobs;
      options.benchmarks = !no_benchmarks;
      options.plots = !no_plots;
      options.command = command_line;
      const auto start = std::chrono::steady_clock::now();
      const int status = write_report(cases, options);
      std::printf("report written to %s (%.1f s)%s\n", report_out.c_str(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                  status == 0 ? "" : " -- a script step failed, see above");
      return status;
    }

    if (reference->parsed()) {
      const auto cases = load_cases(reference_cases.empty() ? bundled_case_files() : reference_cases);
      for (const auto& path : write_references(cases, reference_out, command_line)) std::printf("wrote %s\n", path.c_str());
      return 0;
    }

    if (gate->parsed()) {
      const auto cases = load_cases(gate_cases.empty() ? bundled_case_files() : gate_cases);
      auto envelopes = read_envelopes(envelopes_file);
      if (record) {
        for (const auto& c : cases) envelopes = record_envelopes(c, envelopes);
        write_envelopes(envelopes_file, envelopes);
        std::printf("recorded envelopes of %zu case(s) in %s\n", cases.size(), envelopes_file.c_str());
        return 0;
      }
      int failed = 0, checked = 0;
      for (const auto& c : cases)
        for (const auto& g : check_gates(c, envelopes)) {
          ++checked;
          if (g.pass) std::printf("gate ok:     %s\n", g.message.c_str());
          else ++failed, std::printf("GATE FAILED: %s\n", g.message.c_str());
        }
      std::printf("%d passed, %d failed\n", checked - failed, failed);
      return failed == 0 ? 0 : 1;
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "tetherbench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tetherbench: error: %s\n", e.what());
    return 3;
  }
  return 0;
}
