// Per-step cost of every integrator on every benchmark model, and its growth with the number
// of string elements N (Google Benchmark). Benchmarks are registered at run time from the
// suite catalogue's integrators and benchmarks/benchmark_models.cpp:
//
//   step/<model>/<integrator>/N:<N>   one TimeStepper::step() per iteration
//   mass_solve/N:<N>                  one factor + solve of Model A's block-tridiagonal mass matrix
//
// Step settings, the same for every N:
//   fixed-step methods: h = 0.3 / omega_max(N), with omega_max the model's fastest mode (for
//     Model A omega_max = 2 sqrt(3) sqrt(EA / (mu u^2)), u = l/N, the consistent-mass value;
//     a lumped-mass string's fastest mode is lower, 2 sqrt(EA / (mu u^2))), well inside RK4's
//     stability limit (|h omega| < 2.8) and the LGVI's (h omega < 2), so every step is stable
//     for every N (explicit RK2 is never strictly stable on the imaginary axis, but its
//     amplification at h omega <= 0.3 is 1 + O((h omega)^4 / 8) per step: harmless over a benchmark);
//   adaptive methods: rtol 1e-6, atol 1e-9, initial step the same h; one iteration is one
//     accepted step (its rejected trials included in the time and the counters).
// The formulation and stepper are built, and a few warm-up steps taken, outside the timed loop.
// Counters (per accepted step): rhs_evals, newton_iters; plus N and the mean step h_mean (s), and
// for a model that counts its short elements (BenchmarkModel::short_elements_column) their share
// of N after the warm-up and after the timed steps (short_fraction_start, short_fraction_end).
//
//   benchmarks [--plugin FILE]... [--integrator NAME]... --benchmark_min_time=0.05 --benchmark_out=b.json --benchmark_out_format=json
//
// `tetherbench report` runs it one integrator at a time and writes benchmarks.csv and benchmarks.md
// from its output (app/writing/step_cost_page.hpp); run alone, its JSON is the result.
//
// The integrators are the catalogue's as `tetherbench` has it: the suite's, and those of the
// plugins named by --plugin FILE (repeatable) and TETHERBENCH_PLUGINS=A.so:B.so, loaded and
// refused exactly as by tetherbench (app/running/plugins.hpp; a refused plugin ends the binary with
// status 2 and the message); --integrator NAME (repeatable) keeps only the integrators named
// (`tetherbench report --integrator ...` passes its selection on). The models are the benchmark
// models below, built in code at each N: a plugin's model comes with a factory reading case
// tables, not with a size to vary, so plugin models are not benchmarked.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/input/integrator_selection.hpp"
#include "app/running/plugins.hpp"
#include "benchmarks/benchmark_models.hpp"
#include "numerics/block_tridiagonal.hpp"
#include "core/integrator.hpp"
#include "suite/catalogue.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"

namespace {

using tb::bench::BenchmarkModel;

const std::vector<int> kElements = {10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
constexpr double kStabilityFraction = 0.3;  // h omega_max for fixed-step methods
constexpr double kRtol = 1e-6, kAtol = 1e-9;
constexpr int kWarmupSteps = 10;
constexpr int kAdaptiveWarmupSteps = 30;  // lets the step-size controller settle

void step_cost(benchmark::State& state, const BenchmarkModel& model, const tb::IntegratorInfo& info, int N) {
  const auto m = model.make(N);
  std::string why_not;
  const std::unique_ptr<tb::Formulation> form = m->make_formulation(info.consumes, why_not);
  if (!form) {
    state.SkipWithError(("n/a: " + why_not).c_str());
    return;
  }
  tb::IntegratorSettings settings = tb::IntegratorSettings::defaults(info.settings, kStabilityFraction / model.max_frequency(N));
  if (settings.declares("rtol")) settings.set("rtol", kRtol);
  if (settings.declares("atol")) settings.set("atol", kAtol);
  const std::unique_ptr<tb::TimeStepper> stepper = info.make(*form, settings, 0.0);
  constexpr double t_stop = std::numeric_limits<double>::infinity();  // never shortens a step

  tb::StepFailure failure;
  const int warmup = info.adaptive ? kAdaptiveWarmupSteps : kWarmupSteps;
  for (int i = 0; i < warmup; ++i) {
    if (!stepper->step(t_stop, failure)) {
      state.SkipWithError(("warm-up step failed: " + failure.reason).c_str());
      return;
    }
  }

  // The share of elements shorter than their rest length (slack, for a tension-only cable) as the
  // timed steps start and as they end: the state the cost was measured in.
  std::optional<size_t> short_column;
  if (!model.short_elements_column.empty()) {
    const auto columns = form->extra_column_names();
    const auto at = std::find(columns.begin(), columns.end(), model.short_elements_column);
    if (at == columns.end()) {
      state.SkipWithError(("no observation column '" + model.short_elements_column + "'").c_str());
      return;
    }
    short_column = size_t(at - columns.begin());
  }
  auto short_fraction = [&] { return form->observe(stepper->time(), stepper->state()).extra.at(*short_column) / N; };
  const double short_at_start = short_column ? short_fraction() : 0.0;

  const tb::StepCounters before = stepper->counters();
  const double t_before = stepper->time();
  bool failed = false;
  for (auto _ : state) {
    if (!stepper->step(t_stop, failure)) {
      failed = true;
      break;
    }
  }
  if (failed) {
    state.SkipWithError(("step failed at t = " + std::to_string(stepper->time()) + ": " + failure.reason).c_str());
    return;
  }
  const tb::StepCounters& after = stepper->counters();
  const double steps = double(after.steps - before.steps);
  if (steps > 0) {
    state.counters["rhs_evals"] = double(after.rhs_evals - before.rhs_evals) / steps;
    state.counters["newton_iters"] = double(after.newton_iters - before.newton_iters) / steps;
    state.counters["h_mean"] = (stepper->time() - t_before) / steps;
  }
  state.counters["N"] = N;
  if (short_column) {
    state.counters["short_fraction_start"] = short_at_start;
    state.counters["short_fraction_end"] = short_fraction();
  }
}

// The O(N) block-tridiagonal solve alone: factor + solve of Model A's mass matrix (what one
// ODE right-hand side does after assembling it).
void mass_solve(benchmark::State& state, int N) {
  const tb::string_pendulum::Mechanics mech(tb::bench::string_pendulum_paper_parameters(N));
  tb::BlockTridiagonal3 A;
  mech.assemble_mass_matrix(tb::so3::exp(tb::Vec3(0.3, -0.2, 0.5)), A);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(3 * (N + 1), -1.0, 1.0);
  Eigen::VectorXd x(b.size());
  for (auto _ : state) {
    if (!A.factor()) {
      state.SkipWithError("singular mass matrix");
      break;
    }
    x = b;
    A.solve_in_place(x);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  state.counters["N"] = N;
}

// The integrators measured: the suite's with the plugins' (static: the registered benchmarks
// point into it).
tb::Catalogue& measured_catalogue() {
  static tb::Catalogue catalogue = tb::suite_catalogue();
  return catalogue;
}

// Takes this binary's own options out of argv (Google Benchmark refuses options it does not know):
// --plugin FILE / --plugin=FILE and --integrator NAME / --integrator=NAME. Throws InputError on one
// without its value.
void take_own_options(int& argc, char** argv, std::vector<std::string>& plugins, std::vector<std::string>& integrators) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    bool taken = false;
    for (auto [option, list] : {std::pair{std::string("--plugin"), &plugins}, std::pair{std::string("--integrator"), &integrators}}) {
      if (arg == option) {
        if (i + 1 >= argc) throw tb::InputError(option + ": expected a value after it");
        list->push_back(argv[++i]);
        taken = true;
      } else if (arg.rfind(option + "=", 0) == 0) {
        list->push_back(arg.substr(option.size() + 1));
        taken = true;
      }
    }
    if (!taken) argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
}

void register_benchmarks() {
  for (const BenchmarkModel& model : tb::bench::benchmark_models()) {
    for (const tb::IntegratorInfo& info : measured_catalogue().integrators) {
      std::string why_not;
      const auto form = model.make(2)->make_formulation(info.consumes, why_not);
      if (form && info.why_not) why_not = info.why_not(*form);  // an integrator may decline a form of its kind
      if (!form || !why_not.empty()) {
        std::fprintf(stderr, "step/%s/%s: n/a (%s)\n", model.name.c_str(), info.name.c_str(), why_not.c_str());
        continue;
      }
      for (int N : model.sizes.empty() ? kElements : model.sizes) {
        const std::string name = "step/" + model.name + "/" + info.name + "/N:" + std::to_string(N);
        benchmark::RegisterBenchmark(name.c_str(), [&model, &info, N](benchmark::State& st) {
          step_cost(st, model, info, N);
        });
      }
    }
  }
  for (int N : kElements) {
    const std::string name = "mass_solve/N:" + std::to_string(N);
    benchmark::RegisterBenchmark(name.c_str(), [N](benchmark::State& st) { mass_solve(st, N); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::vector<std::string> plugins, integrators;
    take_own_options(argc, argv, plugins, integrators);
    tb::load_plugins(tb::plugin_files(plugins), measured_catalogue());
    measured_catalogue() = tb::selected_catalogue(measured_catalogue(), integrators);
    // The step-cost page's comparisons name benchmark models (suite/catalogue.cpp): each must be
    // one of ours, or the page would silently leave its table out.
    for (const std::string& name : measured_catalogue().step_cost.models()) {
      const auto& models = tb::bench::benchmark_models();
      if (std::none_of(models.begin(), models.end(), [&](const BenchmarkModel& m) { return m.name == name; }))
        throw tb::InputError("the catalogue's step-cost comparisons name '" + name + "', which is no benchmark model");
    }
  } catch (const tb::InputError& e) {
    std::fprintf(stderr, "tetherbench_benchmarks: %s\n", e.what());
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("fixed_step_rule", "h = 0.3 / omega_max(N)");
  benchmark::AddCustomContext("adaptive_tolerances", "rtol 1e-6, atol 1e-9; per accepted step");
  benchmark::AddCustomContext("time_measure", "cpu_time per iteration = per step");
  // What N counts in each model (benchmarks.csv's size column, the x axis of its figure).
  for (const BenchmarkModel& model : tb::bench::benchmark_models())
    benchmark::AddCustomContext("size_of_" + model.name, model.size_label);
  benchmark::AddCustomContext("size_of_mass_solve", "string elements N [dimensionless count]");
  // Each plugin measured, with how it was compiled (a plugin built without optimisation is not
  // comparable: benchmarks.md shows these rows).
  for (const auto& p : measured_catalogue().plugins)
    benchmark::AddCustomContext("plugin " + p.name, p.version + ", file hash " + p.hash + ", " + tb::plugin_build(p) + ", " + p.file);
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
