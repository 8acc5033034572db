#include "studies/work_precision/work_precision_ranking.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"

namespace tb {

bool work_at_error(std::vector<CurvePoint> curve, double target, double& work, double& spread) {
  std::sort(curve.begin(), curve.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.work < b.work; });
  for (size_t i = 0; i < curve.size(); ++i) {
    if (curve[i].error > target) continue;
    if (i == 0 || curve[i].error == target) {  // its cheapest point already reaches it (or exactly)
      work = curve[i].work;
      spread = curve[i].spread;
      return true;
    }
    // Between the last point above the target and this one, straight in log error - log work.
    const CurvePoint& a = curve[i - 1];
    const CurvePoint& b = curve[i];
    const double s = (std::log(target) - std::log(a.error)) / (std::log(b.error) - std::log(a.error));
    work = std::exp(std::log(a.work) + s * (std::log(b.work) - std::log(a.work)));
    spread = std::max(a.spread, b.spread);
    return true;
  }
  return false;
}

Ranking rank_at_matched_error(const std::map<std::string, std::vector<CurvePoint>>& curves) {
  Ranking r;
  for (const auto& [name, points] : curves) {
    if (points.empty()) continue;
    double best = points.front().error;
    for (const auto& p : points) best = std::min(best, p.error);
    r.matched_error = std::max(r.matched_error, best);
  }
  if (!(r.matched_error > 0.0)) return r;
  for (const auto& [name, points] : curves) {
    RankedEntry e;
    e.name = name;
    if (!work_at_error(points, r.matched_error, e.work, e.spread)) continue;
    // Bracketed unless even the cheapest point (least work) is below the matched error.
    const auto cheapest = std::min_element(points.begin(), points.end(),
                                           [](const CurvePoint& a, const CurvePoint& b) { return a.work < b.work; });
    e.cheapest_error = cheapest->error;
    e.bound = cheapest->error < r.matched_error;
    r.order.push_back(e);
  }
  std::sort(r.order.begin(), r.order.end(), [](const RankedEntry& a, const RankedEntry& b) { return a.work < b.work; });
  for (size_t i = 1; i < r.order.size(); ++i) {
    const RankedEntry &a = r.order[i - 1], &b = r.order[i];
    // A tie within the timing spread, or where the works print alike (4 digits, as the rankings'
    // work_of_each column): "<" between two equal printed numbers would be read as a difference.
    r.order[i].ties_previous =
        b.work <= a.work * (1.0 + std::max(a.spread, b.spread)) || format_g(b.work, 4) == format_g(a.work, 4);
  }
  return r;
}

std::string Ranking::text() const {
  std::string out;
  for (size_t i = 0; i < order.size(); ++i)
    out += (i == 0                                             ? ""
            : order[i].bound                                   ? " ? "
            : order[i].ties_previous && order[i - 1].bound     ? " ≤ "  // a bound tied to a work: at most, not alike
            : order[i].ties_previous                           ? " = "
                                                               : " < ") +
           order[i].name;
  return out;
}

bool Ranking::orders_all() const {
  for (size_t i = 1; i < order.size(); ++i)
    if (order[i].bound) return false;
  return true;
}

}  // namespace tb
