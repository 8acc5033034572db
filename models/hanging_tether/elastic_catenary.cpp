#include "models/hanging_tether/elastic_catenary.hpp"

#include <cmath>
#include <stdexcept>

#include "core/format.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::hanging_tether {

namespace {
}

ElasticCatenary::ElasticCatenary(const Parameters& p) : L_(p.length), w_(p.mu * p.g), EA_(p.EA), A_(p.A) {
  const std::string problem = parameter_problem(p);
  if (!problem.empty()) throw std::invalid_argument("elastic catenary: parameters need " + problem);
  const Vec3 chord = p.B - p.A;
  rise_ = -chord.dot(e3);  // y is up
  const Vec3 horizontal = chord + rise_ * e3;
  span_ = horizontal.norm();
  d_ = horizontal / span_;

  // Inextensible catenary (EA -> infinity) as the start: with lambda = w l/(2H),
  // a = asinh(V_A/H), b = asinh(V(L)/H): b - a = 2 lambda from x(L) = l; sinh b - sinh a = w L/H
  // and cosh b - cosh a = w h/H give sinh(lambda)/lambda = sqrt(L^2 - h^2)/l and
  // tanh((a + b)/2) = h/L. sinh(lambda)/lambda grows monotonically from 1: bisection.
  const double rho = std::sqrt(L_ * L_ - rise_ * rise_) / span_;
  double lo = 0.0, hi = 1.0;
  while (std::sinh(hi) / hi < rho) hi *= 2.0;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (std::sinh(mid) / mid < rho ? lo : hi) = mid;
  }
  const double lambda = 0.5 * (lo + hi);
  double H = w_ * span_ / (2.0 * lambda);
  double VA = H * std::sinh(std::atanh(rise_ / L_) - lambda);

  // Newton on the elastic closure equations, halving steps that would make H non-positive or
  // increase |G|.
  constexpr int kMaxIterations = 100;
  Eigen::Vector2d G = closure(H, VA);
  for (iterations_ = 1; iterations_ <= kMaxIterations; ++iterations_) {
    const Eigen::Vector2d step = -closure_jacobian(H, VA).partialPivLu().solve(G);
    double alpha = 1.0;
    while (H + alpha * step(0) <= 0.0) alpha *= 0.5;
    Eigen::Vector2d G_trial = closure(H + alpha * step(0), VA + alpha * step(1));
    for (int halving = 0; halving < 50 && !(G_trial.norm() < G.norm()); ++halving) {
      alpha *= 0.5;
      G_trial = closure(H + alpha * step(0), VA + alpha * step(1));
    }
    H += alpha * step(0);
    VA += alpha * step(1);
    G = G_trial;
    const double scale = H + std::abs(VA);
    if (alpha == 1.0 && std::abs(step(0)) <= 1e-14 * scale && std::abs(step(1)) <= 1e-14 * scale) break;
    if (G.lpNorm<Eigen::Infinity>() <= 1e-15 * L_) break;
  }
  if (iterations_ > kMaxIterations || !std::isfinite(H) || !std::isfinite(VA))
    throw std::runtime_error("elastic catenary: Newton on the closure equations did not converge (|G| = " +
                             format_g(G.norm(), 3) + " m)");
  H_ = H;
  VA_ = VA;
}

double ElasticCatenary::x(double H, double VA, double s) const {
  return H * s / EA_ + H / w_ * (std::asinh((VA + w_ * s) / H) - std::asinh(VA / H));
}

double ElasticCatenary::y(double H, double VA, double s) const {
  const double V = VA + w_ * s;
  return (VA * s + 0.5 * w_ * s * s) / EA_ + (std::hypot(H, V) - std::hypot(H, VA)) / w_;
}

Eigen::Vector2d ElasticCatenary::closure(double H, double VA) const {
  return Eigen::Vector2d(x(H, VA, L_) - span_, y(H, VA, L_) - rise_);
}

// d/dH asinh(V/H) = -V/(H T), d/dV asinh(V/H) = 1/T, d/dH T = H/T, d/dV T = V/T (T = hypot(H, V));
// V(L) = V_A + w L depends on V_A with derivative 1.
Eigen::Matrix2d ElasticCatenary::closure_jacobian(double H, double VA) const {
  const double VL = VA + w_ * L_;
  const double TA = std::hypot(H, VA), TL = std::hypot(H, VL);
  Eigen::Matrix2d J;
  J(0, 0) = L_ / EA_ + (std::asinh(VL / H) - std::asinh(VA / H)) / w_ - (VL / TL - VA / TA) / w_;
  J(0, 1) = H / w_ * (1.0 / TL - 1.0 / TA);
  J(1, 0) = (H / TL - H / TA) / w_;
  J(1, 1) = L_ / EA_ + (VL / TL - VA / TA) / w_;
  return J;
}

Vec3 ElasticCatenary::point(double s) const { return A_ + x(H_, VA_, s) * d_ - y(H_, VA_, s) * e3; }

double ElasticCatenary::tension(double s) const { return std::hypot(H_, VA_ + w_ * s); }

double max_node_distance(const std::vector<Vec3>& r, const ElasticCatenary& catenary, double L) {
  const int N = int(r.size()) - 1;
  double worst = 0.0;
  for (int j = 0; j <= N; ++j) worst = std::max(worst, (r[j] - catenary.point(L * j / N)).norm());
  return worst;
}

}  // namespace tb::hanging_tether
