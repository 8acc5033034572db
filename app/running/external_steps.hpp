#pragma once
// The report's steps that run other programs: the Google Benchmark binary, and the matplotlib
// figures (scripts/*.py under /usr/bin/python3, where Debian's
// python3-* packages import). Kept apart from the report's own logic so that the one place
// that builds shell commands quotes every path.

#include <string>
#include <vector>

namespace tb {

// 'text' for /bin/sh, with embedded quotes escaped.
std::string shell_quote(const std::string& text);

// What the report asks of the benchmark binary (benchmarks/bench_step_cost.cpp).
struct BenchmarkRun {
  std::string binary, dir;
  // The plugins the report loaded: passed on as --plugin FILE each (and TETHERBENCH_PLUGINS
  // emptied for it, so that none is loaded twice), their integrators measured like the suite's.
  std::vector<std::string> plugins;
  // The integrators to measure (the report's, after any --integrator selection), each with its
  // origin ("" built in; a plugin's version and file hash), and the plugins' models' origins.
  // Each integrator is measured into a part of its own under store_dir (and the mass-matrix
  // solve into one more), keyed by the build's identity, its origin and the models' origins: a
  // report into the same folder measures again only the parts whose key changed (issue 43:
  // adding a plugin integrator measures that one), unless `reuse` is off.
  std::vector<std::pair<std::string, std::string>> measured;  // name, origin
  std::string models_origin, identity, store_dir;
  bool reuse = false;
};

struct BenchmarksDone {
  bool ok = true;            // every built-in part was measured or reused
  bool skipped = false;      // no benchmark binary: nothing measured, no page written
  std::string plugin_fault;  // "" or which part failed with the plugins loaded and how ("rk3: crashed (SIGSEGV)")
  size_t measured = 0, reused = 0;  // parts measured now, or taken from the store
  std::vector<std::string> parts;    // the parts' files (Google Benchmark JSON), in order
  // Integrators whose part holds no benchmark: no benchmark model offers a form they run (e.g. a method
  // for unilateral constraints only); the binary's n/a lines in benchmarks.log say why, model by model.
  std::vector<std::string> without_models;
};

// Measures the parts (skipped with a message when the binary is absent), or takes them from the
// store; the report writes its page from them (app/writing/step_cost_page.hpp). A part that fails with
// plugins loaded is the plugins' fault (plugin_fault, stderr, benchmarks.log): a built-in
// integrator's part is then measured again without them, a plugin's is left out.
BenchmarksDone run_benchmarks(const BenchmarkRun& run);
// Runs plot_report.py on the report in `dir`; false when it failed. With `reuse`, a case's figures
// are kept when nothing they are drawn from changed (its store: dir/.jobs/figures); without it
// (--fresh) every figure is drawn, and the store is written either way, so the next report keeps them.
bool run_plots(const std::string& scripts_dir, const std::string& dir, bool reuse = false);

}  // namespace tb
