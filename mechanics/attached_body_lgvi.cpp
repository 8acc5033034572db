#include "mechanics/attached_body_lgvi.hpp"

#include <Eigen/Dense>

#include <cmath>

namespace tb {

AttachedBodyStepTerms attached_body_step_terms(const AttachedBody& body, const Mat3& R, const Vec3& d, const Vec3& c,
                                               const Mat3& E, double h) {
  const double M = body.M, ah = std::abs(h);
  const Vec3& rho = body.rho_c;
  const Vec3 Rtd = R.transpose() * d, Rte3 = R.row(2).transpose();
  AttachedBodyStepTerms out;
  out.translational = (M / h) * (R * (E * rho));
  out.rotational = so3::cayley_momentum(body.J, c, h) + rho.cross((M / h) * Rtd - (0.5 * h * M * body.g) * Rte3);
  const Mat3 absR = R.cwiseAbs();
  const Vec3 arho = rho.cwiseAbs(), ad = d.cwiseAbs();
  out.translational_magnitude = (M / ah) * (ad + absR * (E.cwiseAbs() * arho));
  out.rotational_magnitude =
      so3::cayley_momentum_magnitude(body.J, c, h) +
      so3::cross_product_magnitude(arho, (M / ah) * (absR.transpose() * ad) + (0.5 * ah * M * std::abs(body.g)) * Rte3.cwiseAbs());
  return out;
}

Vec3 attached_body_attitude_derivative(const AttachedBody& body, const Mat3& R, const Vec3& d, const Mat3& E, double h) {
  const Vec3& rho = body.rho_c;
  const Vec3 Erho = E * rho;
  return (body.M / h) * Erho.cross(R.transpose() * d) +
         (0.5 * h * body.M * body.g) * (2.0 * rho + Erho).cross(Vec3(R.row(2).transpose()));
}

}  // namespace tb
