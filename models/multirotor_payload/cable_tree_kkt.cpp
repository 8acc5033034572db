#include "models/multirotor_payload/cable_tree_kkt.hpp"

#include <cmath>

namespace tb::multirotor_payload {

CableTreeKkt::CableTreeKkt(const Mechanics& mech)
    : mech_(mech), m_(mech.params().multirotors), n_(mech.params().links), pivots_(m_ * n_), reduced_rhs_(m_ * n_) {}

bool CableTreeKkt::factor(double s, const std::vector<std::vector<Vec3>>& u, const std::vector<std::vector<Vec3>>& t,
                          const std::vector<Mat3>* top, const std::vector<std::vector<bool>>* released) {
  const Mat3 I = Mat3::Identity();
  // Blocks of cable a at joint j (1-based): D (diagonal), L (to joint j-1), U (to joint j+1).
  auto D = [&](int a, int j) {
    Mat4 d = Mat4::Zero();
    d.block<1, 3>(0, 1) = t[a][j - 1].transpose();
    d.block<3, 1>(1, 0) = -u[a][j - 1];
    d.block<3, 3>(1, 1) = s * mech_.joint_mass(j) * I;
    if (released && (*released)[a][j - 1]) d(0, 0) = 1.0;  // tau_j = r_j' (header)
    return d;
  };
  auto L = [&](int a, int j) {  // j >= 2: 4x4 acting on (tau_{j-1}, x_{j-1})
    Mat4 l = Mat4::Zero();
    l.block<1, 3>(0, 1) = -t[a][j - 1].transpose();
    l.block<3, 3>(1, 1) = s * mech_.joint_coupling(j) * I;
    return l;
  };
  // U (to joint j+1, j <= n-1; 4x4 acting on (tau_{j+1}, x_{j+1})) has rows 1..3 =
  // [u[a][j], s joint_coupling(j+1) I] and row 0 zero; it is applied in structured form below.
  lower_.resize(m_ * n_);
  upper_times_.resize(m_ * n_);
  first_lower_.resize(m_);
  root_upper_times_.resize(m_);
  Mat3 S0 = s * mech_.payload_joint_mass() * I;
  for (int a = 0; a < m_; ++a) {
    Mat4 S = D(a, n_);
    if (top) S.block<3, 3>(1, 1) += (*top)[a];
    for (int j = n_; j >= 1; --j) {
      const int k = a * n_ + j - 1;
      // Eigen's closed-form 4x4 inverse (the one computeInverseAndDetWithCheck calls after a
      // separate determinant); a singular pivot divides by a zero determinant and shows as
      // non-finite entries.
      pivots_[k] = S.inverse();
      if (!pivots_[k].allFinite()) return false;
      if (j == 1) break;
      lower_[k] = L(a, j);
      // upper_times_ = U(a, j-1) P and S = D(a, j-1) - U P L(a, j), with the sums of the dense
      // products over the entries that are not structural zeros of U (row 0, off-diagonal of
      // its 3x3 block) and L (column 0, likewise): only exact zeros are left out, so the result
      // is bitwise that of the dense 4x4 products, at a third of their cost.
      const Mat4& P = pivots_[k];
      const Vec3& uj = u[a][j - 1];
      const Vec3& tj = t[a][j - 1];
      const double sc = s * mech_.joint_coupling(j);  // U(a, j-1) and L(a, j) share joint j's coupling
      Mat4& UP = upper_times_[k];
      UP.row(0).setZero();
      for (int i = 0; i < 3; ++i) UP.row(1 + i) = uj(i) * P.row(0) + sc * P.row(1 + i);
      S = D(a, j - 1);
      for (int r = 1; r < 4; ++r)
        for (int m = 0; m < 3; ++m) S(r, 1 + m) -= UP(r, 0) * (-tj(m)) + UP(r, 1 + m) * sc;
    }
    auto& L1 = first_lower_[a];
    L1.setZero();
    L1.row(0) = -t[a][0].transpose();
    L1.block<3, 3>(1, 0) = s * mech_.joint_coupling(1) * I;
    Eigen::Matrix<double, 3, 4> U0 = Eigen::Matrix<double, 3, 4>::Zero();
    U0.col(0) = u[a][0];
    U0.block<3, 3>(0, 1) = s * mech_.joint_coupling(1) * I;
    root_upper_times_[a] = U0 * pivots_[a * n_];
    S0 -= root_upper_times_[a] * L1;
  }
  bool invertible = false;
  double det = 0.0;
  S0.computeInverseAndDetWithCheck(root_inverse_, det, invertible, 0.0);
  return invertible && root_inverse_.allFinite();
}

void CableTreeKkt::solve(const Eigen::VectorXd& rhs, Eigen::VectorXd& sol) {
  Vec3 r0 = rhs.head<3>();
  for (int a = 0; a < m_; ++a) {
    Vec4 r = rhs.segment<4>(offset(n_, a, n_));
    for (int j = n_; j >= 1; --j) {
      const int k = a * n_ + j - 1;
      reduced_rhs_[k] = r;
      if (j == 1) break;
      r = rhs.segment<4>(offset(n_, a, j - 1)) - upper_times_[k] * r;
    }
    r0 -= root_upper_times_[a] * reduced_rhs_[a * n_];
  }
  sol.resize(size());
  const Vec3 x0 = root_inverse_ * r0;
  sol.head<3>() = x0;
  for (int a = 0; a < m_; ++a) {
    Vec4 z = pivots_[a * n_] * (reduced_rhs_[a * n_] - first_lower_[a] * x0);
    sol.segment<4>(offset(n_, a, 1)) = z;
    for (int j = 2; j <= n_; ++j) {
      const int k = a * n_ + j - 1;
      z = pivots_[k] * (reduced_rhs_[k] - lower_[k] * z);
      sol.segment<4>(offset(n_, a, j)) = z;
    }
  }
}

}  // namespace tb::multirotor_payload
