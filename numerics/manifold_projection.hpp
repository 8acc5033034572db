#pragma once
// Projections of embedded coordinates back onto the manifolds they parametrise, for ODE
// forms that carry R in SO(3) as 9 numbers and directions q in S^2 as 3-vectors (their exact
// flow stays on the manifold, a discretisation drifts off it). Each is the closest point:
//
// - SO(3): the orthogonal polar factor of A = U S V^T, R = U diag(1, 1, det(U V^T)) V^T, is
//   argmin ||R - A||_F over SO(3) (Higham, "Functions of Matrices", SIAM 2008, §8.1, the
//   polar factor as the nearest orthogonal matrix; the det(U V^T) sign keeps it a rotation).
//   For A = R0 (I + E) with E symmetric (the directions normal to SO(3) at R0; skew ones are
//   tangent), A^T A = (I + E)^2 and R = A (I + E)^{-1} = R0 exactly: the correction -R0 E is
//   the drift itself, so projecting after a step of a p-th order method keeps the order (Hairer, Lubich, Wanner, "Geometric
//   Numerical Integration", 2nd ed., §IV.4 "Projection Methods").
// - S^2 with a tangent rate: q <- q / |q| is the closest point of the sphere; w <- (I - q q^T) w
//   (with the new q) the closest vector satisfying q . w = 0. Done one after the other, the
//   pair differs from the joint closest point of {|q| = 1, q . w = 0} in R^6 only at second
//   order in the drift, which is all the order argument above needs.

#include <Eigen/Dense>

namespace tb::manifold {

// The closest rotation to A in the Frobenius norm (A = R_true + drift, det A > 0).
inline Eigen::Matrix3d nearest_rotation(const Eigen::Matrix3d& A) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d U = svd.matrixU();
  const Eigen::Matrix3d& V = svd.matrixV();
  if ((U * V.transpose()).determinant() < 0.0) U.col(2) = -U.col(2);
  return U * V.transpose();
}

// Projects the 9 numbers at y[offset..offset+8] (row-major R) onto SO(3).
inline void project_rotation(Eigen::VectorXd& y, Eigen::Index offset) {
  Eigen::Matrix3d A;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) A(r, c) = y(offset + 3 * r + c);
  const Eigen::Matrix3d R = nearest_rotation(A);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) y(offset + 3 * r + c) = R(r, c);
}

// q <- q / |q|, then w <- w - (q . w) q: a unit direction and a rate orthogonal to it.
inline void project_direction_and_rate(Eigen::Ref<Eigen::Vector3d> q, Eigen::Ref<Eigen::Vector3d> w) {
  q.normalize();
  w -= q.dot(w) * q;
}

}  // namespace tb::manifold
