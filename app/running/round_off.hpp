#pragma once
// The round-off floor of a conserved quantity's error for one run: below it a measured error is
// our arithmetic, not the method (Brouwer's law). The gates never check or record an upper
// bound below it; the growth laws and the papers' verdicts call an error under it "round-off".

#include <string>

#include "core/metric_registry.hpp"
#include "app/input/run_records.hpp"

namespace tb {

// kRoundOffUlps * eps * scale * sqrt(steps) (app/running/round_off.cpp). The scale is the metric's
// MetricSpec::scale (core/metric_registry.hpp; std::out_of_range for a name that is no metric).
double round_off_floor(const std::string& metric, const SummaryRow& row);
double round_off_floor(const MetricSpec& metric, const SummaryRow& row);
// A scale that needs no slot (std::logic_error for RoundOffScale::Invariant: use the metric's spec).
double round_off_floor(RoundOffScale scale, const SummaryRow& row);
// The same floor for a quantity of magnitude `scale` (never below 1) after `steps` steps: a
// time series' quantity that no summary metric names (app/input/claim_series.hpp).
double round_off_floor(double scale, long steps);

}  // namespace tb
