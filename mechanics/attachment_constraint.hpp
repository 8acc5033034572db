#pragma once
// A rigid body hung from a string's end node in natural coordinates (the constrained mechanical
// form of Models A and B): the body's centre of mass x_c and its R as 9 numbers, tied to the end
// node r by the attachment constraint and R's orthonormality,
//   g = [ r - x_c + R rho_c ;  R^T R - I (six entries, NaturalRigidBody) ],
// rho_c the attachment point -> centre of mass in the body frame. Linear in (r, x_c, R) apart from
// R^T R - I, so its Jacobian is constant but for those rows, and the constraint force's
// derivative d(G^T lambda)/dq is NaturalRigidBody's. The form gives the offsets of r, x_c and R in
// its q (and v) and the length that sizes the position rows.

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <vector>

#include "mechanics/natural_rigid_body.hpp"

namespace tb {

struct AttachmentConstraint {
  int end_node = 0, centre = 0, rotation = 0;  // offsets in q of r, x_c and R (row-major)
  Vec3 rho_c = Vec3::Zero();
  double length = 1.0;  // the size of the position rows (the string's length)

  static constexpr int rows() { return 9; }
  void value(const Eigen::VectorXd& q, Eigen::VectorXd& g) const;
  Eigen::VectorXd scale() const;
  void jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const;
  void jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Gv) const;
  // G^T lambda over `positions` entries (the rest zero).
  void jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda, int positions,
                                Eigen::VectorXd& out) const;
  void force_jacobian_entries(const Eigen::VectorXd& lambda, std::vector<Eigen::Triplet<double>>& entries) const;
};

}  // namespace tb
