#pragma once
// Rigid-body inertia: the shapes the case files can name, and the one check that a matrix is
// the inertia of a physical body. Shared by every model with a rigid body.

#include <string>

#include "numerics/lie_group.hpp"

namespace tb {

// Elliptic cylinder (SPEC conventions): semimajor a along body x, semiminor b along y,
// height H along z; inertia about the centre of mass shifted to the attachment point by the
// parallel-axis theorem.
Mat3 elliptic_cylinder_inertia_about_attachment(double M, double a, double b, double H, const Vec3& rho_c);

// Why J is not the inertia of a physical body (symmetric to 1e-12 relative, positive definite,
// principal moments obeying the triangle inequality J3 <= J1 + J2; equality is a flat plate),
// or "" when it is. The message is a case-file "got" clause.
std::string why_not_an_inertia(const Mat3& J);

}  // namespace tb
