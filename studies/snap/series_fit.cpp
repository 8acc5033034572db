#include "studies/snap/series_fit.hpp"

#include <cmath>
#include <map>

#include "core/format.hpp"

namespace tb::snap {

std::vector<std::pair<std::string, std::vector<const SnapPoint*>>> runs_by_method(const std::vector<const SnapPoint*>& points) {
  std::vector<std::pair<std::string, std::vector<const SnapPoint*>>> out;
  std::map<std::string, size_t> index;
  for (const SnapPoint* p : points) {
    const auto [it, added] = index.emplace(p->key.label(), out.size());
    if (added) out.push_back({p->key.label(), {}});
    out[it->second].second.push_back(p);
  }
  return out;
}

std::string SeriesFit::rtol_words(const std::string& floor_name) const {
  // Errors at or below 10x the floor are not the run's (the floor is what the error is measured against): a series
  // that falls there is named so, not left as a bare "inconclusive" (referee, 4 Dec, point 11).
  const std::string below =
      below_floor > 0 ? std::to_string(below_floor) + " of " + std::to_string(total) + (below_floor == 1 ? " falls" : " fall") + " to 10× " +
                            floor_name + " or below from rtol " +
                            format_g(first_below_floor_rtol) + " on, not credited as the runs'"
                      : std::string();
  if (used < 3)
    return "inconclusive: fewer than 3 tolerances with an error 10× above " + floor_name + (below.empty() ? "" : " (" + below + ")");
  std::string words = "slope " + format_g(slope.p, 3) + " ± " + format_g(slope.ci95, 2) + " in rtol";
  if (used < total)
    words += " (over the " + std::to_string(used) + " of " + std::to_string(total) + " tolerances with an error 10× above " + floor_name +
             (below.empty() ? "" : "; " + below) + ")";
  if (plateau_from > 0.0) {
    std::string locals;
    for (double l : local_slopes) locals += (locals.empty() ? "" : ", ") + format_g(l, 2);
    words += "; not a line: the local slopes are " + locals + ", the error " + (std::abs(plateau_slope) < 0.05 ? "flat" : plateau_slope < 0.0 ? "rising" : "falling at under half the fitted slope") + " from rtol " +
             format_g(plateau_from) +
             " to " + format_g(plateau_to) + ", so the slope is a mean over the series, not a law";
  }
  return words;
}

SeriesFit fit_series(bool adaptive, const std::vector<double>& settings, const std::vector<double>& errors,
                     const std::vector<double>& floors, double scale, double declared) {
  SeriesFit out;
  out.adaptive = adaptive;
  out.total = errors.size();
  std::vector<double> x, y;
  std::vector<OrderSweepPoint> sweep;
  for (size_t i = 0; i < errors.size(); ++i) {
    const double e = errors[i], floor = floors[i];
    out.values += (out.values.empty() ? "" : ", ") + (std::isfinite(e) ? format_g(e, 3) : std::string("—"));
    if (adaptive) {
      // Every tolerance whose error stands 10x above its floor (a run without one, off the reference's cascade or
      // failed, is passed over). An error that does not fall from the looser one's stays in: it widens the slope's
      // interval, which then says inconclusive itself. (An earlier rule ended the series at the first error not
      // halved, and so called inconclusive a series falling 3e-6 to 1e-10 J over seven tolerances with one flat step:
      // referee, 4 Dec, B3.)
      if (std::isfinite(e) && e > 0.0 && e > 10.0 * floor) {
        x.push_back(settings[i]), y.push_back(e);
      } else if (std::isfinite(e)) {
        if (out.below_floor++ == 0) out.first_below_floor_rtol = settings[i];
      }
    } else {
      OrderSweepPoint sp;
      sp.h = settings[i];
      sp.ok = std::isfinite(e) && e > 0.0;
      sp.error = sp.ok ? e : 0.0;
      sp.relative_error = sp.ok ? e / scale : 0.0;
      sp.agreement = sp.ok ? floor : 0.0;
      sweep.push_back(sp);
    }
  }
  if (adaptive) {
    out.used = x.size();
    if (x.size() >= 3) {
      out.slope = fit_power_law(x, y);
      for (size_t k = 0; k + 1 < x.size(); ++k) {
        const double local = std::log(y[k] / y[k + 1]) / std::log(x[k] / x[k + 1]);
        out.local_slopes.push_back(local);
        if (out.plateau_from == 0.0 && out.slope.p > 0.0 && local < 0.5 * out.slope.p) out.plateau_from = x[k], out.plateau_to = x[k + 1], out.plateau_slope = local;
      }
    }
  } else {
    out.order = measure_order(sweep, declared);
    // The finest run of consecutive usable errors, its last three.
    std::vector<size_t> tail;
    for (size_t i = 0; i < errors.size(); ++i) {
      const bool usable = std::isfinite(errors[i]) && errors[i] > 0.0 && errors[i] > 10.0 * floors[i];
      if (!usable) tail.clear();
      else tail.push_back(i);
    }
    if (tail.size() >= 3) {
      double sum = 0.0;
      for (size_t k = tail.size() - 3; k + 1 < tail.size(); ++k) {
        const size_t a = tail[k], b = tail[k + 1];
        const double local = std::log(errors[a] / errors[b]) / std::log(settings[a] / settings[b]);
        out.finest_local_orders += (out.finest_local_orders.empty() ? "" : ", ") + format_g(local, 3);
        sum += local;
      }
      out.finest_local_mean = sum / 2.0;
    }
  }
  return out;
}

// A fitted series in words: the slope with its 95% interval (not judged against the declared order: across
// impacts a time-stepping scheme is of order 1 at most), inconclusive where the interval reaches 0 or no
// window fits, for fixed steps in h and for an adaptive method in rtol.
std::string slope_verdict(const SeriesFit& fit) {
  const MeasuredOrder& m = fit.order;
  if (fit.adaptive)
    return fit.used >= 3 && fit.slope.ci95 >= std::abs(fit.slope.p)
               ? "inconclusive: slope " + format_g(fit.slope.p, 3) + " ± " + format_g(fit.slope.ci95, 2) + " in rtol, its interval reaching 0"
               : fit.rtol_words("its floor");
  const std::string finest = fit.finest_local_orders.empty() ? std::string()
                             : "; the finest three steps' local orders: " + fit.finest_local_orders;
  if (!m.fit.fitted) return "inconclusive: " + (m.fit.why_not.empty() ? std::string("no asymptotic window") : m.fit.why_not) + finest;
  const bool reaches_zero = m.ci95 >= std::abs(m.p);
  return (reaches_zero ? "inconclusive: slope " : "slope ") + format_g(m.p, m.p_digits) + " ± " + format_g(m.ci95, 2) + " in h" +
         (reaches_zero ? ", its interval reaching 0" : " (not judged)") +
         (reaches_zero || std::abs(fit.finest_local_mean - m.p) > 0.3 ? finest : std::string());
}

}  // namespace tb::snap
