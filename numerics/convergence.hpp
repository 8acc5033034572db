#pragma once
// Measured convergence order: least-squares slope of log(error) against log(step) over a
// sweep (DiffEqDevTools' estimate generalised to any number of points, no halving assumed).

#include <cmath>
#include <vector>

namespace tb {

inline double fitted_order(const std::vector<double>& steps, const std::vector<double>& errors) {
  const double n = double(steps.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const double x = std::log(steps[i]), y = std::log(errors[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace tb
