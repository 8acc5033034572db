#include "app/external_steps.hpp"

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "app/fingerprint.hpp"
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


namespace {

constexpr const char* kMinTime = "--benchmark_min_time=0.05";

// A regular expression matching `text` literally (Google Benchmark's --benchmark_filter).
std::string regex_literal(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (std::strchr("\\^$.|?*+()[]{}", ch)) out += '\\';
    out += ch;
  }
  return out;
}

// One part of the measurement: the benchmarks matching `filter`, into `part` (written then renamed).
int measure_part(const BenchmarkRun& run, const std::vector<std::string>& plugins, const std::string& integrator,
                 const std::string& filter, const std::string& part, const std::string& log) {
  std::string command = "TETHERBENCH_PLUGINS= " + shell_quote(run.binary);
  for (const auto& p : plugins) command += " --plugin " + shell_quote(p);
  if (!integrator.empty()) command += " --integrator " + shell_quote(integrator);
  const std::string temporary = part + ".tmp";
  command += " --benchmark_filter=" + shell_quote(filter) + " " + kMinTime + " --benchmark_out=" + shell_quote(temporary) +
             " --benchmark_out_format=json >> " + shell_quote(log) + " 2>&1";
  const int status = std::system(command.c_str());
  std::error_code ec;
  if (status == 0) fs::rename(temporary, part, ec);
  else fs::remove(temporary, ec);
  return status == 0 && !ec ? 0 : (status == 0 ? 1 : status);
}

// Measures integrator by integrator, reusing stored parts; merges them into run.dir/benchmarks.json.
BenchmarksDone measure_by_parts(const BenchmarkRun& run) {
  BenchmarksDone done;
  fs::create_directories(run.store_dir);
  const std::string log = (fs::path(run.dir) / "benchmarks.log").string();
  std::FILE* truncate = std::fopen(log.c_str(), "w");
  if (truncate) std::fclose(truncate);
  std::vector<std::string> parts;
  std::vector<std::string> faults;
  auto part_for = [&](const std::string& stem, const std::string& key_text) {
    return (fs::path(run.store_dir) / (stem + "." + fingerprint_of(run.identity + "\n" + key_text + "\n" + kMinTime) + ".json"))
        .string();
  };
  auto take = [&](const std::string& part, const std::string& integrator, const std::string& filter, bool builtin) {
    if (run.reuse && fs::exists(part)) {
      ++done.reused;
      parts.push_back(part);
      return;
    }
    int status = measure_part(run, run.plugins, integrator, filter, part, log);
    if (status != 0 && !run.plugins.empty()) {
      faults.push_back((integrator.empty() ? std::string("mass_solve") : integrator) + ": " + (status == 1 ? "its output was not kept" : "the binary " + std::string(WIFSIGNALED(status) ? "crashed" : "failed")));
      // A built-in integrator measured again without the plugins: a plugin's fault costs the plugin's entries only.
      status = builtin ? measure_part(run, {}, integrator, filter, part, log) : status;
    }
    if (status == 0) {
      ++done.measured;
      parts.push_back(part);
    } else {
      done.ok = done.ok && !builtin;  // a plugin integrator that cannot be measured is the plugin's fault, reported below
    }
  };
  take(part_for("mass_solve", "mass_solve"), "", "^mass_solve/", true);
  for (const auto& [name, origin] : run.measured)
    take(part_for("step_" + name, name + "\n" + origin + "\n" + run.models_origin), name,
         "^step/[^/]+/" + regex_literal(name) + "/", origin.empty());
  // Parts of earlier keys (another build, a changed plugin) are never read again: removed.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(run.store_dir, ec))
    if (std::find(parts.begin(), parts.end(), entry.path().string()) == parts.end()) fs::remove(entry.path(), ec);
  if (!faults.empty()) {
    done.plugin_fault = "failed with the plugins loaded (" + faults.front() + (faults.size() > 1 ? ", ..." : "") + ")";
    std::fprintf(stderr, "tetherbench: the benchmark binary %s; see %s\n", done.plugin_fault.c_str(), log.c_str());
  }
  std::fprintf(stderr, "  benchmarks: %zu parts measured now, %zu reused from %s\n", done.measured, done.reused,
               run.store_dir.c_str());
  std::string merge = "/usr/bin/python3 " + shell_quote(run.scripts_dir + "/summarise_benchmarks.py") + " --merge " +
                      shell_quote((fs::path(run.dir) / "benchmarks.json").string());
  for (const auto& p : parts) merge += " " + shell_quote(p);
  const int merged = parts.empty() ? 1 : std::system(merge.c_str());
  done.ok = done.ok && merged == 0;
  return done;
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
  if (!run.measured.empty()) {
    done = measure_by_parts(run);
    const int summary = std::system(("/usr/bin/python3 " + shell_quote(run.scripts_dir + "/summarise_benchmarks.py") + " " +
                                     shell_quote(json) + " " + shell_quote(run.dir))
                                        .c_str());
    done.ok = done.ok && summary == 0;
    return done;
  }
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

bool run_plots(const std::string& scripts_dir, const std::string& dir, bool reuse) {
  std::string command = "/usr/bin/python3 " + shell_quote(scripts_dir + "/plot_report.py") + " " + shell_quote(dir);
  if (reuse) command += " --store " + shell_quote((fs::path(dir) / ".jobs" / "figures").string());
  return std::system(command.c_str()) == 0;
}

}  // namespace tb
