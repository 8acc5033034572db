#pragma once
// The per-step cost benchmarks' page: benchmarks.json (the benchmark binary's parts merged),
// benchmarks.csv (one row per benchmark) and benchmarks.md (the costs at three sizes, their growth
// with N fitted and judged as the rest of the report fits power laws, and the comparisons the
// catalogue declares). The measurements are Google Benchmark's (benchmarks/bench_step_cost.cpp,
// run by app/running/external_steps.hpp); every word on the page is written here.

#include <map>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "app/common/csv_table.hpp"
#include "app/common/json.hpp"
#include "app/input/catalogue.hpp"
#include "numerics/statistics.hpp"

namespace tb {

// One benchmark: step/<model>/<integrator>/N:<N>, or mass_solve/N:<N> (model "", integrator "mass_solve").
struct StepCostRow {
  std::string benchmark, model, integrator;
  long n = 0;
  std::string size;  // what N counts in the model, as the benchmark binary declares it ("" when it does not)
  double ns_per_step = 0.0;  // CPU time per iteration, the median over repetitions
  std::optional<double> rhs_evals_per_step, newton_iters_per_step;  // medians; none for mass_solve
  // The share of the model's elements shorter than their rest length after the warm-up and after
  // the timed steps (medians), where the benchmark model counts them (a cable's slack elements).
  std::optional<double> short_fraction_start, short_fraction_end;
  bool is_mass_solve() const { return integrator == "mass_solve"; }
};

struct StepCosts {
  JsonValue context;                          // Google Benchmark's context object
  std::vector<StepCostRow> rows;              // mass_solve last, then by model, integrator, N
  std::map<std::string, std::string> errors;  // benchmark -> its error message (skipped)
};

// The page's rules, with their reasons in step_cost_page.cpp.
struct StepCostRules {
  std::vector<long> table_n{20, 200, 2000};
  long fit_min_n = 50;
  double linear_band = 0.15;
};

// One JSON document of the parts, in order: the first part's context, every part's benchmarks.
// InputError naming the part that cannot be read or is not Google Benchmark output.
JsonValue merge_benchmark_parts(const std::vector<std::string>& part_paths);
// The rows of Google Benchmark's output (aggregates ignored: medians are taken over the repetitions).
StepCosts read_step_costs(const JsonValue& output);

// How cost grows with N over N >= rules.fit_min_n: least squares of log cost on log N with its 95%
// interval (numerics/statistics.hpp, as the report's other power laws), per step and per evaluation.
struct StepCostGrowth {
  std::string model, integrator;
  PowerLawFit per_step;
  std::optional<PowerLawFit> per_evaluation;  // when every fitted row counts its evaluations
  long n_min = 0, n_max = 0;
  std::string verdict;  // "yes", "**no — check**" or "inconclusive: ..." (linear_verdict)
};
std::vector<StepCostGrowth> step_cost_growth(const StepCosts& costs, const StepCostRules& rules = {});
// Whether a fitted cost exponent is O(N), by the page's rule (step_cost_page.cpp).
std::string linear_verdict(const PowerLawFit& fit, const StepCostRules& rules = {});

void write_step_cost_csv(const std::vector<StepCostRow>& rows, std::ostream& out);
// benchmarks.md's text. `summary`: the report's summary.csv (its whole runs; empty: no such section).
std::string step_cost_markdown(const StepCosts& costs, const StepCostComparisons& comparisons, const CsvTable& summary,
                               const StepCostRules& rules = {});

// The page in `dir` from the parts: benchmarks.json, benchmarks.csv and benchmarks.md; false,
// with the reason on stderr, when the parts cannot be read or hold no step or mass_solve benchmark.
// `without_models`: integrators no benchmark model runs, named on the page with that reason.
bool write_step_cost_page(const std::vector<std::string>& part_paths, const std::string& dir,
                          const StepCostComparisons& comparisons, const std::vector<std::string>& without_models = {});

}  // namespace tb
