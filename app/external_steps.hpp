#pragma once
// The report's steps that run other programs: the Google Benchmark binary and its summary, and
// the matplotlib figures with index.md (scripts/*.py under /usr/bin/python3, where Debian's
// python3-* packages import). Kept apart from the report's own logic so that the one place
// that builds shell commands quotes every path.

#include <string>
#include <vector>

namespace tb {

// 'text' for /bin/sh, with embedded quotes escaped.
std::string shell_quote(const std::string& text);

// What the report asks of the benchmark binary (benchmarks/bench_step_cost.cpp).
struct BenchmarkRun {
  std::string binary, scripts_dir, dir;
  // The plugins the report loaded: passed on as --plugin FILE each (and TETHERBENCH_PLUGINS
  // emptied for it, so that none is loaded twice), their integrators measured like the suite's.
  std::vector<std::string> plugins;
  // The report's --integrator selection, passed on as --integrator NAME each; empty: every one.
  std::vector<std::string> integrators;
  // The selected integrators that are no plugin's (the suite's own): what is measured again,
  // alone, when the binary dies while plugins are loaded. A plugin's step that crashes the
  // benchmark binary (which measures in-process: a step in a worker process would time the
  // fork) costs that plugin's step costs, not the suite's.
  std::vector<std::string> builtin_integrators;
  // Measured one integrator at a time, each into a part of its own under store_dir, keyed by the
  // build's identity, the integrator's origin (its plugin's version and file hash; "" built in)
  // and the plugins' models (`models_origin`): a report into the same folder measures again only
  // the integrators whose key changed (issue 43: adding a plugin integrator measures that one),
  // unless `reuse` is off. Empty `measured`: every integrator in one run of the binary, nothing kept.
  std::vector<std::pair<std::string, std::string>> measured;  // name, origin
  std::string models_origin, identity, store_dir;
  bool reuse = false;
};

struct BenchmarksDone {
  bool ok = true;            // the binary and the summary ran
  std::string plugin_fault;  // "" or how the binary died with the plugins loaded ("crashed (SIGSEGV)")
  size_t measured = 0, reused = 0;  // integrators (and the mass-solve part) measured now, or taken from the store
};

// The benchmark binary's command line for `run` (its output into run.dir/benchmarks.json).
std::string benchmark_command(const BenchmarkRun& run);
// Runs the benchmark binary (skipped with a message when it is absent) and summarise_benchmarks.py
// into run.dir. When the binary dies with plugins loaded, it is run again on the suite's own
// integrators only, and the plugins' step costs are left out with the reason (benchmarks.log,
// stderr, plugin_fault).
BenchmarksDone run_benchmarks(const BenchmarkRun& run);
// Runs plot_report.py on the report in `dir`; false when it failed. With `reuse`, a case's figures
// are kept when nothing they are drawn from changed (its store: dir/.jobs/figures).
bool run_plots(const std::string& scripts_dir, const std::string& dir, bool reuse = false);

}  // namespace tb
