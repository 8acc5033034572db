#pragma once
// What each metric core measures (core/metrics.hpp: metric_names()) is made of, for the
// judgements that depend on it: the magnitude its round-off floor scales with (app/round_off.hpp:
// round_off_floor) and the growth fit that belongs to it (studies/paper_verdict.cpp). One row
// per metric, looked up by the metric's exact name: a metric without a row is an error
// (std::out_of_range), never a default scale chosen by the first letters of its name, and
// tests/test_gates.cpp checks that every metric core measures has its row.

#include <stdexcept>
#include <string>
#include <string_view>

namespace tb {

// The magnitude a metric is computed from (ConservationMetrics: energy_magnitude,
// momentum_magnitude, linear_momentum_magnitude); Unit: dimensionless, or lengths of order one.
// EnergyPerSecond: an energy divided by the run's duration (a drift rate).
enum class RoundOffScale { Unit, Energy, EnergyPerSecond, Momentum, LinearMomentum };

// The growth law fitted to a metric's error (ConservationMetrics::energy_growth,
// momentum_growth): energy errors have the energy's, momentum errors about the symmetry axis the
// momentum's; no other metric has one.
enum class GrowthOf { None, Energy, Momentum };

struct MetricTraits {
  std::string_view name;
  RoundOffScale scale;
  GrowthOf growth;
};

inline constexpr MetricTraits kMetricTable[] = {
    {"energy_err_max", RoundOffScale::Energy, GrowthOf::Energy},
    {"energy_err_mean", RoundOffScale::Energy, GrowthOf::Energy},
    {"energy_err_rel_ke", RoundOffScale::Energy, GrowthOf::Energy},
    {"energy_drift_rate", RoundOffScale::EnergyPerSecond, GrowthOf::None},
    {"energy_drift_rate_abs", RoundOffScale::EnergyPerSecond, GrowthOf::None},
    {"momentum_err_max", RoundOffScale::Momentum, GrowthOf::Momentum},
    {"momentum_err_mean", RoundOffScale::Momentum, GrowthOf::Momentum},
    {"constraint_err_max", RoundOffScale::Unit, GrowthOf::None},
    {"constraint_rate_err_max", RoundOffScale::Unit, GrowthOf::None},
    {"linear_momentum_err_max", RoundOffScale::LinearMomentum, GrowthOf::None},
    {"orthogonality_err_max", RoundOffScale::Unit, GrowthOf::None},
    {"orthogonality_err_mean", RoundOffScale::Unit, GrowthOf::None},
};

inline const MetricTraits& metric_traits(std::string_view metric) {
  for (const auto& m : kMetricTable)
    if (m.name == metric) return m;
  throw std::out_of_range("metric '" + std::string(metric) + "' has no row in app/metric_table.hpp");
}

}  // namespace tb
