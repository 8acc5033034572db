#pragma once
#include <array>
#include <limits>
#include <string>

#include "app/runner.hpp"
#include "app/study.hpp"
#include "numerics/statistics.hpp"

namespace tb {

// Work-precision sweep of every run of every case (fixed-step methods over [report] steps,
// adaptive ones over [report] tolerances with atol = 1e-2 rtol) against the stored reference
// solution of the run's discretisation, and the measured orders of the fixed-step methods.
// Writes work_precision.csv and orders.csv.
StudyInfo work_precision_study();

// The measured orders' rules (orders.csv; issue 24 item 3, issue 32 item 5), with their reasons
// at their use in work_precision.cpp; public so that tests/test_orders.cpp can hold them to numbers.
struct OrderRules {
  double resolution = 10.0;  // errors at least this many times the references' agreement (lower bound)
  double ceiling = 0.1;      // and at most this fraction of the quantity's own scale (upper bound)
  double agreement = 0.3;    // local orders within this of each other
  std::size_t min_points = 3;
  double floor = 0.5;        // a point falling at a local order below this is on a floor
  double flag_band = 0.5;    // |measured - declared| above this is flagged
};
// One point of a fixed-step sweep as the orders see it.
struct OrderSweepPoint {
  double h = 0.0;
  bool ok = false;              // the run reached the horizon
  double error = 0.0;           // final state's max-norm error
  double relative_error = 0.0;  // the same against the quantity's scale (WorkPrecisionResult::relative_error)
  double agreement = 0.0;       // the references' agreement in that measure
};
struct MeasuredOrder {
  AsymptoticOrder fit;
  // As printed, 4 and 2 significant digits (the flag is judged on these). ci95 is the fit's 95%
  // half-width plus reference_bound: the most the references' uncertainty can move the slope
  // (each fitted error may be off by up to agreement / error, relative; the slope is a weighted
  // sum of the log errors, sum_i w_i log e_i, so by up to sum_i |w_i| agreement_i / e_i). The
  // least-squares interval alone treats the errors as exact.
  double p = 0.0, ci95 = 0.0;
  double reference_bound = 0.0;
  std::string flag;            // "" when consistent with the declared order
  std::size_t above_ceiling = 0;  // points that ran but whose error is above rules.ceiling
  double relative_error_max = 0.0;  // over the fitted window
};
MeasuredOrder measure_order(const std::vector<OrderSweepPoint>& sweep, double declared, const OrderRules& rules = {});

// One point's result, as its job returns it (bytes between processes and in the resume store).
struct WorkPrecisionResult {
  Measurement measured;
  double error = 0.0;  // final state's max-norm distance from the reference (0 when the run failed)
  // L2 / Linf over time of configuration and rates (l2_configuration, linf_configuration, l2_rate,
  // linf_rate); NaN when the run failed or did not sample every grid time.
  std::array<double, 4> trajectory{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  std::string trajectory_note;  // why there are no trajectory errors, when there are none
  // The error norm the rankings use: RMS over the grid and over every component of the physical
  // state of the error divided by that component's range in the reference (scaled_l2 below).
  double scaled_l2 = std::numeric_limits<double>::quiet_NaN();
  // The final-state error against the quantity's own scale: per kind of physical entry
  // (configuration, rate, other: Model::physical_parts), the largest |error| over the largest
  // |value| the reference trajectory takes in that kind, the largest of these ratios. The
  // orders' asymptotic range is bounded from above by it (no fit over O(1) errors).
  double relative_error = std::numeric_limits<double>::quiet_NaN();
};
template <class V>
void describe(V& v, WorkPrecisionResult& r) {  // app/record.hpp
  v("measured", r.measured);
  v("error", r.error);
  v("trajectory", r.trajectory);
  v("trajectory_note", r.trajectory_note);
  v("scaled_l2", r.scaled_l2);
  v("relative_error", r.relative_error);
}

}  // namespace tb
