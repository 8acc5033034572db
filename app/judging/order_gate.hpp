#pragma once
// The gate's order check (issue 34 item 3): the measured order of each fixed-step integrator on a
// case, against the order it declares, by the rule of the work-precision study's orders.csv
// (app/judging/order_fit.hpp: asymptotic range, 95% interval, flag). A coefficient bug that leaves the
// conservation envelopes intact (a second-order method gone first-order while still declaring 2)
// fails here.
//
// Cheap enough for every CI run, so it needs no reference solution: the error is measured by
// self-convergence, e(h) = |y_h(T) - y_{h/2}(T)|inf (physical state), which for a method of order
// p is C (1 - 2^-p) h^p + O(h^(p+1)): the same slope as the error itself. The sweep:
//   h0, the case's step doubled (at most kOrderGateMaxDoublings times) until e(h0) reaches
//     kOrderGateStartError x the state's scale, or the largest step at which both runs complete:
//     a fourth-order method at the case's step over a short horizon is at round-off, where no
//     order can be seen;
//   T = kOrderGateSteps h0, a horizon of a few steps (so the cost is independent of the case);
//   the runs at h0, h0/2, ..., h0/2^kOrderGateHalvings, and e at the first kOrderGateHalvings of
//     them: 5 points over 4 octaves, 16 + 32 + ... + 512 = 1008 steps per integrator. Four points
//     left the fourth-order methods inconclusive on two models whose first octave is not yet
//     asymptotic (local orders 2.3 -> 3.6 -> 4.0); the fifth gives them a range.
// Each error is uncertain by the round-off of the two runs, 8 eps scale sqrt(steps) (Brouwer's
// law, the gates' floor): it plays the references' agreement of orders.csv, so a point within
// OrderRules::resolution of it is not fitted, and a sweep with fewer than OrderRules::min_points
// usable points is "inconclusive" with the reason, never a failure.
// Adaptive integrators are not checked (their error is set by the tolerance, as in orders.csv).

#include <vector>

#include "app/input/case.hpp"
#include "app/judging/gates.hpp"

namespace tb {

inline constexpr int kOrderGateSteps = 16;
inline constexpr int kOrderGateHalvings = 5;
inline constexpr int kOrderGateMaxDoublings = 6;
inline constexpr double kOrderGateStartError = 1e-6;
// The gate fails where orders.csv flags, by the one rule (app/judging/order_fit.hpp judge_order): the
// measured order off the declared one by more than OrderRules::flag_band (0.5), or its 95%
// interval excluding the declared order by more than OrderRules::exclusion_margin (0.1). The
// least-squares interval of a 4-point sweep covers the scatter about a straight line, not the
// curvature of a sweep still nearing its asymptotic range: the built-in methods' local orders
// still drift by 0.01-0.2 across it (3.76 -> 3.88 -> 3.94 -> 3.97 for a fourth-order method on the
// hanging tether), and their intervals miss the declared order by up to 0.031 (2.001 +- 0.0008
// for a second-order method on the pendulum misses 2 by 0.0002). A wrong coefficient moves an
// order by a whole unit (or an order reduction by a large fraction of one): far beyond 0.1. A
// smaller miss passes, its note quoted in the message. (Up to issue 44 the margin was the gate's
// own, and orders.csv and check-plugin flagged the small misses it passed.)

// One check per fixed-step integrator of the catalogue that applies to the case's default
// discretisation (metric "order"): pass, fail (the orders.csv flag: judge_order) or inconclusive (no order measured, with why); every message
// gives the measured order, its interval, the declared order, the case and the errors fitted.
std::vector<GateCheck> check_orders(const Case& c, const Catalogue& catalogue);

}  // namespace tb
