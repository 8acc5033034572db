#pragma once
// A measured convergence order and its flag against the declared order, from a step sweep: the
// one rule behind the work-precision study's orders.csv and the gate's order check
// (app/judging/order_gate.hpp), so that the two never judge an order differently. Each caller brings its
// own errors (the study against a reference solution, the gate by self-convergence) and the
// uncertainty of each (OrderSweepPoint::agreement).

#include <cstddef>
#include <string>
#include <vector>

#include "numerics/statistics.hpp"

namespace tb {

// The measured orders' rules (orders.csv; issue 24 item 3, issue 32 item 5), with their reasons
// in order_fit.cpp; public so that tests/test_orders.cpp can hold them to numbers.
struct OrderRules {
  double resolution = 10.0;  // errors at least this many times the references' agreement (lower bound)
  double ceiling = 0.1;      // and at most this fraction of the quantity's own scale (upper bound)
  double agreement = 0.3;    // local orders within this of each other
  std::size_t min_points = 3;
  double floor = 0.5;        // a point falling at a local order below this is on a floor
  // The one rule that flags an order (judge_order): off the declared order by more than
  // flag_band, or a 95% interval that misses it by more than exclusion_margin.
  double flag_band = 0.5;
  double exclusion_margin = 0.1;
};

// THE rule for a measured order against the declared one (issue 44 class 5), called by every
// place that judges one: orders.csv and the report's words (studies/work_precision/work_precision.cpp via
// measure_order), the gate's order check (app/judging/order_gate.cpp), check-plugin and Python's
// tb.check_integrator (conformance/integrator_checks.cpp), and check-claims on orders.csv
// (app/judging/claims_check.cpp). Its reasons: order_fit.cpp.
struct OrderJudgement {
  std::string flag;  // "" unless material: "order reduction", "above the declared order", or "interval [..] excludes .."
  // An interval that misses the declared order by no more than the margin: what it is, in words
  // (printed beside the order, never as a flag); "" when the interval holds the declared order.
  std::string note;
  double excluded = 0.0;  // how far the interval misses the declared order (<= 0: it holds it)
  // "" unless the miss is pre-asymptotic (issue 44 point 21): "inconclusive (pre-asymptotic: ...)"
  // with the local orders, in place of the interval's flag: neither a pass nor a fail.
  std::string inconclusive;
  bool material() const { return !flag.empty(); }
};
OrderJudgement judge_order(double p, double ci95, double declared, const std::vector<double>& window_local_orders = {},
                           const OrderRules& rules = {});

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
  // As printed, p to p_digits and ci95 to 2 significant digits (the flag is judged on these). p
  // gets at least 4 digits, and as many as keep its rounding within a tenth of its interval: at 4
  // digits 2.00064 printed as 2.001 moved an interval of 0.00092 off the declared 2, a miss that
  // was the rounding's (a referee's recomputation of the energy balance's orders). ci95 is the fit's 95%
  // half-width plus reference_bound: the most the references' uncertainty can move the slope
  // (each fitted error may be off by up to agreement / error, relative; the slope is a weighted
  // sum of the log errors, sum_i w_i log e_i, so by up to sum_i |w_i| agreement_i / e_i). The
  // least-squares interval alone treats the errors as exact.
  double p = 0.0, ci95 = 0.0;
  int p_digits = 4;
  double reference_bound = 0.0;
  std::string flag;            // "" when consistent with the declared order (judge_order)
  std::string note;            // judge_order's note: an immaterial miss of the interval, in words
  std::string inconclusive;    // judge_order's pre-asymptotic verdict ("" when none)
  std::size_t above_ceiling = 0;  // points that ran but whose error is above rules.ceiling
  double relative_error_max = 0.0;  // over the fitted window
};
MeasuredOrder measure_order(const std::vector<OrderSweepPoint>& sweep, double declared, const OrderRules& rules = {});

// The rule of the asymptotic range, in the words printed beside every order; `floor_name` is what
// the errors must stand above (OrderSweepPoint::agreement): the references' agreement of a
// final-state error, a round-off floor of a quantity the run measures itself.
std::string asymptotic_range_words(const OrderRules& rules, const std::string& floor_name = "the references' agreement");
// The points the order's fit leaves out and why ("; ..." for each kind, "" when none): above the
// ceiling, or on a floor.
std::string excluded_points_words(const MeasuredOrder& m, const OrderRules& rules);

}  // namespace tb
