#include "app/running/external_steps.hpp"

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "app/common/fingerprint.hpp"
#include "app/running/isolation.hpp"  // signal_name

namespace fs = std::filesystem;

namespace tb {

std::string shell_quote(const std::string& text) {
  std::string q = "'";
  for (char ch : text) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
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

// One part of the measurement: the benchmarks matching `filter` (of `integrator`, "" for none
// named) into `part`, written then renamed; how the binary ended ("" when the part was kept).
// An empty TETHERBENCH_PLUGINS: the plugins are named once, on the command line.
std::string measure_part(const BenchmarkRun& run, const std::vector<std::string>& plugins, const std::string& integrator,
                         const std::string& filter, const std::string& part, const std::string& log) {
  std::string command = "TETHERBENCH_PLUGINS= " + shell_quote(run.binary);
  for (const auto& p : plugins) command += " --plugin " + shell_quote(p);
  if (!integrator.empty()) command += " --integrator " + shell_quote(integrator);
  const std::string temporary = part + ".tmp";
  command += " --benchmark_filter=" + shell_quote(filter) + " " + kMinTime + " --benchmark_out=" + shell_quote(temporary) +
             " --benchmark_out_format=json >> " + shell_quote(log) + " 2>&1";
  const std::string ended = how_it_ended(std::system(command.c_str()));
  std::error_code ec;
  if (!ended.empty()) {
    fs::remove(temporary, ec);
    return ended;
  }
  fs::rename(temporary, part, ec);
  return ec ? "wrote no output (" + ec.message() + ")" : "";
}

}  // namespace

BenchmarksDone run_benchmarks(const BenchmarkRun& run) {
  BenchmarksDone done;
  if (!fs::exists(run.binary)) {
    std::fprintf(stderr, "tetherbench: benchmark binary %s not built; skipping benchmarks\n", run.binary.c_str());
    done.skipped = true;
    return done;
  }
  std::fprintf(stderr, "  running benchmarks (Google Benchmark, min time 0.05 s each%s)\n",
               run.plugins.empty() ? "" : ", with the plugins' integrators");
  fs::create_directories(run.store_dir);
  const std::string log = (fs::path(run.dir) / "benchmarks.log").string();
  if (std::FILE* truncate = std::fopen(log.c_str(), "w")) std::fclose(truncate);
  std::vector<std::string> parts, faults;
  // One part: reused from the store when its key matches, else measured (with the plugins loaded;
  // a built-in integrator's part measured again without them when that fails, so that a plugin's
  // fault costs the plugin's entries only).
  auto take = [&](const std::string& stem, const std::string& key, const std::string& integrator,
                  const std::string& filter, bool builtin) {
    const std::string part =
        (fs::path(run.store_dir) / (stem + "." + fingerprint_of(run.identity + "\n" + key + "\n" + kMinTime) + ".json"))
            .string();
    if (run.reuse && fs::exists(part)) {
      ++done.reused;
      parts.push_back(part);
      return;
    }
    std::string ended = measure_part(run, run.plugins, integrator, filter, part, log);
    if (!ended.empty() && !run.plugins.empty()) {
      faults.push_back((integrator.empty() ? std::string("mass_solve") : integrator) + ": " + ended);
      if (builtin) ended = measure_part(run, {}, integrator, filter, part, log);
    }
    std::error_code size_ec;
    if (ended.empty() && !integrator.empty() && fs::file_size(part, size_ec) == 0 && !size_ec) {
      // Google Benchmark matched nothing and wrote nothing: no benchmark model runs this integrator.
      fs::remove(part, size_ec);
      done.without_models.push_back(integrator);
    } else if (ended.empty()) {
      ++done.measured;
      parts.push_back(part);
    } else if (builtin) {
      done.ok = false;
    }
  };
  take("mass_solve", "mass_solve", "", "^mass_solve/", true);
  for (const auto& [name, origin] : run.measured)
    take("step_" + name, name + "\n" + origin + "\n" + run.models_origin, name, "^step/[^/]+/" + regex_literal(name) + "/",
         origin.empty());
  // Parts of earlier keys (another build, a changed plugin) are never read again: removed.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(run.store_dir, ec))
    if (std::find(parts.begin(), parts.end(), entry.path().string()) == parts.end()) fs::remove(entry.path(), ec);
  if (!faults.empty()) {
    done.plugin_fault = faults.front() + (faults.size() > 1 ? " (and " + std::to_string(faults.size() - 1) + " more)" : "");
    std::fprintf(stderr,
                 "tetherbench: the benchmark binary with the plugins loaded: %s (%s); the suite's own integrators "
                 "measured alone, the failing plugins' step costs left out\n",
                 done.plugin_fault.c_str(), log.c_str());
  }
  std::fprintf(stderr, "  benchmarks: %zu parts measured now, %zu reused from %s\n", done.measured, done.reused,
               run.store_dir.c_str());
  done.parts = parts;
  done.ok = done.ok && !parts.empty();
  return done;
}

bool run_plots(const std::string& scripts_dir, const std::string& dir, bool reuse) {
  std::string command = "/usr/bin/python3 " + shell_quote(scripts_dir + "/plot_report.py") + " " + shell_quote(dir);
  // The store is written either way: after a --fresh report the next one keeps the figures.
  command += " --store " + shell_quote((fs::path(dir) / ".jobs" / "figures").string()) + (reuse ? "" : " --fresh");
  return std::system(command.c_str()) == 0;
}

}  // namespace tb
