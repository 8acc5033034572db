#pragma once
// The statistics the report's verdicts rest on, in one place (issue 24 item 6): Student's t,
// least-squares power laws with their 95% intervals, and convergence orders measured over the
// asymptotic range of a step sweep only (issue 24 item 3).

#include <cstddef>
#include <string>
#include <vector>

namespace tb {

// Student's t quantile t(0.975, dof) (two-sided 95%), from the table of the usual quantiles,
// linear in 1/dof between them, tending to 1.96.
double student_t975(double dof);

// Least-squares fit of log y = a + p log x with the standard error of p and the two-sided 95%
// confidence interval p +- t(0.975, n - 2) se (no interval for two points).
struct PowerLawFit {
  double p = 0.0, a = 0.0, se = 0.0, ci95 = 0.0;  // ci95: half-width; NaN with fewer than 3 points
  int points = 0;
};
PowerLawFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y);

// A convergence order measured only where the sweep is in its asymptotic range (issue 24 item 3;
// issue 32 item 5). A point is usable when the caller says so: its run succeeded, its error
// stands clear of the reference's uncertainty (bounding the range from below) and is small against
// the quantity's own scale (bounding it from above: no fit over O(1) errors). Of the usable points
// those on a floor are left out too: a point whose error fell by less than a local order of
// `floor_order` from its coarser usable neighbour measures the run's own round-off (or an order
// collapse), not its truncation error. The window fitted is a run of successive such points whose
// local orders (between successive points) all lie within `tolerance` of each other, at least
// `min_points` of them, and it is the FINEST such run: the one ending at the smallest step that
// ends any (of those, the longest): the asymptotic range lies at small h, and a coarser window
// chosen over it would report a pre-asymptotic order.
struct AsymptoticOrder {
  bool fitted = false;
  PowerLawFit fit;                     // over the chosen run (p: the order; ci95: its interval)
  std::vector<double> steps;           // the chosen run's steps, largest first
  std::vector<double> local_orders;    // between successive points of the whole sweep (NaN across an unusable one)
  std::vector<double> window_local_orders;  // those inside the chosen run, largest h first
  std::vector<double> floor_steps;     // usable points left out as on a floor
  std::string why_not;                 // when not fitted: why, in words
};
AsymptoticOrder asymptotic_order(const std::vector<double>& steps, const std::vector<double>& errors,
                                 const std::vector<bool>& usable, double tolerance = 0.3, std::size_t min_points = 3,
                                 double floor_order = 0.5);

// Whether a measured order is consistent with the declared one: its 95% interval contains it
// (an order fitted without an interval is not).
inline bool interval_contains(const PowerLawFit& fit, double declared) {
  return fit.ci95 == fit.ci95 && fit.p - fit.ci95 <= declared && declared <= fit.p + fit.ci95;
}

}  // namespace tb
