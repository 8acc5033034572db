// The planar pendulum in Cartesian coordinates as a Baumgarte-stabilised index-1 DAE
// (seed 004 "Pendulum in Cartesian Coordinates" and §3 "Baumgarte Stabilisation"). The
// index-3 system M r'' = f - G^T lambda, g(r) = 0 (M, f, g, G: NaturalCoordinates in
// mechanics.hpp, shared with the constrained mechanical form) is reduced to index 1 by
// replacing g = 0 with g'' = G r'' + (d/dt G) r' = 0 ("semi-implicit form" of the slides),
// and stabilised to g'' + 2p g' + p^2 g = 0, whose solutions decay like e^{-pt}.

#include <cmath>

#include "models/planar_pendulum/forms.hpp"

namespace tb::planar_pendulum {

namespace {
using Vec2 = Eigen::Vector2d;
}  // namespace

Observation CartesianDaeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  const Eigen::Vector4d s = y.head<4>();
  return planar_pendulum::observe(p_, s, y[4] * s.head<2>().norm());  // tension lambda |r|
}

Eigen::VectorXd CartesianDaeForm::differential_components() const {
  Eigen::VectorXd id(5);
  id << 1.0, 1.0, 1.0, 1.0, 0.0;
  return id;
}

double CartesianDaeForm::multiplier(const Eigen::Vector4d& s, const BaumgarteParameters& b) const {
  // Substituting a = M^{-1}(f - G^T lambda) into g'' + 2p g' + p^2 g = 0 (the slides'
  // semi-implicit form, Schur complement of its 3x3 matrix):
  //   lambda = (G M^{-1} f + (d/dt G) v + 2p G v + p^2 g) / (G M^{-1} G^T).
  const NaturalCoordinates nc(p_);
  const Vec2 r = s.head<2>(), v = s.tail<2>(), G = nc.constraint_gradient(r);
  const double m = nc.mass();
  return (G.dot(nc.force()) / m + nc.constraint_curvature(v) + 2.0 * b.p * G.dot(v) + b.p * b.p * nc.constraint(r)) /
         (G.squaredNorm() / m);
}

double CartesianDaeForm::multiplier_rate(const Eigen::Vector4d& s, const BaumgarteParameters& b) const {
  // d/dt of lambda |r|^2 = m (g z + |v|^2 + 2p C' + p^2 C) along the motion, with
  // C'' = -2p C' - p^2 C enforced: lambda' |r|^2 + 2 lambda C' = m (g vz + 2 v.a + 2p C'' + p^2 C').
  const NaturalCoordinates nc(p_);
  const double lambda = multiplier(s, b);
  const Vec2 r = s.head<2>(), v = s.tail<2>();
  const double C = nc.constraint(r), Cdot = nc.constraint_gradient(r).dot(v);
  const double r2 = r.squaredNorm();
  const Vec2 a = (nc.force() - lambda * nc.constraint_gradient(r)) / nc.mass();
  const double Cddot = -2.0 * b.p * Cdot - b.p * b.p * C;
  return (p_.m * (p_.g * s[3] + 2.0 * v.dot(a) + 2.0 * b.p * Cddot + b.p * b.p * Cdot) - 2.0 * lambda * Cdot) / r2;
}

Eigen::VectorXd CartesianDaeForm::consistent_initial_state(const BaumgarteParameters& b) const {
  const Eigen::Vector4d s = physical_from_polar(p_, ic_.theta, ic_.omega);
  Eigen::VectorXd y(5);
  y << s, multiplier(s, b);
  return y;
}

Eigen::VectorXd CartesianDaeForm::consistent_initial_derivative(const BaumgarteParameters& b) const {
  const NaturalCoordinates nc(p_);
  const Eigen::Vector4d s = physical_from_polar(p_, ic_.theta, ic_.omega);
  const double lambda = multiplier(s, b);
  const Vec2 a = (nc.force() - lambda * nc.constraint_gradient(s.head<2>())) / nc.mass();
  Eigen::VectorXd yp(5);
  yp << s[2], s[3], a, multiplier_rate(s, b);
  return yp;
}

void CartesianDaeForm::residual(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                                const BaumgarteParameters& b, Eigen::VectorXd& F) const {
  // F0,1 = r' - v;  F2,3 = M v' - f + G^T lambda;  F4 = G v' + (d/dt G) v + 2p G v + p^2 g.
  const NaturalCoordinates nc(p_);
  const Vec2 r = y.head<2>(), v = y.segment<2>(2), a = yp.segment<2>(2);
  const double lambda = y[4];
  const Vec2 G = nc.constraint_gradient(r);
  F.resize(5);
  F.head<2>() = yp.head<2>() - v;
  F.segment<2>(2) = nc.mass() * a - nc.force() + lambda * G;
  F[4] = G.dot(a) + nc.constraint_curvature(v) + 2.0 * b.p * G.dot(v) + b.p * b.p * nc.constraint(r);
}

void CartesianDaeForm::jacobian(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                                const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& e) const {
  const NaturalCoordinates nc(p_);
  const Vec2 r = y.head<2>(), v = y.segment<2>(2), a = yp.segment<2>(2);
  const double lambda = y[4];
  const Vec2 G = nc.constraint_gradient(r);
  const double p = b.p, p2 = b.p * b.p;
  // dF/dy + cj dF/dy', row by row from residual(): d(G^T lambda)/dr = lambda I2, and for the
  // link row (G = r^T, (d/dt G) v = |v|^2): d/dr = a + 2p v + p^2 r, d/dv = 2 v + 2p r (+ cj r).
  const double K = nc.constraint_force_tangent(lambda);
  const Vec2 by_r = a + 2.0 * p * v + p2 * G, by_v = 2.0 * v + 2.0 * p * G + cj * G;
  for (int i = 0; i < 2; ++i) {
    e.emplace_back(i, i, cj);
    e.emplace_back(i, 2 + i, -1.0);
    e.emplace_back(2 + i, i, K);
    e.emplace_back(2 + i, 2 + i, nc.mass() * cj);
    e.emplace_back(2 + i, 4, G[i]);
    e.emplace_back(4, i, by_r[i]);
    e.emplace_back(4, 2 + i, by_v[i]);
  }
}

}  // namespace tb::planar_pendulum
