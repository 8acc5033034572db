#pragma once
// The snap study's slopes, one piece for its pages judged against a closed form and against a
// converged reference: a method's runs grouped in their order, and one quantity's errors over them
// fitted -- in h by the suite's one order rule (app/judging/order_fit.hpp) for a fixed-step method,
// in rtol by least squares over the tolerances with an error that stands 10x above its floor for an
// adaptive one (its 95% interval reaching 0: inconclusive).

#include <string>
#include <utility>
#include <vector>

#include "app/judging/order_fit.hpp"
#include "numerics/statistics.hpp"
#include "studies/snap/snap_point.hpp"

namespace tb::snap {

// The runs of each method, in the order the methods first appear (largest step or tolerance first
// within a method, as the points were made).
std::vector<std::pair<std::string, std::vector<const SnapPoint*>>> runs_by_method(const std::vector<const SnapPoint*>& points);

struct SeriesFit {
  std::string values;  // the errors as printed, comma-separated ("—" where none)
  bool adaptive = false;
  // Adaptive: the slope in rtol over the `used` tolerances of `total` whose error stands 10x above its floor
  // (fitted when used >= 3).
  std::size_t used = 0, total = 0;
  // Adaptive: of the other tolerances, how many have an error at or below 10x its floor (the rest: no error, a
  // failed or off-cascade run), and the loosest of them.
  std::size_t below_floor = 0;
  double first_below_floor_rtol = 0.0;
  PowerLawFit slope;
  // Adaptive: the local slopes log(e_k/e_k+1)/log(rtol_k/rtol_k+1) between consecutive used tolerances, and where one
  // is under half the fitted slope (a plateau, a rise, or a stretch that falls far slower than the fit says: the
  // second referee read of 5 Dec, point 8, found local slopes of 0.25 to 0.30 in series fitted at about 1) the first such
  // pair's tolerances: the least-squares slope is then a mean over a series that is not a line (referee, 4 Dec, point
  // 10: the whirl's cvode opening 3.9e-5, 1.4e-8, 1.4e-8, 9.4e-10, 3.3e-12 got 0.77 +- 0.46 without a word).
  std::vector<double> local_slopes;
  double plateau_from = 0.0, plateau_to = 0.0, plateau_slope = 0.0;
  // Fixed steps: the suite's order rule against the declared order.
  MeasuredOrder order;
  // Fixed steps: the local orders log(e_k/e_k+1)/log(h_k/h_k+1) between the finest three errors that stand 10x above
  // their floor, consecutive settings ("" where fewer), and their mean: what the finest steps do, printed beside a fit
  // that is inconclusive or differs from them by more than 0.3 (referee, 4 Dec, point 8).
  std::string finest_local_orders;
  double finest_local_mean = 0.0;
  // "slope p ± c in rtol (...)" or the reason none is fitted, for an adaptive series.
  std::string rtol_words(const std::string& floor_name) const;
};

// errors[i] and floors[i] of the run at settings[i] (its step h, or its rtol where adaptive); scale:
// the quantity's own (an order's errors at most 0.1 of it); declared: the method's order.
SeriesFit fit_series(bool adaptive, const std::vector<double>& settings, const std::vector<double>& errors,
                     const std::vector<double>& floors, double scale, double declared);

// The fit in words: the slope with its 95% interval (not judged against the declared order: across impacts a
// time-stepping scheme is of order 1 at most), inconclusive where the interval reaches 0 or no window fits.
std::string slope_verdict(const SeriesFit& fit);

}  // namespace tb::snap
