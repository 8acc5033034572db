// Model B's rate rows in mass-matrix form, r(t, g, v, vdot) = M(g) vdot - F(t, g, v), and their
// tangents, for the Lie group ODE form (LieGroupOdeOf<OdeForm>; core/formulation.hpp,
// LieGroupOdeFormulation) that Lie group generalized-alpha integrates (Bruls & Cardona 2010;
// Arnold, Cardona & Bruls 2016).
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
// Tangents, along R exp(e hat(xi)), q + e dq, s + e ds (K) and Omega, v, sdot (C). Notation:
// element a joins q_a and q_{a+1} (q_1 = 0), x_a = q_{a+1} - q_a, F_a = EA (1/l - 1/|x_a|) x_a,
// dl/ds = -1/N, a_j = v_j' (a_1 = 0), sdd = sddot, eps = |q_2|/l - 1 (guide way strain),
// Q = -1/2 (mu sdot^2 + EA) eps^2, c' = dc/ds = mu - mu sum m3 / N. Node row j:
//   K, q:  the element stiffness EA [(1/l - 1/|x|) I + x x^T/|x|^3] of elements j-1 and j (as
//          Model A), and d(b_j sdd)/dq: mu c23(j-1) sdd I on q_{j-1},
//          (mu c31(j) - mu c23(j-1)) sdd I on q_j, -mu c31(j) sdd I on q_{j+1};
//   K, s:  -mu/(6N) (a_{j-1} + 4 a_j + a_{j+1}) (2 a_j on the end node) from the string mass, and
//          per element a touching node j: mu g/(2N) e3 -+ EA x_a/(N l^2) (- on q_a, + on q_{a+1});
//   C, v:  -mu sdot (alpha_j, diag_j/(6N), beta_j) on (v_{j-1}, v_j, v_{j+1}), with
//          alpha_j = 1/(6N) - c31(j-1) - c23(j-1), beta_j = 1/(6N) + c23(j) + c31(j), diag 4 (2 at
//          the end node): the velocity terms of h collected per node;
//   C, sdot: -mu (alpha_j v_{j-1} + diag_j/(6N) v_j + beta_j v_{j+1}).
// Reel row (sum_j b_j . a_j + c(s) sdd - h_s):
//   K, q_k: -mu (c23(k-1) a_k + c31(k-1) a_{k-1}) + mu (c23(k) a_{k+1} + c31(k) a_k) (d(b . a)/dq_k),
//          + d(dV/ds)/dq_k = mu g/(2N) e3 per element touching q_k + EA/(N l^2) (x_{k-1} - x_k),
//          - dQ/dq_2 = (mu sdot^2 + EA) eps q_2/(|q_2| l) on q_2;
//   K, s:  c' sdd - dQ/ds + mu g cos((s - b)/d) + sum_a EA |x_a|^2/(N^2 l^3),
//          dQ/ds = -(mu sdot^2 + EA) eps |q_2|/(N l^2);
//   C, v_k: mu/(6N) (v_{k-1} + 2 v_k) + mu (c23(k-1) (v_{k-1} - 2 v_k) - c31(k-1) v_{k-1})
//          + mu/(6N) (2 v_k + v_{k+1}) + mu (c23(k) v_{k+1} + c31(k) (2 v_k - v_{k+1}))
//          (-d(dT/ds)/dv_k + d(coupling rate)/dv_k);
//   C, sdot: -dQ/dsdot + c' sdot, dQ/dsdot = -mu sdot eps^2.
// (The same derivatives the DAE form's Jacobian takes of these terms, dae_form.cpp.) The body's
// K and C: EndBody::rate_tangent_entries. M = A itself. The tests check all three against central
// differences (tests/test_lie_generalized_alpha.cpp, every fixture offering tangents).

#include <cmath>
#include <utility>

#include "models/reel_pendulum/forms.hpp"

namespace tb::reel_pendulum {

namespace {
using Triplet = Eigen::Triplet<double>;
const Vec3 e3 = Vec3::UnitZ();

void put(std::vector<Triplet>& e, int row, int col, const Mat3& B) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (B(i, j) != 0.0) e.emplace_back(row + i, col + j, B(i, j));
}
void put_diagonal(std::vector<Triplet>& e, int row, int col, double d) {
  if (d != 0.0)
    for (int i = 0; i < 3; ++i) e.emplace_back(row + i, col + i, d);
}
void put_column(std::vector<Triplet>& e, int row, int col, const Vec3& v) {
  for (int i = 0; i < 3; ++i)
    if (v(i) != 0.0) e.emplace_back(row + i, col, v(i));
}
void put_row(std::vector<Triplet>& e, int row, int col, const Vec3& v) {
  for (int i = 0; i < 3; ++i)
    if (v(i) != 0.0) e.emplace_back(row, col + i, v(i));
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
    const Vec3 F = (EA / l * (len - l) / len * x).cwiseAbs();
    const double operands = EA / l * (s.q[a - 1].lpNorm<Eigen::Infinity>() + s.q[a].lpNorm<Eigen::Infinity>());
    const Vec3 grav = (0.5 * mu * p.g * l * e3).cwiseAbs();
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
  const Parameters& p = mech_.params();
  const int N = p.N;
  State& st = state_;
  mech_.unpack_into(y, st);
  // Mechanics block b (node b + 2 for b < N, Omega for b = N) is rate block b + 1, Omega rate block 0.
  auto rate_block = [N](int b) { return b == N ? 0 : b + 1; };
  auto node = [](int j) { return 3 + 3 * (j - 2); };  // rate index of node j's velocity (and of q_j in K)
  BorderedBlockTridiagonal3& A = mass_;
  mech_.assemble_mass_matrix(st, A);
  const BlockTridiagonal3& T = std::as_const(A).core();
  for (int b = 0; b <= N; ++b) {
    put(Me, 3 * rate_block(b), 3 * rate_block(b), T.diag(b));
    if (b > 0) put(Me, 3 * rate_block(b), 3 * rate_block(b - 1), T.lower(b));
    if (b < N) put(Me, 3 * rate_block(b), 3 * rate_block(b + 1), T.upper(b));
  }
  to_mechanics_order(vdot, x_);
  auto acc = [&](int j) -> Vec3 { return j >= 2 ? Vec3(x_.segment<3>(3 * (j - 2))) : Vec3::Zero(); };
  // The body's R and Omega terms; the attachment node is node N + 1.
  body_.rate_tangent_entries(st.R, st.Omega, acc(N + 1), vdot.head<3>(), node(N + 1), 0, Ke, Ce);
  // Elastic stiffness of each element (q_1 fixed): +K on (a, a), (a+1, a+1), -K across.
  const double mu = p.mu, EA = p.EA, l = mech_.element_length(st.s);
  const Mat3 I = Mat3::Identity();
  for (int a = 1; a <= N; ++a) {
    const Vec3 x = st.q[a] - st.q[a - 1];
    const double len = x.norm();
    const Mat3 K = EA * ((1.0 / l - 1.0 / len) * I + x * x.transpose() / (len * len * len));
    put(Ke, node(a + 1), node(a + 1), K);
    if (a >= 2) {
      put(Ke, node(a), node(a), K);
      put(Ke, node(a), node(a + 1), -K);
      put(Ke, node(a + 1), node(a), -K);
    }
  }
  if (!free_reel()) return;

  const int E = 3 + 3 * N;  // the reel's rate index (s in K, sdot in C and M)
  const double sd = st.sdot, sdd = x_(3 * N + 3), inv6N = 1.0 / (6.0 * N);
  const double c_prime = mu - mu * mech_.m3_sum() / N;
  // M: the border and the corner.
  const Eigen::VectorXd& bc = std::as_const(A).border_column();
  for (int j = 2; j <= N + 1; ++j) {
    put_column(Me, node(j), E, bc.segment<3>(3 * (j - 2)));
    put_row(Me, E, node(j), bc.segment<3>(3 * (j - 2)));  // the border row equals the column
  }
  Me.emplace_back(E, E, std::as_const(A).corner());
  // Node rows.
  for (int j = 2; j <= N + 1; ++j) {
    const int row = node(j);
    const bool inner = j <= N;
    const Vec3 v_prev = st.v[j - 2], v_cur = st.v[j - 1], v_next = inner ? st.v[j] : Vec3::Zero();
    if (j >= 3) put_diagonal(Ke, row, node(j - 1), mu * mech_.c23(j - 1) * sdd);
    put_diagonal(Ke, row, node(j), (-mu * mech_.c23(j - 1) + (inner ? mu * mech_.c31(j) : 0.0)) * sdd);
    if (inner) put_diagonal(Ke, row, node(j + 1), -mu * mech_.c31(j) * sdd);
    const double diag = inner ? 4.0 : 2.0;
    put_column(Ke, row, E, -mu * inv6N * (acc(j - 1) + diag * acc(j) + (inner ? acc(j + 1) : Vec3::Zero())));
    const double alpha = inv6N - mech_.c31(j - 1) - mech_.c23(j - 1);
    const double beta = inner ? inv6N + mech_.c23(j) + mech_.c31(j) : 0.0;
    if (j >= 3) put_diagonal(Ce, row, node(j - 1), -mu * sd * alpha);
    put_diagonal(Ce, row, node(j), -mu * sd * diag * inv6N);
    if (inner) put_diagonal(Ce, row, node(j + 1), -mu * sd * beta);
    put_column(Ce, row, E, -mu * (alpha * v_prev + diag * inv6N * v_cur + beta * v_next));
  }
  for (int a = 1; a <= N; ++a) {  // d(-h)/ds of the potential part
    const Vec3 x = st.q[a] - st.q[a - 1];
    const Vec3 dF = EA * x / (N * l * l), dg = 0.5 * mu * p.g / N * e3;
    if (a >= 2) put_column(Ke, node(a), E, dg - dF);
    put_column(Ke, node(a + 1), E, dg + dF);
  }
  // Reel row.
  const double eps = mech_.guide_way_strain(st), q2 = st.q[1].norm();
  const double carnot_scale = mu * sd * sd + EA;
  const double dQ_ds = -carnot_scale * eps * q2 / (N * l * l);
  const Vec3 dQ_dq2 = -carnot_scale * eps / (q2 * l) * st.q[1];
  const double dQ_dsd = -mu * sd * eps * eps;
  for (int k = 2; k <= N + 1; ++k) {
    const bool inner = k <= N;
    const Vec3 v_prev = st.v[k - 2], v_cur = st.v[k - 1], v_next = inner ? st.v[k] : Vec3::Zero();
    Vec3 dq = -mu * (mech_.c23(k - 1) * acc(k) + mech_.c31(k - 1) * acc(k - 1));
    if (inner) dq += mu * (mech_.c23(k) * acc(k + 1) + mech_.c31(k) * acc(k));
    dq += 0.5 * mu * p.g / N * (inner ? 2.0 : 1.0) * e3 + EA / (N * l * l) * (st.q[k - 1] - st.q[k - 2]);
    if (inner) dq -= EA / (N * l * l) * (st.q[k] - st.q[k - 1]);
    if (k == 2) dq -= dQ_dq2;
    put_row(Ke, E, node(k), dq);
    Vec3 dv = mu * inv6N * (v_prev + 2.0 * v_cur);
    dv += mu * (mech_.c23(k - 1) * (v_prev - 2.0 * v_cur) - mech_.c31(k - 1) * v_prev);
    if (inner) {
      dv += mu * inv6N * (2.0 * v_cur + v_next);
      dv += mu * (mech_.c23(k) * v_next + mech_.c31(k) * (2.0 * v_cur - v_next));
    }
    put_row(Ce, E, node(k), dv);
  }
  double d_ds = c_prime * sdd - dQ_ds + mu * p.g * std::cos((st.s - p.b) / p.d);
  for (int a = 1; a <= N; ++a) d_ds += EA * (st.q[a] - st.q[a - 1]).squaredNorm() / (double(N) * N * l * l * l);
  Ke.emplace_back(E, E, d_ds);
  Ce.emplace_back(E, E, -dQ_dsd + c_prime * sd);
}

}  // namespace tb::reel_pendulum
