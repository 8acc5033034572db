#pragma once
// The commands of the tetherbench executable, one class each: its options (declared on its
// CLI11 subcommand) and what it does with them. main (cli/tetherbench.cpp) parses, sets up the
// session (data folder, plugins, catalogue) and runs the one command given.

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/catalogue.hpp"
#include "app/common/data_paths.hpp"
#include "app/input/limits.hpp"
#include "suite/session.hpp"  // Session: what every command runs with

namespace tb::cli {

// Exit statuses (README "Exit statuses"): 0 every run ok; 1 a run failed or was interrupted
// (its row is in the summary); 2 a usage or input error, before anything is written; 3 an I/O or
// internal error.
constexpr int kRunFailed = 1, kUsageError = 2, kInternalError = 3;

// The options of the commands that run cases: --set, resource limits, --full-horizon.
struct CaseRunOptions {
  std::vector<std::string> sets;
  bool full_horizon = false;
  std::string max_steps, max_samples, max_state;
  CLI::Option *steps_opt = nullptr, *samples_opt = nullptr, *state_opt = nullptr;
  void add_to(CLI::App* command);
  RunLimits limits() const;
  std::vector<Case> load(const Catalogue& catalogue, const std::vector<std::string>& files) const;
  // The files (none: the bundled cases) with these options, run by `integrators` (none: all).
  CaseChoice choice(const std::vector<std::string>& files, const std::vector<std::string>& integrators) const;
};

class Command {
 public:
  virtual ~Command() = default;
  CLI::App* subcommand = nullptr;
  // Whether the command may run as one rank of an MPI job (table, report, study).
  virtual bool distributes() const { return false; }
  // Whether it runs cases (and so installs the interrupt handlers).
  virtual bool runs_cases() const { return true; }
  virtual int execute(Session& session) = 0;
};

// Every command, declared on `app` (in the order `--help` lists them).
std::vector<std::unique_ptr<Command>> declare_commands(CLI::App& app);

// 0 if every run reached its end, else kRunFailed (also when interrupted, with a message).
int finish(bool all_ok);

}  // namespace tb::cli
