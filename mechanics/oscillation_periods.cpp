#include "mechanics/oscillation_periods.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

namespace tb::periods {

static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double agm(double a, double b) {
  for (int i = 0; i < 64 && std::abs(a - b) > 1e-15 * a; ++i) {
    const double m = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = m;
  }
  return a;
}

double compound_pendulum(double I, double m, double d, double g, double theta0) {
  if (!(g > 0.0 && m > 0.0 && d > 0.0 && I > 0.0)) return kNaN;
  const double amplitude = std::min(std::abs(theta0), 170.0 * M_PI / 180.0);
  return 2.0 * M_PI * std::sqrt(I / (m * g * d)) / agm(1.0, std::cos(0.5 * amplitude));
}


double free_rigid_body(const Mat3& J, const Vec3& Omega) {
  if (!(Omega.norm() > 0.0)) return kNaN;
  const double spin = 2.0 * M_PI / Omega.norm(), euler = euler_equations_period(J, Omega);
  return std::isfinite(euler) ? std::max(spin, euler) : spin;
}

double euler_equations_period(const Mat3& J, const Vec3& Omega) {
  if (!(Omega.norm() > 0.0)) return kNaN;
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(0.5 * (J + J.transpose()));
  const Vec3 I = eig.eigenvalues();                       // ascending: I1 <= I2 <= I3
  const Vec3 w = eig.eigenvectors().transpose() * Omega;  // in the principal frame
  const double twoT = w.dot(I.cwiseProduct(w));
  const double M2 = I.cwiseProduct(w).squaredNorm();
  // Landau & Lifshitz Sect. 37 (I1 < I2 < I3) give the formulas for M^2 > 2 T I2; below, I1 and
  // I3 swap roles.
  double I1 = I(0), I3 = I(2);
  const double I2 = I(1);
  if (M2 < twoT * I2) std::swap(I1, I3);
  const double a = (I3 - I2) * (M2 - twoT * I1), b = (I2 - I1) * (twoT * I3 - M2);
  const double lambda_sq = a / (I1 * I2 * I3);
  if (!(lambda_sq > 0.0) || !(a > 0.0)) return kNaN;  // on the separatrix
  if (b >= a) return kNaN;  // k = 1: on the separatrix the period diverges
  const double k_sq = std::max(b / a, 0.0);
  const double K = M_PI / (2.0 * agm(1.0, std::sqrt(1.0 - k_sq)));
  return 4.0 * K / std::sqrt(lambda_sq);
}


}  // namespace tb::periods
