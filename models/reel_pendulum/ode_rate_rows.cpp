// Model B's rate rows in mass-matrix form, r(t, g, v, vdot) = M(g) vdot - F(t, g, v), and their
// tangents, for the Lie group ODE form (LieGroupOdeOf<OdeForm>; core/formulation.hpp,
// LieGroupOdeFormulation) that Lie group generalized-alpha integrates (integrators/lie_generalized_alpha:
// Bruls & Cardona 2010, JCND 5; Arnold, Cardona & Bruls 2016, "A Lie algebra approach to Lie group
// time integration of constrained systems", CISM Courses 565: the unconstrained case, M(g) vdot = F).
//
// The rows are the Euler-Lagrange equations of Model B's semi-discrete Lagrangian (seed 002
// (29)-(33), Appendix A.1; SPEC "Model B") exactly as Mechanics::accelerations writes them before
// its solve, with the generalised force Q + u/d on s (Carnot loss (21) and the control moment):
//   A(s, q, R) z' = h(s, sdot, q, v) + f_body(R, Omega),   z' = (v_2'..v_{N+1}', Omega', sddot),
// A the bordered block-tridiagonal mass matrix (Mechanics::assemble_mass_matrix: the string's
// consistent mass mu l/6 (1 4 1), l = (L - s)/N, the body's blocks, the border
// b_j = mu c23(j-1) (q_{j-1} - q_j) + mu c31(j) (q_j - q_{j+1}) and the corner
// c(s) = mu s + kappa_d + mu l sum m3), h the string-and-reel right-hand sides
// (Mechanics::string_reel_forces: -dV/dq, the velocity terms of the configuration-dependent mass
// matrix, and on s: Q + u/d + dT/ds - dV/ds - the rates of the momentum's coefficients) and f_body
// the body's terms (mechanics/end_body_rates.hpp, Model A's body). The work integrals (Carnot and
// control) are the form's other free entries: they follow field() and enter neither M nor F.
//
// Rate layout (OdeForm::manifold()): [Omega (0-2), v_j at 3 + 3 (j - 2) (j = 2..N+1), sdot at
// 3 + 3N] — the reel's rate only when the reel is free. Locked, s = s_p0 and sdot = 0 are
// constants, the reel row and column are dropped, and the rows are Model A's with element mass
// mu l (and Mechanics' body blocks).
//
// Tangents, along R exp(e hat(xi)), q + e dq, s + e ds (K) and Omega, v, sdot (C):
//   K = d(A z')/d(R, q, s) - dh/d(q, s) - df_body/dR,   C = -dh/d(v, sdot) - df_body/dOmega,
// M = A itself. The string's and reel's derivatives are the ones the DAE form's Jacobian and the
// constrained form use (string_reel_tangents.hpp: d(A(s, q) z)/d(q, s) at fixed z, dh/d(q, s),
// dh/d(v, sdot), derived there term by term); the body's are EndBody::rate_tangent_entries. The
// tests check M, K and C against central differences, for every fixture in
// tests/test_lie_generalized_alpha.cpp and entry by entry at a stretched, moving state of each
// paper case in tests/test_reel_pendulum_lie_generalized_alpha.cpp.

#include <cmath>
#include <utility>

#include "models/reel_pendulum/forms.hpp"
#include "models/reel_pendulum/string_reel_tangents.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::reel_pendulum {

namespace {
using Triplet = Eigen::Triplet<double>;

void put(std::vector<Triplet>& e, int row, int col, const Mat3& B) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (B(i, j) != 0.0) e.emplace_back(row + i, col + j, B(i, j));
}

// The magnitudes of the terms that make h (Mechanics::string_reel_forces), componentwise, for the
// round-off floor S of the rate rows: each force counts beside itself the operands of the
// differences inside it (an element force EA (1/l - 1/|x|) x is formed from x = q_{a+1} - q_a, so
// rounding the positions moves it by EA/l eps (|q_a| + |q_{a+1}|); the strain eps = |q_2|/l - 1
// by eps |q_2|/l).
void string_reel_force_magnitudes(const Mechanics& mech, const State& s, Eigen::VectorXd& Sh) {
  const Parameters& p = mech.params();
  const int N = p.N;
  const double l = mech.element_length(s.s), mu = p.mu, EA = p.EA, sd = std::abs(s.sdot);
  const bool free_reel = !p.reel_locked;
  Sh.setZero(3 * N + 1);
  auto node = [&](int j) { return Sh.segment<3>(3 * (j - 2)); };
  double reel = 0.0;
  for (int a = 1; a <= N; ++a) {  // element a between q_a and q_{a+1}
    const Vec3 x = s.q[a] - s.q[a - 1];
    const double len = x.norm();
    const Vec3 grav = (0.5 * mu * p.g * l * e3).cwiseAbs();
    if (element_slack_length(l, len, p.tension_only)) {  // tension-only, slack: no strain term, no round-off of one
      if (a >= 2) node(a) += grav;
      node(a + 1) += grav;
      reel += 0.5 * mu * p.g / N * (std::abs(s.q[a - 1].z()) + std::abs(s.q[a].z()));
      continue;
    }
    const Vec3 F = (EA / l * (len - l) / len * x).cwiseAbs();
    const double operands = EA / l * (s.q[a - 1].lpNorm<Eigen::Infinity>() + s.q[a].lpNorm<Eigen::Infinity>());
    if (a >= 2) node(a) += grav + F + Vec3::Constant(operands);
    node(a + 1) += grav + F + Vec3::Constant(operands);
    // dV/ds: the element's weight and strain energy EA/(2N) (|x|^2/l^2 - 1).
    reel += 0.5 * mu * p.g / N * (std::abs(s.q[a - 1].z()) + std::abs(s.q[a].z())) +
            EA / (2.0 * N) * (len * len / (l * l) + 1.0) + len * operands / (N * l);
  }
  if (!free_reel) return;
  for (int j = 2; j <= N + 1; ++j) {
    const bool inner = j <= N;
    const Vec3 prev = s.v[j - 2].cwiseAbs(), cur = s.v[j - 1].cwiseAbs(),
               next = inner ? Vec3(s.v[j].cwiseAbs()) : Vec3::Zero();
    Vec3 m = mu * sd / (6.0 * N) * (prev + (inner ? 4.0 : 2.0) * cur + next);                  // string mass rate
    m += mu * sd * (mech.c23(j - 1) * cur + mech.c31(j - 1) * prev);                            // dT/dq_j
    m += mu * sd * mech.c23(j - 1) * (prev + cur);                                              // border rate
    if (inner) m += mu * sd * (mech.c23(j) * next + mech.c31(j) * cur + mech.c31(j) * (cur + next));
    node(j) += m;
  }
  const double eps = mech.guide_way_strain(s), q2 = s.q[1].norm();
  const double carnot_scale = mu * sd * sd + EA;
  reel += std::abs(mech.carnot_force(s)) + carnot_scale * std::abs(eps) * q2 / l + std::abs(p.u / p.d);
  reel += mu * p.g * (p.b + p.d * std::abs(std::sin((s.s - p.b) / p.d)));  // the reel's dV/ds
  reel += 0.5 * mu * sd * sd + mu * sd * sd * (1.0 + mech.m3_sum() / N);   // dT/ds, corner rate
  for (int a = 1; a <= N; ++a) {
    const double va = s.v[a - 1].norm(), vb = s.v[a].norm();
    reel += mu / (6.0 * N) * (va * va + va * vb + vb * vb) + 0.5 * mu * mech.m3(a) * sd * sd / N +
            mu * (va + vb) * (mech.c23(a) * vb + mech.c31(a) * va);  // dT/ds, coupling rate
  }
  Sh(3 * N) = reel;
}
}  // namespace

void OdeForm::to_mechanics_order(const Eigen::VectorXd& vdot, Eigen::VectorXd& x) const {
  const int N = mech_.params().N;
  x.resize(3 * N + 4);
  x.head(3 * N) = vdot.segment(3, 3 * N);
  x.segment<3>(3 * N) = vdot.head<3>();
  x(3 * N + 3) = free_reel() ? vdot(3 + 3 * N) : 0.0;
}

void OdeForm::rate_residual(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                            Eigen::VectorXd& S) const {
  const int N = mech_.params().N;
  const int k = 3 + 3 * N + (free_reel() ? 1 : 0);
  State& st = state_;
  mech_.unpack_into(y, st);
  // A z' and |A| |z'| in Mechanics' order (nodes, Omega, sddot).
  BorderedBlockTridiagonal3& A = mass_;
  mech_.assemble_mass_matrix(st, A);
  to_mechanics_order(vdot, x_);
  xa_ = x_.cwiseAbs();
  const Eigen::VectorXd Ax = A.multiply(x_);
  BorderedBlockTridiagonal3& Aa = mass_abs_;
  Aa.resize(N + 1);
  for (int i = 0; i <= N; ++i) {
    Aa.core().diag(i) = std::as_const(A).core().diag(i).cwiseAbs();
    if (i > 0) Aa.core().lower(i) = std::as_const(A).core().lower(i).cwiseAbs();
    if (i < N) Aa.core().upper(i) = std::as_const(A).core().upper(i).cwiseAbs();
  }
  Aa.border_column() = std::as_const(A).border_column().cwiseAbs();
  Aa.border_row() = std::as_const(A).border_row().cwiseAbs();
  Aa.corner() = std::abs(std::as_const(A).corner());
  const Eigen::VectorXd Aax = std::as_const(Aa).multiply(xa_);
  // The string's and reel's right-hand sides and their terms' magnitudes.
  mech_.string_reel_forces(st, h_);
  string_reel_force_magnitudes(mech_, st, Sh_);
  r.resize(k);
  S.resize(k);
  for (int j = 2; j <= N + 1; ++j) {
    const int row = 3 + 3 * (j - 2), m = 3 * (j - 2);
    r.segment<3>(row) = Ax.segment<3>(m) - h_.segment<3>(m);
    S.segment<3>(row) = Aax.segment<3>(m) + Sh_.segment<3>(m);
  }
  Vec3 F_node, S_node, F_omega, S_omega;
  body_.rate_forces(st.R, st.Omega, F_node, S_node, F_omega, S_omega);
  r.segment<3>(3 * N) -= F_node;
  S.segment<3>(3 * N) += S_node;
  r.head<3>() = Ax.segment<3>(3 * N) - F_omega;
  S.head<3>() = Aax.segment<3>(3 * N) + S_omega;
  if (free_reel()) {
    r(3 + 3 * N) = Ax(3 * N + 3) - h_(3 * N);
    S(3 + 3 * N) = Aax(3 * N + 3) + Sh_(3 * N);
  }
}

void OdeForm::rate_tangent_entries(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                                   std::vector<Triplet>& Me, std::vector<Triplet>& Ke, std::vector<Triplet>& Ce) const {
  const int N = mech_.params().N;
  State& st = state_;
  mech_.unpack_into(y, st);
  // M = A: Mechanics block b (node b + 2 for b < N, Omega for b = N) is rate block b + 1, Omega
  // rate block 0; the border and corner go to the reel's rate 3 + 3N.
  auto rate_block = [N](int b) { return b == N ? 0 : b + 1; };
  BorderedBlockTridiagonal3& A = mass_;
  mech_.assemble_mass_matrix(st, A);
  const BlockTridiagonal3& T = std::as_const(A).core();
  for (int b = 0; b <= N; ++b) {
    put(Me, 3 * rate_block(b), 3 * rate_block(b), T.diag(b));
    if (b > 0) put(Me, 3 * rate_block(b), 3 * rate_block(b - 1), T.lower(b));
    if (b < N) put(Me, 3 * rate_block(b), 3 * rate_block(b + 1), T.upper(b));
  }
  const int E = 3 + 3 * N;  // the reel's rate index (s in K, sdot in C and M)
  if (free_reel()) {
    const Eigen::VectorXd& border = std::as_const(A).border_column();  // the border row equals it
    for (int i = 0; i < 3 * N; ++i)
      if (border(i) != 0.0) Me.emplace_back(3 + i, E, border(i)), Me.emplace_back(E, 3 + i, border(i));
    Me.emplace_back(E, E, std::as_const(A).corner());
  }
  // The body's R and Omega terms; the attachment node N + 1 is at rate 3N.
  to_mechanics_order(vdot, x_);
  body_.rate_tangent_entries(st.R, st.Omega, x_.segment<3>(3 * (N - 1)), vdot.head<3>(), 3 * N, 0, Ke, Ce);
  // The string's and reel's terms, d(A z)/d(q, s) - dh/d(q, s) and -dh/d(v, sdot), from the shared
  // derivatives (string_reel_tangents.hpp), moved from the string-and-reel index space (node j at
  // 3 (j - 2), the reel at 3N) to the rate layout (node j at 3 + 3 (j - 2), the reel at 3 + 3N).
  z_.resize(3 * N + 1);
  z_.head(3 * N) = x_.head(3 * N);
  z_(3 * N) = x_(3 * N + 3);
  const StringReelTangents tangents(mech_);
  dAz_.clear();
  dh_dx_.clear();
  dh_dxdot_.clear();
  tangents.mass_times_jacobian(st, z_, dAz_);
  tangents.force_jacobian(st, dh_dx_, dh_dxdot_);
  for (const Triplet& e : dAz_) Ke.emplace_back(3 + e.row(), 3 + e.col(), e.value());
  for (const Triplet& e : dh_dx_) Ke.emplace_back(3 + e.row(), 3 + e.col(), -e.value());
  for (const Triplet& e : dh_dxdot_) Ce.emplace_back(3 + e.row(), 3 + e.col(), -e.value());
}

}  // namespace tb::reel_pendulum
