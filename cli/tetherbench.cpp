// The tetherbench command line (a contract: scripts and CI depend on it; see README.md).
//   tetherbench [--plugin FILE]... [--data-dir DIR] COMMAND ...
//   tetherbench --version
//   tetherbench list [--settings-table]
//   tetherbench run CASE_FILE [--integrator NAME]... [--h STEP] [--t-end T] [--out DIR] [--set NAME.KEY=VALUE]...
//   tetherbench table [CASE_FILE...] [--out DIR] [--set NAME.KEY=VALUE]...
//   tetherbench report [CASE_FILE...] [--out DIR] [--jobs N] [--no-benchmarks] [--no-plots] [--set NAME.KEY=VALUE]...
//   tetherbench study NAME [CASE_FILE...] [--out DIR] [--jobs N] [--param KEY=VALUE]... [--set NAME.KEY=VALUE]...
//   tetherbench reference [CASE_FILE...] [--out DIR]
//   tetherbench gate [CASE_FILE...] [--envelopes FILE] [--integrator NAME]... [--record [--accept-failures]]
//   tetherbench check-plugin PLUGIN... [--fixture FILE]...
//   tetherbench check-claims REPORT_DIR
//   tetherbench catenary CASE_FILE... [--elements 4,8,16,32,64] [--out DIR]   (= study catenary)
// --plugin and --data-dir may also follow the command.
//
// This file parses, sets up the session (where the data are, the plugins, the catalogue) and
// runs the one command given (cli/commands.hpp). Everything the suite is made of comes from
// the catalogue (suite/catalogue.hpp and the plugins); no model, integrator or study is named here.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "app/jobs/distributed.hpp"
#include "app/running/interrupt.hpp"
#include "app/running/isolation.hpp"
#include "app/writing/manifest.hpp"
#include "app/running/plugins.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "suite/catalogue.hpp"

namespace {

using namespace tb;
using namespace tb::cli;

// Started by mpirun or srun (their environment says so): one rank of a distributed run.
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

// MPI for the whole of main under mpirun/srun (app/jobs/distributed.hpp); ended on every return.
struct DistributedSession {
  DistributedSession(int* argc, char*** argv) {
    if (launched_by_mpi()) distributed_init(argc, argv);
  }
  ~DistributedSession() { distributed_finalize(); }
};

// The command-line library's own errors are usage errors too (exit status 2, like a bad case
// key), with the command or option named; only --help and its kin end with 0.
int parse_error_status(CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  // CLI11 says "A subcommand is required" for a misspelt one: name it.
  std::vector<std::string> commands;
  for (const auto* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  if (argc > 1 && argv[1][0] != '-' && std::find(commands.begin(), commands.end(), argv[1]) == commands.end()) {
    std::fprintf(stderr, "tetherbench: unknown command '%s' (expected one of: %s)\n", argv[1], join_names(commands).c_str());
    return kUsageError;
  }
  // An option the command does not take is named, rather than its value being mistaken for a
  // case file.
  if (argc > 1) {
    const CLI::App* command = nullptr;
    for (const auto* sub : app.get_subcommands({}))
      if (sub->get_name() == argv[1]) command = sub;
    for (int i = 2; command && i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg.rfind("--", 0) != 0 || arg == "--") continue;
      const std::string name = arg.substr(0, arg.find('='));
      if (!command->get_option_no_throw(name) && !app.get_option_no_throw(name) && name != "--help") {
        std::fprintf(stderr, "tetherbench %s: unknown option '%s' (see `tetherbench %s --help`)\n", argv[1], name.c_str(), argv[1]);
        return kUsageError;
      }
    }
  }
  std::fprintf(stderr, "tetherbench: %s (see `tetherbench --help`)\n", e.what());
  return kUsageError;
}

}  // namespace

int main(int argc, char** argv) {
  DistributedSession distributed(&argc, &argv);
  CLI::App app{"tetherbench: integrators for tethered multibody systems, compared on the same models and cases"};
  app.require_subcommand(1);
  app.set_version_flag("--version", suite_version_number(), "print the suite's version and exit");
  app.fallthrough();  // --plugin and --data-dir after the command too
  std::vector<std::string> plugins;
  std::string data_dir;
  app.add_option("--plugin", plugins,
                 "load a plugin (a shared library built against tetherbench::kernel) that adds integrators, models or "
                 "studies (repeatable; also TETHERBENCH_PLUGINS=FILE:FILE)")
      ->allow_extra_args(false);
  auto* data_dir_opt = app.add_option("--data-dir", data_dir,
                                      "the folder holding the bundled cases/, reference/ and scripts/ (default: found "
                                      "next to the executable; also TETHERBENCH_DATA_DIR)");
  std::string isolate_word, time_limit_text;
  auto* isolate_opt = app.add_option("--isolate", isolate_word,
                                     "which runs go to a worker process of their own, so that a crash or hang is that "
                                     "run's failure: plugins (default: every run of a plugin's integrator, model or "
                                     "study), all, none (everything in-process, e.g. under a debugger)");
  auto* time_limit_opt = app.add_option("--time-limit", time_limit_text,
                                        "seconds without progress (no step, no run started or ended) after which an "
                                        "isolated run is stopped and fails as hung (default 3600)");
  const auto commands = declare_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return parse_error_status(app, e, argc, argv);
  }

  Command* command = nullptr;
  for (const auto& c : commands)
    if (c->subcommand->parsed()) command = c.get();
  try {
    Session session;
    for (int i = 0; i < argc; ++i) session.command += std::string(i ? " " : "") + (i ? argv[i] : "tetherbench");
    session.data = find_data_paths(data_dir_opt->count() ? std::optional<std::string>(data_dir) : std::nullopt);
    session.catalogue = suite_catalogue();
    IsolationSettings isolation;
    if (isolate_opt->count()) {
      const auto mode = isolation_mode_from(isolate_word);
      if (!mode) throw InputError("--isolate " + isolate_word + ": expected plugins, all or none");
      isolation.mode = *mode;
    }
    if (time_limit_opt->count()) isolation.time_limit_s = positive_number("--time-limit", time_limit_text, "seconds");
    set_isolation(isolation);
    load_plugins(plugin_files(plugins), session.catalogue);
    if (command->runs_cases()) install_interrupt_handlers();
    if (process_count() > 1 && !command->distributes())
      throw InputError(std::string(argv[1]) + ": only table, report and study run distributed; start it without mpirun/srun (" +
                       std::to_string(process_count()) + " ranks here)");
    return command->execute(session);
  } catch (const InputError& e) {
    std::fprintf(stderr, "tetherbench: %s\n", e.what());
    return distributed_abort(kUsageError);  // under mpirun: every rank ends, none waits for this one
  } catch (const JobCrashed& e) {  // a plugin's fault that no run could carry (app/running/isolation.hpp)
    std::fprintf(stderr, "tetherbench: %s; the other jobs ran and are stored (running the same command again reuses them)\n", e.what());
    return distributed_abort(kRunFailed);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tetherbench: error: %s\n", e.what());
    return distributed_abort(kInternalError);
  }
}
