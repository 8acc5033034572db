// The attached body's constraints of mechanics/attachment_constraint.hpp.

#include "mechanics/attachment_constraint.hpp"

namespace tb {

void AttachmentConstraint::value(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  const Mat3 R = NaturalRigidBody::read(q, rotation);
  g.resize(rows());
  g.head<3>() = q.segment<3>(end_node) - q.segment<3>(centre) + R * rho_c;
  g.tail<6>() = NaturalRigidBody::constraint(R);
}

Eigen::VectorXd AttachmentConstraint::scale() const {
  Eigen::VectorXd s = Eigen::VectorXd::Ones(rows());
  s.head<3>().setConstant(length);  // positions are of the string's length
  return s;
}

void AttachmentConstraint::jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& e) const {
  for (int k = 0; k < 3; ++k) {
    e.emplace_back(k, end_node + k, 1.0);
    e.emplace_back(k, centre + k, -1.0);
    for (int j = 0; j < 3; ++j) e.emplace_back(k, rotation + 3 * k + j, rho_c(j));  // d(R rho)_k / dR_kj
  }
  NaturalRigidBody::jacobian_entries(NaturalRigidBody::read(q, rotation), 3, rotation, e);
}

void AttachmentConstraint::jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Gv) const {
  const Mat3 Rdot = NaturalRigidBody::read(v, rotation);
  Gv.resize(rows());
  Gv.head<3>() = v.segment<3>(end_node) - v.segment<3>(centre) + Rdot * rho_c;
  Gv.tail<6>() = NaturalRigidBody::jacobian_times(NaturalRigidBody::read(q, rotation), Rdot);
}

void AttachmentConstraint::jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                                    int positions, Eigen::VectorXd& out) const {
  const Vec3 l = lambda.head<3>();
  out.setZero(positions);
  out.segment<3>(end_node) = l;
  out.segment<3>(centre) = -l;
  NaturalRigidBody::write(l * rho_c.transpose() + NaturalRigidBody::jacobian_transpose_times(
                                                      NaturalRigidBody::read(q, rotation), Vec6(lambda.tail<6>())),
                          out, rotation);
}

void AttachmentConstraint::force_jacobian_entries(const Eigen::VectorXd& lambda,
                                                  std::vector<Eigen::Triplet<double>>& entries) const {
  NaturalRigidBody::constraint_force_jacobian_entries(Vec6(lambda.tail<6>()), rotation, entries);
}

}  // namespace tb
