#pragma once
// The values of the models' own conserved scalars (Casimirs, ...) that an Observation carries and
// ConservationMetrics accumulates: a fixed array of slots, NaN where a model has none. What each
// slot is, its name and its metric, is declared in the metric registry (core/metric_registry.hpp);
// the formulations and the metrics need only the values, and so include this, not the registry.

#include <array>
#include <cstddef>
#include <limits>

namespace tb {

// Room for the models' own conserved scalars in an Observation and in ConservationMetrics: slot i
// is row i of invariant_specs(). A fixed capacity keeps Observation a plain value; raising it is a
// change of the kernel's interface (plugins are rebuilt), adding a row below it is not.
inline constexpr std::size_t kInvariantSlots = 4;
using InvariantValues = std::array<double, kInvariantSlots>;
constexpr InvariantValues no_invariants() {
  InvariantValues v{};
  for (auto& x : v) x = std::numeric_limits<double>::quiet_NaN();
  return v;
}

}  // namespace tb
