#include "mechanics/case_input.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "core/format.hpp"
#include "mechanics/body_shapes.hpp"

namespace tb {

Mat3 read_body_inertia_about_attachment(TableReader& model, double M, const Vec3& rho_c) {
  TableReader body = model.table("body");
  body.one_of("shape", {"elliptic_cylinder"});
  const double a = body.positive("semimajor"), b = body.positive("semiminor"), H = body.positive("height");
  body.finish();
  return elliptic_cylinder_inertia_about_attachment(M, a, b, H, rho_c);
}

Vec3 read_unit_vector(TableReader& table, const std::string& key) {
  const Vec3 v = table.vec3(key);
  if (std::abs(v.norm() - 1.0) > 1e-12) table.fail(key, "a unit vector", "a vector of length " + format_g(v.norm(), 3));
  return v;
}

Mat3 read_rotation(TableReader& table, const std::string& key) {
  const Mat3 R = table.mat3(key);
  if (!so3::is_rotation(R, 1e-12))
    table.fail(key, "a rotation matrix (||I - R^T R||_F <= 1e-12 and det R = +1)",
               "||I - R^T R||_F = " + format_g(so3::orthogonality_error(R), 3) + ", det R = " + format_g(R.determinant(), 3));
  return R;
}

}  // namespace tb
