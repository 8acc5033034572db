#include "numerics/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tb {

double student_t975(double dof) {
  static const double table[][2] = {{1, 12.706}, {2, 4.303},  {3, 3.182},  {4, 2.776},  {5, 2.571},
                                    {6, 2.447},  {7, 2.365},  {8, 2.306},  {9, 2.262},  {10, 2.228},
                                    {12, 2.179}, {15, 2.131}, {20, 2.086}, {30, 2.042}, {60, 2.000}};
  if (!(dof >= 1.0)) return table[0][1];
  const size_t n = sizeof table / sizeof table[0];
  for (size_t i = 0; i + 1 < n; ++i)
    if (dof <= table[i + 1][0]) {  // linear in 1/dof between the entries
      const double a = 1.0 / table[i][0], b = 1.0 / table[i + 1][0], x = 1.0 / dof;
      return table[i][1] + (table[i + 1][1] - table[i][1]) * (a - x) / (a - b);
    }
  return 1.96 + (table[n - 1][1] - 1.96) * (table[n - 1][0] / dof);
}

PowerLawFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  PowerLawFit f;
  f.points = int(x.size());
  const double n = double(x.size());
  double mx = 0, my = 0;
  for (size_t i = 0; i < x.size(); ++i) mx += std::log(x[i]) / n, my += std::log(y[i]) / n;
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double dx = std::log(x[i]) - mx;
    sxx += dx * dx, sxy += dx * (std::log(y[i]) - my);
  }
  f.p = sxy / sxx;
  f.a = my - f.p * mx;
  if (x.size() < 3) {
    f.se = f.ci95 = kNaN;
    return f;
  }
  double ssr = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double r = std::log(y[i]) - f.a - f.p * std::log(x[i]);
    ssr += r * r;
  }
  const int dof = f.points - 2;
  f.se = std::sqrt(ssr / dof / sxx);
  f.ci95 = student_t975(dof) * f.se;
  return f;
}

AsymptoticOrder asymptotic_order(const std::vector<double>& steps, const std::vector<double>& errors,
                                 const std::vector<bool>& usable, double tolerance, std::size_t min_points,
                                 double floor_order) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  AsymptoticOrder out;
  std::vector<size_t> order(steps.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return steps[a] > steps[b]; });
  auto ok = [&](size_t k) { return usable[order[k]] && errors[order[k]] > 0.0 && std::isfinite(errors[order[k]]); };
  auto local = [&](size_t k) {  // between sorted points k and k + 1
    return std::log(errors[order[k]] / errors[order[k + 1]]) / std::log(steps[order[k]] / steps[order[k + 1]]);
  };
  for (size_t k = 0; k + 1 < order.size(); ++k) out.local_orders.push_back(ok(k) && ok(k + 1) ? local(k) : kNaN);
  // On a floor: usable, but its error fell by less than floor_order from the previous usable
  // point (every later point of a floor too: each is compared with the last point still falling).
  std::vector<bool> valid(order.size(), false);
  size_t last = order.size();  // the last usable point not on a floor
  for (size_t k = 0; k < order.size(); ++k) {
    if (!ok(k)) continue;
    const bool falls = last == order.size() ||
                       std::log(errors[order[last]] / errors[order[k]]) /
                               std::log(steps[order[last]] / steps[order[k]]) > floor_order;
    if (falls) {
      valid[k] = true;
      last = k;
    } else {
      out.floor_steps.push_back(steps[order[k]]);
    }
  }
  // For each end point from the finest, the longest run of successive valid points ending there
  // whose local orders agree; the first end point that has one of min_points wins.
  size_t best_i = 0, best_n = 0;
  for (size_t j = order.size(); j-- > 0 && best_n == 0;) {
    if (!valid[j]) continue;
    double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
    size_t i = j;
    while (i > 0 && valid[i - 1]) {
      const double q = out.local_orders[i - 1];
      if (std::max(highest, q) - std::min(lowest, q) > tolerance) break;
      lowest = std::min(lowest, q), highest = std::max(highest, q);
      --i;
    }
    if (j - i + 1 >= min_points) best_i = i, best_n = j - i + 1;
  }
  if (best_n == 0) {
    size_t usable_points = 0, valid_points = 0;
    for (size_t k = 0; k < order.size(); ++k) usable_points += ok(k) ? 1 : 0, valid_points += valid[k] ? 1 : 0;
    out.why_not = usable_points < min_points
                      ? std::to_string(usable_points) + " usable point(s), fewer than " + std::to_string(min_points)
                  : valid_points < min_points
                      ? std::to_string(usable_points - valid_points) + " of the " + std::to_string(usable_points) +
                            " usable points on a floor (errors falling at a local order of at most " +
                            std::to_string(floor_order).substr(0, 3) + "): no " + std::to_string(min_points) +
                            " points still converging"
                      : "no " + std::to_string(min_points) + " successive usable points whose local orders agree within " +
                            std::to_string(tolerance).substr(0, 3) + " of each other";
    return out;
  }
  std::vector<double> x, y;
  for (size_t k = best_i; k < best_i + best_n; ++k) x.push_back(steps[order[k]]), y.push_back(errors[order[k]]);
  out.fitted = true;
  out.fit = fit_power_law(x, y);
  out.steps = x;
  for (size_t k = best_i; k + 1 < best_i + best_n; ++k) out.window_local_orders.push_back(out.local_orders[k]);
  return out;
}

}  // namespace tb
