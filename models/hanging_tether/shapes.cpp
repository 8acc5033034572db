#include "models/hanging_tether/shapes.hpp"
#include "numerics/lie_group.hpp"  // e3

#include <cmath>
#include <stdexcept>

namespace tb::hanging_tether {

namespace {


// Nodes on the parabola of sag s, element e taking the share weights[e] / sum(weights) of its arc
// length (equal shares when weights is empty).
std::vector<Vec3> parabola_nodes(const Parameters& p, double s, const std::vector<double>& weights) {
  const Vec3 chord = p.B - p.A;
  const double dz = chord.dot(e3);
  const Vec3 horizontal = chord - dz * e3;
  const double l = horizontal.norm();
  const Vec3 d = horizontal / l;
  auto point = [&](double xi) { return Vec3(p.A + xi * d + (dz * xi / l + 4.0 * s * xi * (l - xi) / (l * l)) * e3); };

  constexpr int K = 4096;
  std::vector<Vec3> poly(K + 1);
  std::vector<double> arc(K + 1, 0.0);
  for (int k = 0; k <= K; ++k) {
    poly[k] = point(l * k / K);
    if (k > 0) arc[k] = arc[k - 1] + (poly[k] - poly[k - 1]).norm();
  }
  std::vector<Vec3> r(p.N + 1);
  r[0] = p.A;
  r[p.N] = p.B;
  std::vector<double> share(p.N + 1, 0.0);  // the arc's share up to node j
  for (int j = 1; j <= p.N; ++j) share[j] = share[j - 1] + (weights.empty() ? 1.0 : weights[size_t(j - 1)]);
  int k = 0;
  for (int j = 1; j < p.N; ++j) {
    const double target = arc[K] * share[j] / share[p.N];
    while (arc[k + 1] < target) ++k;
    const double t = (target - arc[k]) / (arc[k + 1] - arc[k]);
    r[j] = poly[k] + t * (poly[k + 1] - poly[k]);
  }
  return r;
}

double polygon_length(const std::vector<Vec3>& r) {
  double len = 0.0;
  for (size_t j = 1; j < r.size(); ++j) len += (r[j] - r[j - 1]).norm();
  return len;
}

}  // namespace

std::vector<Vec3> straight_shape(const Parameters& p) {
  std::vector<Vec3> r(p.N + 1);
  for (int j = 0; j <= p.N; ++j) r[j] = p.A + (double(j) / p.N) * (p.B - p.A);
  return r;
}

std::vector<Vec3> parabola_shape(const Parameters& p, double target_length, const std::vector<double>& weights) {
  if (!weights.empty() && weights.size() != size_t(p.N))
    throw std::invalid_argument("parabola_shape: one weight per element expected");
  if (!(target_length > (p.B - p.A).norm()))
    throw std::invalid_argument("parabola_shape: the polygon must be longer than the chord |B - A|");
  // The polygon length grows with the sag; bracket, then bisect.
  double lo = 0.0, hi = target_length;
  while (polygon_length(parabola_nodes(p, hi, weights)) < target_length) hi *= 2.0;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * target_length; ++it) {
    const double mid = 0.5 * (lo + hi);
    (polygon_length(parabola_nodes(p, mid, weights)) < target_length ? lo : hi) = mid;
  }
  return parabola_nodes(p, 0.5 * (lo + hi), weights);
}

std::vector<Vec3> slack_middle_shape(const Parameters& p, double strain) {
  if (!(strain > 0.0 && strain < 1.0)) throw std::invalid_argument("slack_middle_shape: a strain in (0, 1) expected");
  std::vector<double> weights(size_t(p.N), 1.0 + strain);
  const int first = p.N / 4, count = p.N / 2;
  for (int e = first; e < first + count; ++e) weights[size_t(e)] = 1.0 - strain;
  return parabola_shape(p, p.length, weights);
}

}  // namespace tb::hanging_tether
