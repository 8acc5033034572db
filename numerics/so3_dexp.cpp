#include "numerics/so3_dexp.hpp"

#include <cmath>
#include <stdexcept>

#include <Eigen/Geometry>  // cross

namespace tb::so3 {

Mat3 dexp(const Vec3& u) {
  const double t2 = u.squaredNorm(), t = std::sqrt(t2);
  double a, b;  // (1 - cos t)/t^2 and (t - sin t)/t^3
  if (t < 1e-3) {  // truncation O(t^6) < 1e-19
    a = 0.5 - t2 / 24.0 * (1.0 - t2 / 30.0);
    b = 1.0 / 6.0 - t2 / 120.0 * (1.0 - t2 / 42.0);
  } else {
    const double s = std::sin(0.5 * t) / t;
    a = 2.0 * s * s;  // 1 - cos t = 2 sin^2(t/2), without cancellation
    b = (t - std::sin(t)) / (t2 * t);
  }
  const Mat3 U = hat(u);
  return Mat3::Identity() + a * U + b * (U * U);
}

Mat3 dexp_inv(const Vec3& u) {
  const double t2 = u.squaredNorm(), t = std::sqrt(t2);
  double c;  // (1 - (t/2) cot(t/2)) / t^2 = 1/12 + t^2/720 + t^4/30240 + ...
  if (t < 1e-3) {
    c = 1.0 / 12.0 + t2 / 720.0 * (1.0 + t2 / 42.0);
  } else {
    c = (1.0 - 0.5 * t / std::tan(0.5 * t)) / t2;
  }
  const Mat3 U = hat(u);
  return Mat3::Identity() - 0.5 * U + c * (U * U);
}

Vec3 dexp_inv_series(const Vec3& u, const Vec3& v, int q) {
  if (q < 0 || q > 4) throw std::invalid_argument("dexp_inv_series: q must be in [0, 4]");
  // B_k / k!: 1, -1/2, 1/12, 0, -1/720.
  static const double coefficient[5] = {1.0, -0.5, 1.0 / 12.0, 0.0, -1.0 / 720.0};
  Vec3 term = v, sum = v;
  for (int k = 1; k <= q; ++k) {
    term = u.cross(term);  // ad_u^k v
    sum += coefficient[k] * term;
  }
  return sum;
}

}  // namespace tb::so3
