#include "mechanics/end_body_rates.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb {

namespace {
using so3::hat;

void put(std::vector<Eigen::Triplet<double>>& e, int row, int col, const Mat3& B) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (B(i, j) != 0.0) e.emplace_back(row + i, col + j, B(i, j));
}
}  // namespace

void EndBody::rate_forces(const Mat3& R, const Vec3& Omega, Vec3& F_node, Vec3& S_node, Vec3& F_omega,
                          Vec3& S_omega) const {
  const Vec3 Wrho = Omega.cross(rho_c), w = Omega.cross(Wrho);
  F_node = M * g * e3 - M * R * w;
  S_node = (M * g * e3).cwiseAbs() + M * R.cwiseAbs() * w.cwiseAbs();
  const Vec3 JO = J * Omega, RTe3 = R.transpose() * e3;
  F_omega = -Omega.cross(JO) + M * g * rho_c.cross(RTe3);
  S_omega = hat(Omega).cwiseAbs() * JO.cwiseAbs() + M * g * hat(rho_c).cwiseAbs() * RTe3.cwiseAbs();
}

void EndBody::rate_tangent_entries(const Mat3& R, const Vec3& Omega, const Vec3& node_acc, const Vec3& omega_acc,
                                   int node, int omega, std::vector<Eigen::Triplet<double>>& K,
                                   std::vector<Eigen::Triplet<double>>& C) const {
  const Vec3 Wrho = Omega.cross(rho_c), w = Omega.cross(Wrho);
  put(K, node, omega, M * R * (hat(rho_c.cross(omega_acc)) - hat(w)));
  put(K, omega, omega, M * hat(rho_c) * (hat(R.transpose() * node_acc) - g * hat(R.transpose() * e3)));
  put(C, node, omega, -M * R * (hat(Wrho) + hat(Omega) * hat(rho_c)));
  put(C, omega, omega, hat(Omega) * J - hat(J * Omega));
}

}  // namespace tb
