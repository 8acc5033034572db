// Model A as a Baumgarte-stabilised index-1 DAE in natural coordinates (SPEC "Formulations";
// seed 004 §2 "Modelling the Rotation Dynamics" and §3 "Baumgarte Stabilisation").
//
// Coordinates: the string nodes r_2..r_{N+1} with velocities v_a, exactly as in the FE model
// (Mechanics: consistent mass, elastic and gravity forces); the rigid body as a free body by its
// centre of mass x_c, velocity w, attitude R (9 numbers, not constrained to SO(3)) and body
// angular velocity Omega. The coupling is the holonomic constraint (seed 004 §2, "L = T - U -
// tr(Lambda(R^T R - I)) - lambda^T C(r, R)")
//   C = r_{N+1} - (x_c - R rho_c) = 0        (rho_c goes from the attachment point to the c.o.m.)
// so the string's end node and the body's attachment point coincide. Euler-Lagrange with
// L = T - V - lambda^T C (seed 004 §2 "Finally! The equations of motion"):
//   node a:  sum_b M_ab v_b' = f_a(r)                        a = 2..N      (string rows)
//            m/6 v_N' + m/3 v_{N+1}' = f_{N+1}(r) - lambda               (dC/dr_{N+1} = I)
//   body:    M w' = M g e3 + lambda                                       (dC/dx_c = -I)
//            J_cm Omega' + Omega x J_cm Omega + 2 P(d(lambda^T C)/dR) = 0,
//            2 P(lambda rho_c^T) = 2 U(R^T lambda rho_c^T) = rho_c x (R^T lambda)
//            (the torque of the string force -lambda... here +lambda on the body, applied at
//            -rho_c from the centre of mass: (-rho_c) x R^T lambda moved to the left side)
// with f_a = -dV_string/dr_a from Mechanics::string_forces and J_cm = J - M(|rho_c|^2 I -
// rho_c rho_c^T) (SPEC conventions: the model's J is about the attachment point). The body's
// weight acts at x_c, so it exerts no torque about the centre of mass.
//
// Index reduction (seed 004 §1 "Index reduction", "Index-1 DAE") and stabilisation (§3,
// C0' = [0 I; -p^2 I -2p I] C0, eig = -p): the algebraic equations for lambda are
//   C'' + 2p C' + p^2 C = 0,
//   C'  = v_{N+1} - w + R hat(Omega) rho_c,
//   C'' = v_{N+1}' - w' + R hat(Omega') rho_c + R hat(Omega)^2 rho_c,
// derived along the rigid-body kinematics R' = R hat(Omega) (seed 004 §2). The orthonormality
// correction (§3, "Correction: R' = R(Omega + Xi)") is
//   R' = R (hat(Omega) + Xi),  Xi = gamma/2 ((R^T R)^{-1} - I),
// which gives d/dt(R^T R - I) = ... - gamma (R^T R - I) (the slide's last line). Xi vanishes on
// SO(3) and is O(gamma |R^T R - I|) off it; it is a numerical correction, not a physical
// velocity, so C' and C'' keep R' = R hat(Omega) (the mismatch drives C by O(gamma |R^T R - I|),
// far below the drift p controls).
//
// Residual F(t, y, y') = 0, one block of rows per block of the state (dae_form's layout in
// forms.hpp), every row linear in y':
//   r_a:     r_a' - v_a
//   v_a:     sum_b M_ab v_b' - f_a(r)  [+ lambda for a = N+1]
//   x_c:     x_c' - w
//   w:       M w' - M g e3 - lambda
//   lambda:  C'' + 2p C' + p^2 C                       (algebraic: lambda enters only the v, w, Omega rows)
//   R:       R' - R (hat(Omega) + Xi)                  (9 rows, row-major)
//   Omega:   J_cm Omega' + Omega x J_cm Omega + rho_c x (R^T lambda)
// The iteration matrix dF/dy + cj dF/dy' is [cj M + K, G^T; cj G + ..., 0] in (velocities,
// lambda): nonsingular for cj > 0 since the constraint gradient G has full rank (index 1).

#include <cmath>

#include "models/string_pendulum/forms.hpp"

namespace tb::string_pendulum {

using so3::hat;
using Triplet = Eigen::Triplet<double>;

namespace {

const Vec3 e3 = Vec3::UnitZ();

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

void add_diagonal(std::vector<Triplet>& out, int row, int col, double value, int n = 3) {
  if (value == 0.0) return;
  for (int i = 0; i < n; ++i) out.emplace_back(row + i, col + i, value);
}

// Orthonormality correction Xi = gamma/2 ((R^T R)^{-1} - I) (seed 004 §3).
Mat3 orthonormality_correction(const Mat3& R, double gamma) {
  if (gamma == 0.0) return Mat3::Zero();
  return 0.5 * gamma * ((R.transpose() * R).inverse() - Mat3::Identity());
}

}  // namespace

DaeForm::DaeForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {
  // SPEC conventions: J = J_cm + M(|rho_c|^2 I - rho_c rho_c^T), so J_cm is J minus that shift.
  J_cm_ = p.J - p.M * (p.rho_c.squaredNorm() * Mat3::Identity() - p.rho_c * p.rho_c.transpose());
  mech_.assemble_string_mass_matrix(string_mass_);
  r_.assign(p.N + 1, Vec3::Zero());
}

Eigen::VectorXd DaeForm::differential_components() const {
  Eigen::VectorXd id = Eigen::VectorXd::Ones(state_size());
  id.segment<3>(body_offset() + 6).setZero();  // lambda
  return id;
}

Eigen::VectorXd DaeForm::initial_state() const { return consistent_initial_state(BaumgarteParameters{}); }

// From the model's initial condition (the same as every other formulation): the string as given,
// the body's centre of mass at r_{N+1} + R rho_c moving with v_{N+1} + R (Omega x rho_c), so that
// C = C' = 0; lambda from the body's translational equation at t0 (see the derivative below).
Eigen::VectorXd DaeForm::consistent_initial_state(const BaumgarteParameters& b) const {
  const Parameters& p = mech_.params();
  const State s = mech_.initial_state(ic_);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(state_size());
  for (int a = 2; a <= p.N + 1; ++a) {
    y.segment<3>(node_offset(a)) = s.r[a - 1];
    y.segment<3>(node_offset(a) + 3) = s.v[a - 1];
  }
  const int B = body_offset();
  y.segment<3>(B) = s.r[p.N] + s.R * p.rho_c;
  y.segment<3>(B + 3) = s.v[p.N] + s.R * s.Omega.cross(p.rho_c);
  write_matrix(s.R, B + 9, y);
  y.segment<3>(B + 18) = s.Omega;
  // lambda = M w' - M g e3 (the w row), with w' from the consistent accelerations.
  const Eigen::VectorXd yp = consistent_initial_derivative(b);
  y.segment<3>(B + 6) = p.M * Vec3(yp.segment<3>(B + 3)) - p.M * p.g * e3;
  return y;
}

// The index-1 system at t0 is linear in (v', w', Omega', lambda). With C = C' = 0 it is the
// constrained form of Model A's equations of motion, so the node accelerations and Omega' are
// Mechanics::accelerations (one O(N) block-tridiagonal solve); then w' = C''-consistent
// acceleration of the centre of mass, w' = v_{N+1}' + R hat(Omega') rho_c + R hat(Omega)^2 rho_c
// (the lambda row with C = C' = 0 and any p), and lambda from the w row. The tests check
// F(t0, y0, y0') = 0 to round-off, which cross-checks this DAE against the ODE's equations.
Eigen::VectorXd DaeForm::consistent_initial_derivative(const BaumgarteParameters& b) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  const State s = mech_.initial_state(ic_);
  Eigen::VectorXd acc;
  mech_.accelerations(s, acc);
  Eigen::VectorXd yp = Eigen::VectorXd::Zero(state_size());
  for (int a = 2; a <= N + 1; ++a) {
    yp.segment<3>(node_offset(a)) = s.v[a - 1];
    yp.segment<3>(node_offset(a) + 3) = acc.segment<3>(3 * (a - 2));
  }
  const int B = body_offset();
  const Vec3 Omega_dot = acc.segment<3>(3 * N);
  yp.segment<3>(B) = s.v[N] + s.R * s.Omega.cross(p.rho_c);
  yp.segment<3>(B + 3) = Vec3(acc.segment<3>(3 * (N - 1))) + s.R * Omega_dot.cross(p.rho_c) +
                         s.R * s.Omega.cross(s.Omega.cross(p.rho_c));
  // lambda' is not part of an index-1 consistent initial value (lambda is algebraic): zero.
  write_matrix(s.R * (hat(s.Omega) + orthonormality_correction(s.R, b.gamma)), B + 9, yp);
  yp.segment<3>(B + 18) = Omega_dot;
  return yp;
}

void DaeForm::residual(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                       Eigen::VectorXd& F) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  F.resize(state_size());
  for (int a = 2; a <= N + 1; ++a) r_[a - 1] = y.segment<3>(node_offset(a));
  mech_.string_forces(r_, f_);
  const int B = body_offset();
  const Vec3 lambda = y.segment<3>(B + 6);
  // String: r_a' - v_a; sum_b M_ab v_b' - f_a (+ lambda on the attachment node).
  for (int a = 2; a <= N + 1; ++a) {
    const int o = node_offset(a), i = a - 2;
    F.segment<3>(o) = yp.segment<3>(o) - y.segment<3>(o + 3);
    Vec3 Mv = string_mass_.diag(i) * yp.segment<3>(o + 3);
    if (i > 0) Mv += string_mass_.lower(i) * yp.segment<3>(o - 3);
    if (i + 1 < N) Mv += string_mass_.upper(i) * yp.segment<3>(o + 9);
    F.segment<3>(o + 3) = Mv - f_.segment<3>(3 * i);
  }
  F.segment<3>(node_offset(N + 1) + 3) += lambda;
  // Body.
  const Vec3 x = y.segment<3>(B), w = y.segment<3>(B + 3);
  const Mat3 R = read_matrix(y, B + 9);
  const Vec3 Omega = y.segment<3>(B + 18);
  const Vec3 Omega_dot = yp.segment<3>(B + 18);
  const Vec3& rho = p.rho_c;
  F.segment<3>(B) = yp.segment<3>(B) - w;
  F.segment<3>(B + 3) = p.M * Vec3(yp.segment<3>(B + 3)) - p.M * p.g * e3 - lambda;
  // Baumgarte (seed 004 §3): C'' + 2p C' + p^2 C.
  const Vec3 r_end = y.segment<3>(node_offset(N + 1)), v_end = y.segment<3>(node_offset(N + 1) + 3);
  const Vec3 Wrho = Omega.cross(rho);
  const Vec3 C = r_end - x + R * rho;
  const Vec3 C_dot = v_end - w + R * Wrho;
  const Vec3 C_ddot = Vec3(yp.segment<3>(node_offset(N + 1) + 3)) - Vec3(yp.segment<3>(B + 3)) +
                      R * (Omega_dot.cross(rho) + Omega.cross(Wrho));
  F.segment<3>(B + 6) = C_ddot + 2.0 * b.p * C_dot + b.p * b.p * C;
  // Kinematics with the orthonormality correction (seed 004 §3).
  const Mat3 Rdot_residual = read_matrix(yp, B + 9) - R * (hat(Omega) + orthonormality_correction(R, b.gamma));
  write_matrix(Rdot_residual, B + 9, F);
  // Rotation about the centre of mass (seed 004 §2): J Omega' + Omega x J Omega + 2P(d(lambda^T C)/dR).
  F.segment<3>(B + 18) = J_cm_ * Omega_dot + Omega.cross(J_cm_ * Omega) + rho.cross(R.transpose() * lambda);
}

// dF/dy + cj dF/dy', row by row of the residual above.
void DaeForm::jacobian(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                       const BaumgarteParameters& b, std::vector<Triplet>& out) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  out.clear();
  out.reserve(std::size_t(66 * N + 300));
  for (int a = 2; a <= N + 1; ++a) r_[a - 1] = y.segment<3>(node_offset(a));
  for (int a = 2; a <= N + 1; ++a) {
    const int o = node_offset(a), i = a - 2;
    add_diagonal(out, o, o, cj);        // d(r_a' - v_a)/dr_a'
    add_diagonal(out, o, o + 3, -1.0);  // .../dv_a
    // cj M_ab: the string's mass matrix rows.
    add_block(out, o + 3, o + 3, cj * string_mass_.diag(i));
    if (i > 0) add_block(out, o + 3, o - 3, cj * string_mass_.lower(i));
    if (i + 1 < N) add_block(out, o + 3, o + 9, cj * string_mass_.upper(i));
  }
  // -df/dr: element a (nodes a, a+1, force F_a = F(r_{a+1} - r_a) with stiffness K_a) enters
  // f_a as +F_a and f_{a+1} as -F_a, so the residual rows get +K_a on (a,a), (a+1,a+1) and -K_a
  // on (a,a+1), (a+1,a). The pivot r_1 is fixed: it has no rows or columns.
  for (int a = 1; a <= N; ++a) {
    const Mat3 K = mech_.element_stiffness(r_[a] - r_[a - 1]);
    const int row_b = node_offset(a + 1) + 3, col_b = node_offset(a + 1);
    add_block(out, row_b, col_b, K);
    if (a >= 2) {
      const int row_a = node_offset(a) + 3, col_a = node_offset(a);
      add_block(out, row_a, col_a, K);
      add_block(out, row_a, col_b, -K);
      add_block(out, row_b, col_a, -K);
    }
  }
  const int B = body_offset();
  const int end = node_offset(N + 1);
  add_diagonal(out, end + 3, B + 6, 1.0);  // + lambda on the attachment node
  const Vec3 lambda = y.segment<3>(B + 6);
  const Mat3 R = read_matrix(y, B + 9);
  const Vec3 Omega = y.segment<3>(B + 18);
  const Vec3 Omega_dot = yp.segment<3>(B + 18);
  const Vec3& rho = p.rho_c;
  // x_c row.
  add_diagonal(out, B, B, cj);
  add_diagonal(out, B, B + 3, -1.0);
  // w row.
  add_diagonal(out, B + 3, B + 3, cj * p.M);
  add_diagonal(out, B + 3, B + 6, -1.0);
  // lambda row: C'' + 2p C' + p^2 C.
  const int L = B + 6;
  add_diagonal(out, L, end, b.p * b.p);               // dC/dr_{N+1} = I
  add_diagonal(out, L, end + 3, cj + 2.0 * b.p);      // v_{N+1}' and C'
  add_diagonal(out, L, B, -b.p * b.p);                // dC/dx_c = -I
  add_diagonal(out, L, B + 3, -cj - 2.0 * b.p);       // w' and C'
  // Omega: R hat(Omega') rho = -R hat(rho) Omega'; d/dOmega [Omega x (Omega x rho)] =
  // -hat(Omega x rho) - hat(Omega) hat(rho); d/dOmega (Omega x rho) = -hat(rho).
  const Vec3 Wrho = Omega.cross(rho);
  add_block(out, L, B + 18,
            -cj * R * hat(rho) + R * (-hat(Wrho) - hat(Omega) * hat(rho)) - 2.0 * b.p * R * hat(rho));
  // R: the lambda row is R g with g = Omega' x rho + Omega x (Omega x rho) + 2p Omega x rho +
  // p^2 rho, so d/dR_kl = e_k g_l.
  const Vec3 g_rho = Omega_dot.cross(rho) + Omega.cross(Wrho) + 2.0 * b.p * Wrho + b.p * b.p * rho;
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) out.emplace_back(L + k, B + 9 + 3 * k + l, g_rho(l));
  // R rows: R' - R (hat(Omega) + Xi).
  add_diagonal(out, B + 9, B + 9, cj, 9);
  for (int k = 0; k < 3; ++k) {
    const Mat3 dOmega = -R * hat(Vec3::Unit(k));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) out.emplace_back(B + 9 + 3 * i + j, B + 18 + k, dOmega(i, j));
  }
  // d/dR_kl of -R (hat(Omega) + Xi): -E_kl (hat(Omega) + Xi) - R dXi, with
  // dXi = -gamma/2 A^{-1} (E_kl^T R + R^T E_kl) A^{-1}, A = R^T R (d(A^{-1}) = -A^{-1} dA A^{-1}).
  const Mat3 W = hat(Omega) + orthonormality_correction(R, b.gamma);
  const Mat3 A_inv = b.gamma == 0.0 ? Mat3::Identity() : Mat3((R.transpose() * R).inverse());
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      Mat3 E = Mat3::Zero();
      E(k, l) = 1.0;
      Mat3 d = -E * W;
      if (b.gamma != 0.0) d += 0.5 * b.gamma * R * A_inv * (E.transpose() * R + R.transpose() * E) * A_inv;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          if (d(i, j) != 0.0) out.emplace_back(B + 9 + 3 * i + j, B + 9 + 3 * k + l, d(i, j));
    }
  // Omega rows: J_cm Omega' + Omega x J_cm Omega + rho x (R^T lambda).
  const int O = B + 18;
  add_block(out, O, O, cj * J_cm_ + hat(Omega) * J_cm_ - hat(J_cm_ * Omega));
  add_block(out, O, L, hat(rho) * R.transpose());
  // d/dR_kl of rho x (R^T lambda) = rho x (E_kl^T lambda) = lambda_k rho x e_l.
  const Mat3 rho_hat = hat(rho);
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      const Vec3 col = lambda(k) * rho_hat.col(l);
      for (int i = 0; i < 3; ++i)
        if (col(i) != 0.0) out.emplace_back(O + i, B + 9 + 3 * k + l, col(i));
    }
}

State DaeForm::to_physical(const Eigen::VectorXd& y) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  State s;
  s.r.assign(N + 1, Vec3::Zero());
  s.v.assign(N + 1, Vec3::Zero());
  for (int a = 2; a <= N; ++a) {
    s.r[a - 1] = y.segment<3>(node_offset(a));
    s.v[a - 1] = y.segment<3>(node_offset(a) + 3);
  }
  const int B = body_offset();
  s.R = read_matrix(y, B + 9);
  s.Omega = y.segment<3>(B + 18);
  // The attachment point of the body (equal to the string's end node r_{N+1} up to the
  // constraint drift C, which observe() reports).
  s.r[N] = Vec3(y.segment<3>(B)) - s.R * p.rho_c;
  s.v[N] = Vec3(y.segment<3>(B + 3)) - s.R * s.Omega.cross(p.rho_c);
  return s;
}

Eigen::VectorXd DaeForm::physical_state(const Eigen::VectorXd& y) const { return mech_.pack(to_physical(y)); }

double DaeForm::constraint_error(const Eigen::VectorXd& y) const {
  const int B = body_offset(), end = node_offset(mech_.params().N + 1);
  const Mat3 R = read_matrix(y, B + 9);
  return (Vec3(y.segment<3>(end)) - Vec3(y.segment<3>(B)) + R * mech_.params().rho_c).norm();
}

double DaeForm::constraint_rate_error(const Eigen::VectorXd& y) const {
  const int B = body_offset(), end = node_offset(mech_.params().N + 1);
  const Mat3 R = read_matrix(y, B + 9);
  const Vec3 Omega = y.segment<3>(B + 18);
  return (Vec3(y.segment<3>(end + 3)) - Vec3(y.segment<3>(B + 3)) + R * Omega.cross(mech_.params().rho_c)).norm();
}

// The model's observables (energy, pi3, orthogonality) of the physical state, plus the drift of
// the attachment constraint that this formulation, unlike the others, does not hold by
// construction.
Observation DaeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  Observation o = mech_.observe(to_physical(y));
  o.constraint_err = constraint_error(y);
  o.constraint_rate_err = constraint_rate_error(y);
  return o;
}

}  // namespace tb::string_pendulum
