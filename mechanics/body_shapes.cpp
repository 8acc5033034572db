#include "mechanics/body_shapes.hpp"

#include <Eigen/Eigenvalues>

#include "core/format.hpp"

namespace tb {

Mat3 elliptic_cylinder_inertia_about_attachment(double M, double a, double b, double H, const Vec3& rho_c) {
  Mat3 J_cm = Mat3::Zero();
  J_cm(0, 0) = M * (b * b / 4.0 + H * H / 12.0);
  J_cm(1, 1) = M * (a * a / 4.0 + H * H / 12.0);
  J_cm(2, 2) = M * (a * a + b * b) / 4.0;
  return J_cm + M * (rho_c.squaredNorm() * Mat3::Identity() - rho_c * rho_c.transpose());
}

std::string why_not_an_inertia(const Mat3& J) {
  if (!J.allFinite()) return "a matrix with non-finite entries";
  const double scale = J.cwiseAbs().maxCoeff();
  const double asymmetry = (J - J.transpose()).cwiseAbs().maxCoeff();
  if (asymmetry > 1e-12 * scale) return "a matrix that is not symmetric (J - J^T has an entry " + format_g(asymmetry, 3) + ")";
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(J).eigenvalues();  // ascending
  if (!(moments(0) > 0.0)) return "a matrix that is not positive definite (smallest principal moment " + format_g(moments(0), 3) + ")";
  if (moments(2) > (moments(0) + moments(1)) * (1.0 + 1e-12))
    return "principal moments violating the triangle inequality J3 <= J1 + J2 (J1 + J2 = " +
           format_g(moments(0) + moments(1), 6) + " < J3 = " + format_g(moments(2), 6) + ")";
  return "";
}

}  // namespace tb
