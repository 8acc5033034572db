// The planar pendulum in Cartesian coordinates as a Baumgarte-stabilised index-1 DAE
// (seed 004 "Pendulum in Cartesian Coordinates" and §3 "Baumgarte Stabilisation"). The
// index-3 system m r'' = m g e3 - lambda r, C = (|r|^2 - l^2)/2 = 0 is reduced to index 1 by
// replacing C = 0 with C'' = x x'' + z z'' + |v|^2 = 0 ("semi-implicit form" of the slides),
// and stabilised to C'' + 2p C' + p^2 C = 0, whose solutions decay like e^{-pt}.

#include <cmath>

#include "models/planar_pendulum/forms.hpp"

namespace tb::planar_pendulum {

namespace {
struct Constraint {
  double C, Cdot;  // C = (|r|^2 - l^2)/2, C' = r.v
};
Constraint constraint(const Parameters& p, double x, double z, double vx, double vz) {
  return {0.5 * (x * x + z * z - p.l * p.l), x * vx + z * vz};
}
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
  // Substituting x'' = -lambda x/m, z'' = g - lambda z/m into C'' + 2pC' + p^2 C = 0
  // (the slides' semi-implicit form, Schur complement of its 3x3 matrix).
  const auto [C, Cdot] = constraint(p_, s[0], s[1], s[2], s[3]);
  const double r2 = s[0] * s[0] + s[1] * s[1];
  const double v2 = s[2] * s[2] + s[3] * s[3];
  return p_.m * (p_.g * s[1] + v2 + 2.0 * b.p * Cdot + b.p * b.p * C) / r2;
}

double CartesianDaeForm::multiplier_rate(const Eigen::Vector4d& s, const BaumgarteParameters& b) const {
  // d/dt of lambda |r|^2 = m (g z + |v|^2 + 2p C' + p^2 C) along the motion, with
  // C'' = -2p C' - p^2 C enforced: lambda' |r|^2 + 2 lambda C' = m (g vz + 2 v.a + 2p C'' + p^2 C').
  const double lambda = multiplier(s, b);
  const auto [C, Cdot] = constraint(p_, s[0], s[1], s[2], s[3]);
  const double r2 = s[0] * s[0] + s[1] * s[1];
  const double ax = -lambda * s[0] / p_.m, az = p_.g - lambda * s[1] / p_.m;
  const double Cddot = -2.0 * b.p * Cdot - b.p * b.p * C;
  return (p_.m * (p_.g * s[3] + 2.0 * (s[2] * ax + s[3] * az) + 2.0 * b.p * Cddot + b.p * b.p * Cdot) -
          2.0 * lambda * Cdot) / r2;
}

Eigen::VectorXd CartesianDaeForm::consistent_initial_state(const BaumgarteParameters& b) const {
  const Eigen::Vector4d s = physical_from_polar(p_, ic_.theta, ic_.omega);
  Eigen::VectorXd y(5);
  y << s, multiplier(s, b);
  return y;
}

Eigen::VectorXd CartesianDaeForm::consistent_initial_derivative(const BaumgarteParameters& b) const {
  const Eigen::Vector4d s = physical_from_polar(p_, ic_.theta, ic_.omega);
  const double lambda = multiplier(s, b);
  Eigen::VectorXd yp(5);
  yp << s[2], s[3], -lambda * s[0] / p_.m, p_.g - lambda * s[1] / p_.m, multiplier_rate(s, b);
  return yp;
}

void CartesianDaeForm::residual(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                                const BaumgarteParameters& b, Eigen::VectorXd& F) const {
  const double x = y[0], z = y[1], vx = y[2], vz = y[3], lambda = y[4];
  const auto [C, Cdot] = constraint(p_, x, z, vx, vz);
  F.resize(5);
  F[0] = yp[0] - vx;
  F[1] = yp[1] - vz;
  F[2] = p_.m * yp[2] + lambda * x;
  F[3] = p_.m * yp[3] + lambda * z - p_.m * p_.g;
  F[4] = x * yp[2] + z * yp[3] + vx * vx + vz * vz + 2.0 * b.p * Cdot + b.p * b.p * C;
}

void CartesianDaeForm::jacobian(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                                const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& e) const {
  const double x = y[0], z = y[1], vx = y[2], vz = y[3], lambda = y[4];
  const double p = b.p, p2 = b.p * b.p;
  // dF/dy + cj dF/dy', row by row from residual() (dC/dx = x, dC'/dx = vx, dC'/dvx = x).
  e.emplace_back(0, 0, cj);
  e.emplace_back(0, 2, -1.0);
  e.emplace_back(1, 1, cj);
  e.emplace_back(1, 3, -1.0);
  e.emplace_back(2, 0, lambda);
  e.emplace_back(2, 2, p_.m * cj);
  e.emplace_back(2, 4, x);
  e.emplace_back(3, 1, lambda);
  e.emplace_back(3, 3, p_.m * cj);
  e.emplace_back(3, 4, z);
  e.emplace_back(4, 0, yp[2] + 2.0 * p * vx + p2 * x);
  e.emplace_back(4, 1, yp[3] + 2.0 * p * vz + p2 * z);
  e.emplace_back(4, 2, cj * x + 2.0 * vx + 2.0 * p * x);
  e.emplace_back(4, 3, cj * z + 2.0 * vz + 2.0 * p * z);
}

}  // namespace tb::planar_pendulum
