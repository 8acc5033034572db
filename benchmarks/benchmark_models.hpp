#pragma once
// The models the benchmarks run, each built in code for a given number of string elements N.
// A model here is the registry's model at its paper parameters, with only N varied, so the
// per-step cost can be followed as the discretisation is refined (the hanging tethers: the bundled
// cases' tether, undamped and from a state half slack, half taut; benchmark_models.cpp says why).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"

namespace tb::bench {

struct BenchmarkModel {
  std::string name;  // appears in benchmark names: step/<name>/<integrator>/N:<N>
  std::function<std::shared_ptr<const Model>(int N)> make;
  // Angular frequency of the model's fastest mode with N elements (rad/s). Fixed-step
  // integrators are benchmarked at h = 0.3 / max_frequency(N), stable for every N.
  std::function<double(int N)> max_frequency;
  // What N counts in this model, with its unit: the x axis of its cost figure (benchmarks.csv's
  // size column), so a cable's links are never drawn against "string elements".
  std::string size_label;
  // An observation column (Formulation::extra_column_names) counting the elements shorter than
  // their rest length, "" when the model has none. The benchmark records its value / N after the
  // warm-up and after the timed steps (counters short_fraction_start, short_fraction_end): which
  // share of a tension-only cable's elements took the slack branch while it was measured.
  std::string short_elements_column;
  // The sizes it is measured at; empty: the suite's (bench_step_cost.cpp kElements). The first is
  // the smallest, the one ctest runs every benchmark at.
  std::vector<int> sizes = {};
};

// Model A's paper parameters with N elements (also used alone by the mass-matrix benchmark).
string_pendulum::Parameters string_pendulum_paper_parameters(int N);

// Every benchmark model. Adding a model: one entry in benchmark_models.cpp.
const std::vector<BenchmarkModel>& benchmark_models();

}  // namespace tb::bench
