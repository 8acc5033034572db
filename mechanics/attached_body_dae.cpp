// The rigid body of the index-1 DAE forms (equations in attached_body_dae.hpp).

#include "mechanics/attached_body_dae.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::dae {

using so3::hat;
using Triplet = Eigen::Triplet<double>;

namespace {
}

Mat3 inertia_about_centre_of_mass(double M, const Vec3& rho_c, const Mat3& J_attachment) {
  return J_attachment - M * (rho_c.squaredNorm() * Mat3::Identity() - rho_c * rho_c.transpose());
}

Mat3 orthonormality_correction(const Mat3& R, double gamma) {
  if (gamma == 0.0) return Mat3::Zero();
  return 0.5 * gamma * ((R.transpose() * R).inverse() - Mat3::Identity());
}

Mat3 read_matrix(const Eigen::VectorXd& y, int offset) {
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = y(offset + 3 * i + j);
  return R;
}

void write_matrix(const Mat3& R, int offset, Eigen::VectorXd& y) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) y(offset + 3 * i + j) = R(i, j);
}

void add_block(std::vector<Triplet>& out, int row, int col, const Mat3& B) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (B(i, j) != 0.0) out.emplace_back(row + i, col + j, B(i, j));
}

void add_diagonal(std::vector<Triplet>& out, int row, int col, double value, int n) {
  if (value == 0.0) return;
  for (int i = 0; i < n; ++i) out.emplace_back(row + i, col + i, value);
}

void AttachedBody::residual(const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                            Eigen::VectorXd& F) const {
  const Vec3 lam = y.segment<3>(lambda());
  const Vec3 xc = y.segment<3>(x()), wc = y.segment<3>(w());
  const Mat3 Rm = read_matrix(y, R());
  const Vec3 W = y.segment<3>(Omega());
  const Vec3 W_dot = yp.segment<3>(Omega());
  const Vec3 r_end = y.segment<3>(end_node), v_end = y.segment<3>(end_node + 3);
  F.segment<3>(end_node + 3) += lam;  // the string's end node: + (dC/dr_end)^T lambda
  F.segment<3>(x()) = yp.segment<3>(x()) - wc;
  F.segment<3>(w()) = M * Vec3(yp.segment<3>(w())) - M * g * e3 - lam;
  // C'' + 2p C' + p^2 C (seed 004 §3).
  const Vec3 Wrho = W.cross(rho_c);
  const Vec3 C = r_end - xc + Rm * rho_c;
  const Vec3 C_dot = v_end - wc + Rm * Wrho;
  const Vec3 C_ddot = Vec3(yp.segment<3>(end_node + 3)) - Vec3(yp.segment<3>(w())) +
                      Rm * (W_dot.cross(rho_c) + W.cross(Wrho));
  F.segment<3>(lambda()) = C_ddot + 2.0 * b.p * C_dot + b.p * b.p * C;
  // R' = R (hat(Omega) + Xi) (seed 004 §3).
  write_matrix(read_matrix(yp, R()) - Rm * (hat(W) + orthonormality_correction(Rm, b.gamma)), R(), F);
  // J Omega' + Omega x J Omega + 2 P(d(lambda^T C)/dR) = 0 (seed 004 §2), about the c.o.m.
  F.segment<3>(Omega()) = J_cm * W_dot + W.cross(J_cm * W) + rho_c.cross(Rm.transpose() * lam);
}

void AttachedBody::jacobian(const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                            const BaumgarteParameters& b, std::vector<Triplet>& out) const {
  const Vec3 lam = y.segment<3>(lambda());
  const Mat3 Rm = read_matrix(y, R());
  const Vec3 W = y.segment<3>(Omega());
  const Vec3 W_dot = yp.segment<3>(Omega());
  add_diagonal(out, end_node + 3, lambda(), 1.0);  // + lambda on the end node's rows
  // x_c row: x_c' - w.
  add_diagonal(out, x(), x(), cj);
  add_diagonal(out, x(), w(), -1.0);
  // w row: M w' - M g e3 - lambda.
  add_diagonal(out, w(), w(), cj * M);
  add_diagonal(out, w(), lambda(), -1.0);
  // lambda row: C'' + 2p C' + p^2 C.
  const int L = lambda();
  add_diagonal(out, L, end_node, b.p * b.p);            // dC/dr_end = I
  add_diagonal(out, L, end_node + 3, cj + 2.0 * b.p);   // v_end' in C'', v_end in C'
  add_diagonal(out, L, x(), -b.p * b.p);                // dC/dx_c = -I
  add_diagonal(out, L, w(), -cj - 2.0 * b.p);           // w' in C'', w in C'
  // Omega: R hat(Omega') rho = -R hat(rho) Omega'; d/dOmega [Omega x (Omega x rho)] =
  // -hat(Omega x rho) - hat(Omega) hat(rho); d/dOmega (Omega x rho) = -hat(rho).
  const Vec3 Wrho = W.cross(rho_c);
  const Mat3 rho_hat = hat(rho_c);
  add_block(out, L, Omega(), -cj * Rm * rho_hat + Rm * (-hat(Wrho) - hat(W) * rho_hat) - 2.0 * b.p * Rm * rho_hat);
  // The lambda row is R g_rho + (terms without R), g_rho = Omega' x rho + Omega x (Omega x rho)
  // + 2p Omega x rho + p^2 rho, so d/dR_kl = e_k (g_rho)_l.
  const Vec3 g_rho = W_dot.cross(rho_c) + W.cross(Wrho) + 2.0 * b.p * Wrho + b.p * b.p * rho_c;
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l)
      if (g_rho(l) != 0.0) out.emplace_back(L + k, R() + 3 * k + l, g_rho(l));
  // R rows: R' - R (hat(Omega) + Xi).
  add_diagonal(out, R(), R(), cj, 9);
  for (int k = 0; k < 3; ++k) {
    const Mat3 dOmega = -Rm * hat(Vec3::Unit(k));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (dOmega(i, j) != 0.0) out.emplace_back(R() + 3 * i + j, Omega() + k, dOmega(i, j));
  }
  // d/dR_kl of -R (hat(Omega) + Xi) = -E_kl (hat(Omega) + Xi) - R dXi, with
  // dXi = -gamma/2 A^{-1} (E_kl^T R + R^T E_kl) A^{-1}, A = R^T R (d(A^{-1}) = -A^{-1} dA A^{-1}).
  const Mat3 Wx = hat(W) + orthonormality_correction(Rm, b.gamma);
  const Mat3 A_inv = b.gamma == 0.0 ? Mat3::Identity() : Mat3((Rm.transpose() * Rm).inverse());
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      Mat3 E = Mat3::Zero();
      E(k, l) = 1.0;
      Mat3 d = -E * Wx;
      if (b.gamma != 0.0) d += 0.5 * b.gamma * Rm * A_inv * (E.transpose() * Rm + Rm.transpose() * E) * A_inv;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          if (d(i, j) != 0.0) out.emplace_back(R() + 3 * i + j, R() + 3 * k + l, d(i, j));
    }
  // Omega rows: J_cm Omega' + Omega x J_cm Omega + rho x (R^T lambda).
  add_block(out, Omega(), Omega(), cj * J_cm + hat(W) * J_cm - hat(J_cm * W));
  add_block(out, Omega(), lambda(), rho_hat * Rm.transpose());
  // d/dR_kl of rho x (R^T lambda) = rho x (E_kl^T lambda) = lambda_k rho x e_l.
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      const Vec3 col = lam(k) * rho_hat.col(l);
      for (int i = 0; i < 3; ++i)
        if (col(i) != 0.0) out.emplace_back(Omega() + i, R() + 3 * k + l, col(i));
    }
}

void AttachedBody::initial_values(const Vec3& r_end, const Vec3& v_end, const Vec3& a_end, const Mat3& Rm,
                                  const Vec3& W, const Vec3& W_dot, const BaumgarteParameters& b,
                                  Eigen::VectorXd& y, Eigen::VectorXd& yp) const {
  const Vec3 Wrho = W.cross(rho_c);
  y.segment<3>(x()) = r_end + Rm * rho_c;  // C = 0
  y.segment<3>(w()) = v_end + Rm * Wrho;   // C' = 0
  write_matrix(Rm, R(), y);
  y.segment<3>(Omega()) = W;
  const Vec3 w_dot = a_end + Rm * (W_dot.cross(rho_c) + W.cross(Wrho));  // C'' = 0
  y.segment<3>(lambda()) = M * w_dot - M * g * e3;                       // the w row
  yp.segment<3>(x()) = y.segment<3>(w());
  yp.segment<3>(w()) = w_dot;
  yp.segment<3>(lambda()).setZero();  // lambda is algebraic: its derivative is not part of the start
  write_matrix(Rm * (hat(W) + orthonormality_correction(Rm, b.gamma)), R(), yp);
  yp.segment<3>(Omega()) = W_dot;
}

Vec3 AttachedBody::attachment_position(const Eigen::VectorXd& y) const {
  return Vec3(y.segment<3>(x())) - attitude(y) * rho_c;
}

Vec3 AttachedBody::attachment_velocity(const Eigen::VectorXd& y) const {
  return Vec3(y.segment<3>(w())) - attitude(y) * angular_velocity(y).cross(rho_c);
}

double AttachedBody::constraint_error(const Eigen::VectorXd& y) const {
  return (Vec3(y.segment<3>(end_node)) - attachment_position(y)).norm();
}

double AttachedBody::constraint_rate_error(const Eigen::VectorXd& y) const {
  return (Vec3(y.segment<3>(end_node + 3)) - attachment_velocity(y)).norm();
}

}  // namespace tb::dae
