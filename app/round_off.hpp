#pragma once
// The round-off floor of a conserved quantity's error for one run: below it a measured error is
// our arithmetic, not the method (Brouwer's law). The gates never check or record an upper
// bound below it; the growth laws and the papers' verdicts call an error under it "round-off".

#include <string>

#include "app/metric_table.hpp"
#include "app/runner.hpp"

namespace tb {

// kRoundOffUlps * eps * scale * sqrt(steps) (app/round_off.cpp). The scale is the metric's row of
// app/metric_table.hpp (std::out_of_range for a metric without one).
double round_off_floor(const std::string& metric, const SummaryRow& row);
double round_off_floor(RoundOffScale scale, const SummaryRow& row);
// The same floor for a quantity of magnitude `scale` (never below 1) after `steps` steps: a
// time series' quantity that no summary metric names (app/claim_series.hpp).
double round_off_floor(double scale, long steps);

}  // namespace tb
