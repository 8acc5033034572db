// The maps between generalised coordinates (X_p, q_i) and joint coordinates J_j = X_p +
// l sum_{i <= j} q_i that both Model C formulations use (see mechanics.hpp): J = B Q with B
// block lower-triangular (cumulative sums), B^{-1} bidiagonal, B^T suffix sums.

#include "models/multirotor_payload/forms.hpp"

namespace tb::multirotor_payload {

void read_joint_momenta(const Mechanics& mech, const State& s, Eigen::VectorXd& z) {
  const int n = mech.params().links;
  z.setZero(3 + 4 * mech.params().multirotors * n);
  Vec3 cables = Vec3::Zero();
  for (int a = 0; a < mech.params().multirotors; ++a)
    for (int j = 1; j <= n; ++j) {
      z.segment<3>(CableTreeKkt::offset(n, a, j) + 1) = s.omega[a][j - 1];
      cables += s.omega[a][j - 1];
    }
  z.head<3>() = s.Vp - cables;  // the payload joint's: the total less every cable joint's
}

void write_joint_momenta(const Mechanics& mech, const Eigen::VectorXd& z, State& s) {
  const int n = mech.params().links;
  Vec3 total = z.head<3>();
  for (int a = 0; a < mech.params().multirotors; ++a)
    for (int j = 1; j <= n; ++j) {
      s.omega[a][j - 1] = z.segment<3>(CableTreeKkt::offset(n, a, j) + 1);
      total += s.omega[a][j - 1];
    }
  s.Vp = total;
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

void joint_mass_times(const Mechanics& mech, const Eigen::VectorXd& x, Eigen::VectorXd& Mx, Eigen::VectorXd& M_abs_x) {
  // The same sums as below, with |x| beside x (M_J's entries are positive), in one pass.
  const Parameters& p = mech.params();
  const int n = p.links;
  Mx.setZero(x.size());
  M_abs_x.setZero(x.size());
  auto X = [&](int a, int j) -> Vec3 { return j == 0 ? Vec3(x.head<3>()) : Vec3(x.segment<3>(CableTreeKkt::offset(n, a, j) + 1)); };
  Vec3 root = mech.payload_joint_mass() * x.head<3>(), root_abs = mech.payload_joint_mass() * x.head<3>().cwiseAbs();
  for (int a = 0; a < p.multirotors; ++a) {
    Vec3 previous = X(a, 0), current = X(a, 1);
    root += mech.joint_coupling(1) * current;
    root_abs += mech.joint_coupling(1) * current.cwiseAbs();
    for (int j = 1; j <= n; ++j) {
      Vec3 r = mech.joint_coupling(j) * previous + mech.joint_mass(j) * current;
      Vec3 r_abs = mech.joint_coupling(j) * previous.cwiseAbs() + mech.joint_mass(j) * current.cwiseAbs();
      Vec3 next = Vec3::Zero();
      if (j < n) {
        next = X(a, j + 1);
        r += mech.joint_coupling(j + 1) * next;
        r_abs += mech.joint_coupling(j + 1) * next.cwiseAbs();
      }
      Mx.segment<3>(CableTreeKkt::offset(n, a, j) + 1) = r;
      M_abs_x.segment<3>(CableTreeKkt::offset(n, a, j) + 1) = r_abs;
      previous = current;
      current = next;
    }
  }
  Mx.head<3>() = root;
  M_abs_x.head<3>() = root_abs;
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
