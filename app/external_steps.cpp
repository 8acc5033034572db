#include "app/external_steps.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

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

bool run_benchmarks(const BenchmarkRun& run) {
  if (!fs::exists(run.binary)) {
    std::fprintf(stderr, "tetherbench: benchmark binary %s not built; skipping benchmarks\n", run.binary.c_str());
    return true;
  }
  std::fprintf(stderr, "  running benchmarks (Google Benchmark, min time 0.05 s each%s)\n",
               run.plugins.empty() ? "" : ", with the plugins' integrators");
  const std::string json = (fs::path(run.dir) / "benchmarks.json").string();
  const int bench =
      std::system((benchmark_command(run) + " > " + shell_quote((fs::path(run.dir) / "benchmarks.log").string()) + " 2>&1").c_str());
  const int summary = std::system(("/usr/bin/python3 " + shell_quote(run.scripts_dir + "/summarise_benchmarks.py") + " " +
                                   shell_quote(json) + " " + shell_quote(run.dir))
                                      .c_str());
  return bench == 0 && summary == 0;
}

bool run_plots(const std::string& scripts_dir, const std::string& dir) {
  return std::system(("/usr/bin/python3 " + shell_quote(scripts_dir + "/plot_report.py") + " " + shell_quote(dir)).c_str()) == 0;
}

}  // namespace tb
