// The maps between generalised coordinates (X_p, q_i) and joint coordinates J_j = X_p +
// l sum_{i <= j} q_i that both Model C formulations use (see mechanics.hpp): J = B Q with B
// block lower-triangular (cumulative sums), B^{-1} bidiagonal, B^T suffix sums.

#include "models/multirotor_payload/forms.hpp"

namespace tb::multirotor_payload {

void momentum_to_joint_rhs(const Mechanics& mech, const Vec3& pX, const std::vector<std::vector<Vec3>>& q,
                           const std::vector<std::vector<Vec3>>& P_omega, Eigen::VectorXd& rhs) {
  const Parameters& p = mech.params();
  const int n = p.links;
  const double l = p.link_length();
  rhs.setZero(3 + 4 * p.multirotors * n);
  Vec3 root = pX;
  for (int a = 0; a < p.multirotors; ++a) {
    // p_q_i = w_i + nu_i q_i with w_i = P_omega_i x q_i (q x (P x q) = P for P . q = 0);
    // the nu_i are the KKT multipliers. (B^{-T} w)_0 = w_0 - w_1/l, (B^{-T} w)_j = (w_j - w_{j+1})/l.
    Vec3 w_next = Vec3::Zero();
    for (int j = n; j >= 1; --j) {
      const Vec3 w = P_omega[a][j - 1].cross(q[a][j - 1]);
      rhs.segment<3>(CableTreeKkt::offset(n, a, j) + 1) = (w - w_next) / l;
      w_next = w;
    }
    root -= w_next / l;
  }
  rhs.head<3>() = root;
}

void joint_to_momentum(const Mechanics& mech, const Eigen::VectorXd& z, const std::vector<std::vector<Vec3>>& q,
                       Vec3& pX, std::vector<std::vector<Vec3>>& P_omega) {
  const Parameters& p = mech.params();
  const int n = p.links;
  const double l = p.link_length();
  pX = z.head<3>();
  P_omega.resize(p.multirotors, std::vector<Vec3>(n));
  for (int a = 0; a < p.multirotors; ++a) {
    P_omega[a].resize(n);
    Vec3 suffix = Vec3::Zero();
    for (int j = n; j >= 1; --j) {
      suffix += z.segment<3>(CableTreeKkt::offset(n, a, j) + 1);
      P_omega[a][j - 1] = q[a][j - 1].cross(l * suffix);
    }
    pX += suffix;
  }
}

void joint_mass_times(const Mechanics& mech, const Eigen::VectorXd& x, Eigen::VectorXd& Mx) {
  const Parameters& p = mech.params();
  const int n = p.links;
  Mx.setZero(x.size());
  auto X = [&](int a, int j) -> Vec3 { return j == 0 ? Vec3(x.head<3>()) : Vec3(x.segment<3>(CableTreeKkt::offset(n, a, j) + 1)); };
  Vec3 root = mech.payload_joint_mass() * x.head<3>();
  for (int a = 0; a < p.multirotors; ++a) {
    root += mech.joint_coupling(1) * X(a, 1);
    for (int j = 1; j <= n; ++j) {
      Vec3 r = mech.joint_coupling(j) * X(a, j - 1) + mech.joint_mass(j) * X(a, j);
      if (j < n) r += mech.joint_coupling(j + 1) * X(a, j + 1);
      Mx.segment<3>(CableTreeKkt::offset(n, a, j) + 1) = r;
    }
  }
  Mx.head<3>() = root;
}

}  // namespace tb::multirotor_payload
