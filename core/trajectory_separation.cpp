#include "core/trajectory_separation.hpp"

#include <cmath>
#include <stdexcept>

#include "core/format.hpp"

namespace tb {

Separation separation(const std::vector<Eigen::VectorXd>& a, const std::vector<Eigen::VectorXd>& b, double interval) {
  if (a.size() != b.size() || !(interval > 0.0)) throw std::invalid_argument("separation: trajectories of different lengths");
  std::vector<double> d(a.size(), 0.0);
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].size() != b[k].size()) throw std::invalid_argument("separation: states of different sizes");
    d[k] = (a[k] - b[k]).lpNorm<Eigen::Infinity>();
  }
  Separation s;
  if (d.size() < 4 || !(d[1] > 0.0) || !(d.back() > 0.0)) return s;
  s.found = true;
  s.early = d[1];
  s.final = d.back();
  size_t k = 1;
  while (k + 1 < d.size() && d[k + 1] <= 100.0 * s.early) ++k;
  s.agree_until = double(k) * interval;
  size_t apart = 1;
  while (apart + 1 < d.size() && d[apart] < 0.1 * s.final) ++apart;
  s.apart_at = double(apart) * interval;
  s.apart = d[apart];
  for (size_t j = 2; j <= apart; ++j)
    if (d[j - 1] > 0.0 && d[j] > 0.0)
      if (const double rate = std::log(d[j] / d[j - 1]) / interval; rate > s.max_rate) s.max_rate = rate, s.max_rate_at = double(j) * interval;
  return s;
}

std::string separation_words(const Separation& s) {
  if (!s.found) return "";
  const double by = s.apart / std::max(s.early, 1e-300);
  return "differ by " + format_g(s.early, 3) + " at the first grid time and stay within 100x that up to " + format_g(s.agree_until, 3) +
         " s, then part at e-folding rates up to " + format_g(s.max_rate, 3) + " /s (at " + format_g(s.max_rate_at, 3) + " s) to " +
         format_g(s.apart, 3) + " at " + format_g(s.apart_at, 3) + " s (x" + format_g(by, 2) + " in " +
         format_g(s.apart_at - s.agree_until, 3) + " s; " + format_g(s.final, 3) + " at the end)";
}

}  // namespace tb
