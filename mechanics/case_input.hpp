#pragma once
// Case-file pieces every string-and-body model reads the same way: the rigid body's shape,
// and initial directions and attitudes that must be unit vectors and rotations.

#include "numerics/lie_group.hpp"
#include "core/table_reader.hpp"

namespace tb {

// [model.body]: shape and dimensions; returns the inertia about the attachment point.
Mat3 read_body_inertia_about_attachment(TableReader& model, double M, const Vec3& rho_c);
// A 3-vector that must have unit length (to 1e-12).
Vec3 read_unit_vector(TableReader& table, const std::string& key);
// A 3x3 matrix that must be a rotation (||I - R^T R||_F <= 1e-12, det R = +1).
Mat3 read_rotation(TableReader& table, const std::string& key);

}  // namespace tb
