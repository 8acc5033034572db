#pragma once
// Crash isolation: a computation whose code comes from a plugin runs in a worker process of its
// own (fork), so that a fault of that code — a signal (SIGSEGV, SIGFPE, SIGBUS, SIGILL,
// SIGABRT), a call to exit, or a hang past the time limit — ends that run as a failed run and
// nothing else: the process that waits for it, its other runs and everything already stored
// go on. Built-in code stays in-process unless asked otherwise (`--isolate all`), since a fork
// per job costs time and the built-ins are tested here.
//
// How a fault becomes a result. The computation returns bytes (a job's result, app/input/study.hpp).
// While it runs, every run it measures (app/running/runner.hpp measure(), integrate()) reports to a board shared
// with the waiting process: which run (integrator, model, case and their plugins) and how far
// (time and step of its last accepted step). When the worker dies, the waiting process knows
// which of the computation's runs was going on and where; it runs the computation again in a
// new worker, in which that run (the k-th measure() call) is not integrated but returns at once
// as "failed: crashed (SIGSEGV) in plugin P, integrator I, case C at t = ..., step ...". The
// computation is deterministic, so its runs before the k-th do again what they did, and what it
// does with a failed run (a table row, a stability search going on with a smaller step, ...) is
// what it does with any other failed run: no study needs code of its own for a crash. A
// computation that crashes again at a later run is replayed again, up to kMaxReplays times; a
// fault outside every run (a plugin study's own code) cannot become a run's result and is
// reported as the job's error.
//
// Attribution: the worker's signal handler walks its stack (backtrace, dladdr) and records the
// shared objects and functions of the frames; the first frame in a loaded plugin's file names
// the plugin (and the function) in the row. A hang is attributed the same way: the worker is
// first sent SIGUSR2, whose handler records the stack, then killed.

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "app/input/run_records.hpp"

namespace tb {

enum class IsolationMode {
  Plugins,  // the computations that run a plugin's code (the default)
  All,      // every computation (for a suspected fault in built-in code, and to measure the cost)
  None,     // none: every computation in-process (under a debugger)
};
std::string to_string(IsolationMode mode);
// "SIGSEGV" for SIGSEGV: how a crash row names the signal.
std::string signal_name(int sig);
std::optional<IsolationMode> isolation_mode_from(const std::string& word);

struct IsolationSettings {
  IsolationMode mode = IsolationMode::Plugins;
  // A worker that reports no progress (no run started, stepped or ended) for this long is
  // stopped, and its run fails as "hung". Per run, not per job: a study's job of many runs may
  // take longer in all. An hour is far above every bundled run (the longest takes minutes).
  double time_limit_s = 3600.0;
};
// A job whose runs crash one after another (a stability search probing many steps of a method that
// crashes at each) is replayed once per crash; past this many it is an error of the job.
inline constexpr int kMaxReplays = 256;

// A worker that died outside every run (a plugin study's own code), or whose runs crashed more
// than kMaxReplays times: no run can carry the fault, so the job has no result. The job pool
// runs the other jobs to their end (and stores them) before passing it on; the command ends
// with status 1, as for a failed run.
class JobCrashed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Process-wide, set once by the command line before anything runs.
void set_isolation(const IsolationSettings& settings);
const IsolationSettings& isolation();

// Remembers a loaded plugin (app/running/plugins.cpp): its file and name, to attribute a fault to it,
// and its origin text (Catalogue::origins), by which a job's inputs say they run its code.
void name_plugin(const std::string& path, const std::string& plugin_name, const std::string& origin);
// Whether a job's inputs (StudyJob::inputs) name a loaded plugin's entry, i.e. run its code.
bool mentions_a_plugin(const std::string& inputs);

// Whether a computation that does (or does not) run a plugin's code goes to a worker process.
bool isolates(bool runs_plugin_code);

// True inside a worker process: a computation there runs in-process (no nested workers).
bool in_isolated_worker();

// Runs `compute` in a worker process when `isolate` (and not already in one), else here, and
// returns its bytes. `what` names the computation in an error ("job 'C | I'"). An exception
// `compute` throws is rethrown here as std::runtime_error with its message.
std::string run_maybe_isolated(bool isolate, const std::string& what, const std::function<std::string()>& compute);

// --- The runs' side (app/running/runner.cpp). In-process outside a worker these do nothing. ---

// Opened by measure() and integrate() for each run, before anything of the run's own code
// executes (one opened inside another is the same run). `where` describes the run for a crash
// row ("integrator I, case C"). When the waiting process replays the computation after this
// run crashed, failed() is the outcome to return.
class WatchedRun {
 public:
  explicit WatchedRun(const std::string& where);
  ~WatchedRun();
  WatchedRun(const WatchedRun&) = delete;
  WatchedRun& operator=(const WatchedRun&) = delete;
  const std::optional<RunOutcome>& failed() const { return failed_; }

 private:
  std::optional<RunOutcome> failed_;
};

// After every accepted step of the current run: its time and the steps taken.
void watch_step(double t, long steps);

}  // namespace tb
