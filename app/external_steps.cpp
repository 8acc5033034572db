#include "app/external_steps.hpp"

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>

#include <cstring>
#include <filesystem>

#include "app/isolation.hpp"  // signal_name

namespace fs = std::filesystem;

namespace tb {

std::string shell_quote(const std::string& text) {
  std::string q = "'";
  for (char ch : text) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string benchmark_command(const BenchmarkRun& run) {
  // An empty TETHERBENCH_PLUGINS: the plugins are named once, on the command line.
  std::string command = "TETHERBENCH_PLUGINS= " + shell_quote(run.binary);
  for (const auto& p : run.plugins) command += " --plugin " + shell_quote(p);
  for (const auto& i : run.integrators) command += " --integrator " + shell_quote(i);
  const std::string json = (fs::path(run.dir) / "benchmarks.json").string();
  return command + " --benchmark_min_time=0.05 --benchmark_out=" + shell_quote(json) + " --benchmark_out_format=json";
}

namespace {

// How a command run by std::system ended: "" for status 0, else "crashed (SIGSEGV)" or "exited with status N".
std::string how_it_ended(int status) {
  if (status == 0) return "";
  if (WIFSIGNALED(status)) return std::string("crashed (") + signal_name(WTERMSIG(status)) + ")";
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    // /bin/sh reports a child killed by signal S as status 128 + S.
    if (code > 128 && code < 128 + 65) return std::string("crashed (") + signal_name(code - 128) + ")";
    return "exited with status " + std::to_string(code);
  }
  return "ended abnormally";
}

}  // namespace


BenchmarksDone run_benchmarks(const BenchmarkRun& run) {
  BenchmarksDone done;
  if (!fs::exists(run.binary)) {
    std::fprintf(stderr, "tetherbench: benchmark binary %s not built; skipping benchmarks\n", run.binary.c_str());
    return done;
  }
  std::fprintf(stderr, "  running benchmarks (Google Benchmark, min time 0.05 s each%s)\n",
               run.plugins.empty() ? "" : ", with the plugins' integrators");
  const std::string json = (fs::path(run.dir) / "benchmarks.json").string();
  const std::string log = (fs::path(run.dir) / "benchmarks.log").string();
  int bench = std::system((benchmark_command(run) + " > " + shell_quote(log) + " 2>&1").c_str());
  if (bench != 0 && !run.plugins.empty()) {
    done.plugin_fault = how_it_ended(bench);
    std::fprintf(stderr,
                 "tetherbench: the benchmark binary %s with the plugins loaded (%s); measuring the suite's own "
                 "integrators alone, the plugins' step costs left out\n",
                 done.plugin_fault.c_str(), log.c_str());
    BenchmarkRun builtins = run;
    builtins.plugins.clear();
    builtins.integrators = run.builtin_integrators;
    bench = builtins.integrators.empty()
                ? 0
                : std::system((benchmark_command(builtins) + " >> " + shell_quote(log) + " 2>&1").c_str());
    if (builtins.integrators.empty()) return done;  // nothing of the suite's own was selected
  }
  const int summary = std::system(("/usr/bin/python3 " + shell_quote(run.scripts_dir + "/summarise_benchmarks.py") + " " +
                                   shell_quote(json) + " " + shell_quote(run.dir))
                                      .c_str());
  done.ok = bench == 0 && summary == 0;
  return done;
}

bool run_plots(const std::string& scripts_dir, const std::string& dir) {
  return std::system(("/usr/bin/python3 " + shell_quote(scripts_dir + "/plot_report.py") + " " + shell_quote(dir)).c_str()) == 0;
}

}  // namespace tb
