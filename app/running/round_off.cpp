#include "app/running/round_off.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace tb {

namespace {

// Round-off floors (Brouwer's law): a quantity a method conserves exactly in exact arithmetic
// (a VI's momentum, the orthogonality of a Lie group update, a constraint solved to
// round-off) still changes by rounding errors, a few ulps of its magnitude per step; they add
// up like a random walk, so after n steps the error is ~ eps * scale * sqrt(n) (Brouwer 1937;
// Hairer, McLachlan & Razakarivony 2008). An upper bound is never below
//   kRoundOffUlps * eps * scale * sqrt(n),
// with n the run's steps and scale the magnitude the quantity is computed from (energy:
// max |T| + |V|; angular / linear momentum: its value at t = 0; dimensionless orthogonality
// and constraints of unit-sized lengths: 1), never below 1 (SI units, bundled cases of order
// one). It is applied when the gate is checked, with the gate run's own n, so a longer gate
// run gets a proportionally larger floor instead of failing a fixed 1e-13; and when a bound
// is recorded. 8 ulps per sqrt(step) is ~4x the largest round-off the bundled gate runs
// show (orthogonality 1.3e-14 after ~1000 steps: 1.9 ulps per sqrt(step)).
constexpr double kRoundOffUlps = 8.0;

double brouwer(double scale, long steps) {
  return kRoundOffUlps * std::numeric_limits<double>::epsilon() * scale * std::sqrt(double(std::max(1L, steps)));
}

}  // namespace

namespace {
double floor_of(RoundOffScale of, double invariant_magnitude, const SummaryRow& row) {
  const ConservationMetrics& m = row.metrics;
  double scale = 1.0;
  switch (of) {
    case RoundOffScale::Unit: break;
    case RoundOffScale::Energy:
    case RoundOffScale::EnergyPerSecond: scale = m.energy_magnitude; break;
    case RoundOffScale::Momentum: scale = m.momentum_magnitude; break;
    case RoundOffScale::LinearMomentum: scale = m.linear_momentum_magnitude; break;
    case RoundOffScale::Invariant: scale = invariant_magnitude; break;
  }
  if (!(scale >= 1.0)) scale = 1.0;  // also NaN
  if (of == RoundOffScale::EnergyPerSecond) scale /= std::max(row.t_end, 1e-300);
  return brouwer(scale, row.counters.steps);
}
}  // namespace

double round_off_floor(const std::string& metric, const SummaryRow& row) { return round_off_floor(metric_spec(metric), row); }

double round_off_floor(const MetricSpec& metric, const SummaryRow& row) {
  const double invariant = metric.scale == RoundOffScale::Invariant ? row.metrics.invariant_magnitude.at(metric.slot) : 1.0;
  return floor_of(metric.scale, invariant, row);
}

double round_off_floor(RoundOffScale of, const SummaryRow& row) {
  if (of == RoundOffScale::Invariant) throw std::logic_error("round_off_floor: an invariant's floor needs its metric (slot)");
  return floor_of(of, 1.0, row);
}

double round_off_floor(double scale, long steps) { return brouwer(scale >= 1.0 ? scale : 1.0, steps); }

}  // namespace tb
