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

bool run_benchmarks(const std::string& benchmarks_binary, const std::string& scripts_dir, const std::string& dir) {
  if (!fs::exists(benchmarks_binary)) {
    std::fprintf(stderr, "tetherbench: benchmark binary %s not built; skipping benchmarks\n", benchmarks_binary.c_str());
    return true;
  }
  std::fprintf(stderr, "  running benchmarks (Google Benchmark, min time 0.05 s each)\n");
  const std::string json = (fs::path(dir) / "benchmarks.json").string();
  const int bench = std::system((shell_quote(benchmarks_binary) + " --benchmark_min_time=0.05 --benchmark_out=" +
                                 shell_quote(json) + " --benchmark_out_format=json > " +
                                 shell_quote((fs::path(dir) / "benchmarks.log").string()) + " 2>&1")
                                    .c_str());
  const int summary = std::system(("/usr/bin/python3 " + shell_quote(scripts_dir + "/summarise_benchmarks.py") + " " +
                                   shell_quote(json) + " " + shell_quote(dir))
                                      .c_str());
  return bench == 0 && summary == 0;
}

bool run_plots(const std::string& scripts_dir, const std::string& dir) {
  return std::system(("/usr/bin/python3 " + shell_quote(scripts_dir + "/plot_report.py") + " " + shell_quote(dir)).c_str()) == 0;
}

}  // namespace tb
