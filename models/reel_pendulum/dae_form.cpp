// Model B as a Baumgarte-stabilised index-1 DAE in natural coordinates (SPEC "Formulations";
// seed 004 §2 "Modelling the Rotation Dynamics", §3 "Baumgarte Stabilisation").
//
// The string and the reel are the semi-discrete system of Mechanics, unchanged: the nodes
// q_2..q_{N+1} and s_p with the configuration-dependent string-and-reel mass matrix
// A(s, q) (block-tridiagonal, element mass mu l, l = (L - s)/N, bordered by s through M23, M31;
// Mechanics::assemble_string_reel_mass_matrix) and the right-hand sides h(s, sdot, q, v) of its
// Euler-Lagrange equations (Mechanics::string_reel_forces: -dV/dq, the velocity terms of A,
// and on s the Carnot and control forces Q + u/d, dT/ds - dV/ds and the momentum rates). The
// body is the free rigid body of dae::AttachedBody tied to q_{N+1} (C = q_{N+1} - (x_c - R rho_c);
// its rows, lambda, the Baumgarte and orthonormality terms live there). Residual rows:
//   q_j:          q_j' - v_j
//   v_j:          [A (v', sdot')]_j - h_j  [+ lambda for j = N+1]          j = 2..N+1
//   s:            s' - sdot                                               (free reel only)
//   sdot:         [A (v', sdot')]_s - h_s                                 (free reel only)
//   carnot_work:  W_c' - Q sdot       control_work: W_u' - (u/d) sdot    (free reel only)
// With the reel locked, s = s_p0 and sdot = 0 are parameters (Mechanics drops the reel
// equation and the border), so the state is Model A's shape.
//
// The reel coordinate couples to every node (the border of A, and the reel row's sums over
// elements), so with a free reel dF/dy + cj dF/dy' is a band matrix plus a dense border: its
// half-bandwidths are the size of the system. IDA's default KLU takes such a band-plus-border
// matrix in its sparse form, with a fill-reducing ordering (measured on B_reel_deployment, 5 s:
// 1.6 s against 5.6 s for the dense LU, cases/README.md "IDA on Model C" section 8); with
// sparse = 0 IDA falls back to its dense LU (O(N^3) per factorisation; n = 6N + 25), as its band solver cannot take
// the border. The model's own ODE form solves the bordered system in O(N)
// (numerics/bordered_block_tridiagonal.hpp). With the reel locked the
// band is Model A's (14).
//
// The Jacobian of h is derived below term by term from Mechanics::string_reel_forces; the
// tests check it against central differences of the residual.

#include <cmath>

#include "models/reel_pendulum/forms.hpp"

namespace tb::reel_pendulum {

using dae::add_block;
using dae::add_diagonal;
using Triplet = Eigen::Triplet<double>;

namespace {
const Vec3 e3 = Vec3::UnitZ();
}

DaeForm::DaeForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {
  body_.M = p.M;
  body_.g = p.g;
  body_.rho_c = p.rho_c;
  body_.J_cm = dae::inertia_about_centre_of_mass(p.M, p.rho_c, p.J);
  body_.end_node = node_offset(p.N + 1);
  body_.body = body_offset();
  state_.q.assign(p.N + 1, Vec3::Zero());
  state_.v.assign(p.N + 1, Vec3::Zero());
}

// Locked: Model A's band. Free: the reel columns (s, sdot at reel_offset) are reached from the
// first node's v rows (row 3), and the reel and Carnot rows reach q_2 (column 0).
int DaeForm::lower_bandwidth() const { return free_reel() ? reel_offset() + 2 : 14; }
int DaeForm::upper_bandwidth() const { return free_reel() ? reel_offset() + 1 - 3 : 14; }

Eigen::VectorXd DaeForm::differential_components() const {
  Eigen::VectorXd id = Eigen::VectorXd::Ones(state_size());
  id.segment<3>(body_.lambda()).setZero();
  return id;
}

void DaeForm::load(const Eigen::VectorXd& y) const {
  const int N = mech_.params().N;
  State& s = state_;
  s.s = free_reel() ? y(reel_offset()) : ic_.s0;
  s.sdot = free_reel() ? y(reel_offset() + 1) : 0.0;
  for (int j = 2; j <= N + 1; ++j) {
    s.q[j - 1] = y.segment<3>(node_offset(j));
    s.v[j - 1] = y.segment<3>(node_offset(j) + 3);
  }
}

Eigen::VectorXd DaeForm::initial_state() const { return consistent_initial_state(BaumgarteParameters{}); }

// The index-1 system at t0 is linear in (v', sdot', w', Omega', lambda); with the body on the
// string's end (C = C' = 0) it is the constrained form of the ODE's equations of motion, so
// Mechanics::accelerations (one O(N) bordered solve) gives the node accelerations, sddot and
// Omega', and the body's entries follow (dae::AttachedBody::initial_values). The tests check
// F(t0, y0, y0') = 0 to round-off.
void DaeForm::initial_values(const BaumgarteParameters& b, Eigen::VectorXd& y, Eigen::VectorXd& yp) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  const State s = mech_.initial_state(ic_);
  Eigen::VectorXd acc;
  mech_.accelerations(s, acc);
  y = Eigen::VectorXd::Zero(state_size());
  yp = Eigen::VectorXd::Zero(state_size());
  for (int j = 2; j <= N + 1; ++j) {
    y.segment<3>(node_offset(j)) = s.q[j - 1];
    y.segment<3>(node_offset(j) + 3) = s.v[j - 1];
    yp.segment<3>(node_offset(j)) = s.v[j - 1];
    yp.segment<3>(node_offset(j) + 3) = acc.segment<3>(3 * (j - 2));
  }
  body_.initial_values(s.q[N], s.v[N], acc.segment<3>(3 * (N - 1)), s.R, s.Omega, acc.segment<3>(3 * N), b, y, yp);
  if (free_reel()) {
    const int E = reel_offset();
    y(E) = s.s;
    y(E + 1) = s.sdot;
    y(E + 2) = s.carnot_work;
    y(E + 3) = s.control_work;
    yp(E) = s.sdot;
    yp(E + 1) = acc(3 * N + 3);
    yp(E + 2) = mech_.carnot_force(s) * s.sdot;
    yp(E + 3) = p.u / p.d * s.sdot;
  }
}

Eigen::VectorXd DaeForm::consistent_initial_state(const BaumgarteParameters& b) const {
  Eigen::VectorXd y, yp;
  initial_values(b, y, yp);
  return y;
}

Eigen::VectorXd DaeForm::consistent_initial_derivative(const BaumgarteParameters& b) const {
  Eigen::VectorXd y, yp;
  initial_values(b, y, yp);
  return yp;
}

void DaeForm::residual(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                       Eigen::VectorXd& F) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  const int E = reel_offset();
  F.resize(state_size());
  load(y);
  mech_.string_reel_forces(state_, h_);
  mech_.assemble_string_reel_mass_matrix(state_, mass_);
  // z = (v_2'..v_{N+1}', sdot'); A z is the string-and-reel momentum rate at fixed A.
  z_.resize(3 * N + 1);
  for (int j = 2; j <= N + 1; ++j) z_.segment<3>(3 * (j - 2)) = yp.segment<3>(node_offset(j) + 3);
  z_(3 * N) = free_reel() ? yp(E + 1) : 0.0;
  const Eigen::VectorXd Az = mass_.multiply(z_);
  for (int j = 2; j <= N + 1; ++j) {
    const int o = node_offset(j);
    F.segment<3>(o) = yp.segment<3>(o) - y.segment<3>(o + 3);
    F.segment<3>(o + 3) = Az.segment<3>(3 * (j - 2)) - h_.segment<3>(3 * (j - 2));
  }
  body_.residual(y, yp, b, F);
  if (free_reel()) {
    const double sd = state_.sdot;
    F(E) = yp(E) - sd;
    F(E + 1) = Az(3 * N) - h_(3 * N);
    F(E + 2) = yp(E + 2) - mech_.carnot_force(state_) * sd;  // Carnot power (21)
    F(E + 3) = yp(E + 3) - p.u / p.d * sd;                   // control power
  }
}

// dF/dy + cj dF/dy'. Notation as in Mechanics: l = (L - s)/N (dl/ds = -1/N), element a joins
// q_a and q_{a+1}, x_a = q_{a+1} - q_a, tension F_a = EA (1/l - 1/|x_a|) x_a, e_a = q_a - q_{a+1},
// border b_j = mu c23(j-1) e_{j-1} + mu c31(j) e_j, corner c(s) = mu s + kappa_d + mu l sum m3.
void DaeForm::jacobian(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                       const BaumgarteParameters& b, std::vector<Triplet>& out) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  const int E = reel_offset();
  const bool free = free_reel();
  out.clear();
  out.reserve(std::size_t(free ? 130 * N + 400 : 66 * N + 300));
  load(y);
  const State& st = state_;
  const double mu = p.mu, EA = p.EA, l = mech_.element_length(st.s), sd = st.sdot;
  const double sdd = free ? yp(E + 1) : 0.0;
  const Mat3 I = Mat3::Identity();
  auto v_dot = [&](int j) -> Vec3 { return j >= 2 ? Vec3(yp.segment<3>(node_offset(j) + 3)) : Vec3::Zero(); };
  auto add_vec = [&](int row, int col, const Vec3& v) {  // a column vector into rows row..row+2
    for (int i = 0; i < 3; ++i)
      if (v(i) != 0.0) out.emplace_back(row + i, col, v(i));
  };
  auto add_row = [&](int row, int col, const Vec3& v) {  // a row vector into columns col..col+2
    for (int i = 0; i < 3; ++i)
      if (v(i) != 0.0) out.emplace_back(row, col + i, v(i));
  };

  // Kinematic rows and the string's mass (mu l/6 (1 4 1), mu l/3 on the end node) times cj.
  for (int j = 2; j <= N + 1; ++j) {
    const int o = node_offset(j);
    add_diagonal(out, o, o, cj);
    add_diagonal(out, o, o + 3, -1.0);
    add_diagonal(out, o + 3, o + 3, cj * mu * l * (j <= N ? 4.0 / 6.0 : 1.0 / 3.0));
    if (j >= 3) add_diagonal(out, o + 3, o - 3, cj * mu * l / 6.0);
    if (j <= N) add_diagonal(out, o + 3, o + 9, cj * mu * l / 6.0);
  }
  // -d(-dV/dq)/dq: element stiffness K_a = EA [(1/l - 1/|x|) I + x x^T/|x|^3], placed as in
  // Model A (+K on (a,a), (a+1,a+1), -K on (a,a+1), (a+1,a); q_1 is fixed).
  for (int a = 1; a <= N; ++a) {
    const Vec3 x = st.q[a] - st.q[a - 1];
    const double len = x.norm();
    const Mat3 K = EA * ((1.0 / l - 1.0 / len) * I + x * x.transpose() / (len * len * len));
    const int row_b = node_offset(a + 1) + 3, col_b = node_offset(a + 1);
    add_block(out, row_b, col_b, K);
    if (a >= 2) {
      const int row_a = node_offset(a) + 3, col_a = node_offset(a);
      add_block(out, row_a, col_a, K);
      add_block(out, row_a, col_b, -K);
      add_block(out, row_b, col_a, -K);
    }
  }
  body_.jacobian(y, yp, cj, b, out);
  if (!free) return;

  const double c_prime = mu - mu * mech_.m3_sum() / N;  // dc/ds
  const double corner = mu * st.s + p.kappa_d + mu * l * mech_.m3_sum();
  const double inv6N = 1.0 / (6.0 * N);
  // Node rows, reel terms.
  for (int j = 2; j <= N + 1; ++j) {
    const int row = node_offset(j) + 3;
    const bool inner = j <= N;
    const Vec3 q_prev = st.q[j - 2], q_cur = st.q[j - 1], q_next = inner ? st.q[j] : Vec3::Zero();
    const Vec3 v_prev = st.v[j - 2], v_cur = st.v[j - 1], v_next = inner ? st.v[j] : Vec3::Zero();
    // cj b_j in the sdot' column; d(b_j sddot)/dq: b_j is linear in q_{j-1}, q_j, q_{j+1}.
    Vec3 bj = mu * mech_.c23(j - 1) * (q_prev - q_cur);
    if (inner) bj += mu * mech_.c31(j) * (q_cur - q_next);
    add_vec(row, E + 1, cj * bj);
    if (j >= 3) add_diagonal(out, row, node_offset(j - 1), mu * mech_.c23(j - 1) * sdd);
    add_diagonal(out, row, node_offset(j), (-mu * mech_.c23(j - 1) + (inner ? mu * mech_.c31(j) : 0.0)) * sdd);
    if (inner) add_diagonal(out, row, node_offset(j + 1), -mu * mech_.c31(j) * sdd);
    // d(A v')/ds: the string mass scales with l, dl/ds = -1/N.
    const double diag = inner ? 4.0 : 2.0;
    add_vec(row, E, -mu * inv6N * (v_dot(j - 1) + diag * v_dot(j) + (inner ? v_dot(j + 1) : Vec3::Zero())));
    // Velocity terms of h_j (string_reel_forces), collected per node:
    //   P_j = mu sdot [alpha_j v_{j-1} + diag/(6N) v_j + beta_j v_{j+1}],
    //   alpha_j = 1/(6N) - c31(j-1) - c23(j-1),  beta_j = 1/(6N) + c23(j) + c31(j)
    // (the c23(j-1), c31(j) terms on v_j cancel between dT/dq and the border rate).
    const double alpha = inv6N - mech_.c31(j - 1) - mech_.c23(j - 1);
    const double beta = inner ? inv6N + mech_.c23(j) + mech_.c31(j) : 0.0;
    if (j >= 3) add_diagonal(out, row, node_offset(j - 1) + 3, -mu * sd * alpha);
    add_diagonal(out, row, node_offset(j) + 3, -mu * sd * diag * inv6N);
    if (inner) add_diagonal(out, row, node_offset(j + 1) + 3, -mu * sd * beta);
    add_vec(row, E + 1, -mu * (alpha * v_prev + diag * inv6N * v_cur + beta * v_next));
  }
  // d(-h)/ds of the potential part: -dV/dq at node a is 1/2 mu g l e3 + F_a, at node a+1
  // 1/2 mu g l e3 - F_a; d/ds: gravity -1/2 mu g/N e3, dF_a/ds = EA x/(N l^2).
  for (int a = 1; a <= N; ++a) {
    const Vec3 x = st.q[a] - st.q[a - 1];
    const Vec3 dF = EA * x / (N * l * l);
    const Vec3 dg = 0.5 * mu * p.g / N * e3;
    if (a >= 2) add_vec(node_offset(a) + 3, E, dg - dF);
    add_vec(node_offset(a + 1) + 3, E, dg + dF);
  }

  // Reel row: sum_j b_j . v_j' + c(s) sddot - h_s.
  const int S = E + 1;
  const double eps = mech_.guide_way_strain(st);
  const double q2 = st.q[1].norm();
  const double carnot_scale = mu * sd * sd + EA;
  const double dQ_ds = -carnot_scale * eps * q2 / (N * l * l);  // eps = |q_2|/l - 1
  const Vec3 dQ_dq2 = -carnot_scale * eps / (q2 * l) * st.q[1];
  const double dQ_dsd = -mu * sd * eps * eps;
  const double Q = mech_.carnot_force(st);
  add_diagonal(out, S, S, cj * corner, 1);
  for (int k = 2; k <= N + 1; ++k) {
    const bool inner = k <= N;
    const Vec3 v_prev = st.v[k - 2], v_cur = st.v[k - 1], v_next = inner ? st.v[k] : Vec3::Zero();
    // cj b_k^T in the v_k' columns.
    Vec3 bk = mu * mech_.c23(k - 1) * (st.q[k - 2] - st.q[k - 1]);
    if (inner) bk += mu * mech_.c31(k) * (st.q[k - 1] - st.q[k]);
    add_row(S, node_offset(k) + 3, cj * bk);
    // d/dq_k of sum_a mu (c23(a) e_a . v_{a+1}' + c31(a) e_a . v_a'): e_k = q_k - q_{k+1} (+),
    // e_{k-1} = q_{k-1} - q_k (-).
    Vec3 dq = -mu * (mech_.c23(k - 1) * v_dot(k) + mech_.c31(k - 1) * v_dot(k - 1));
    if (inner) dq += mu * (mech_.c23(k) * v_dot(k + 1) + mech_.c31(k) * v_dot(k));
    // -h_s contains +dV/ds, whose q-gradient is mu g/(2N) e3 per element touching q_k plus
    // EA/(2N) d|x|^2/dq / l^2: +EA/N x_{k-1}/l^2 (x_{k-1} = q_k - q_{k-1}), -EA/N x_k/l^2.
    dq += 0.5 * mu * p.g / N * (inner ? 2.0 : 1.0) * e3 + EA / (N * l * l) * (st.q[k - 1] - st.q[k - 2]);
    if (inner) dq -= EA / (N * l * l) * (st.q[k] - st.q[k - 1]);
    if (k == 2) dq -= dQ_dq2;  // -dQ/dq_2
    add_row(S, node_offset(k), dq);
    // -dh_s/dv_k = -d(dT/ds)/dv_k + d(coupling_rate)/dv_k:
    //   dT/ds contains -(mu/(6N)) (|v_a|^2 + v_a.v_b + |v_b|^2) per element;
    //   coupling_rate = sum_a mu (c23(a) (v_a - v_b).v_b + c31(a) (v_a - v_b).v_a).
    Vec3 dv = mu * inv6N * (v_prev + 2.0 * v_cur);
    dv += mu * (mech_.c23(k - 1) * (v_prev - 2.0 * v_cur) - mech_.c31(k - 1) * v_prev);
    if (inner) {
      dv += mu * inv6N * (2.0 * v_cur + v_next);
      dv += mu * (mech_.c23(k) * v_next + mech_.c31(k) * (2.0 * v_cur - v_next));
    }
    add_row(S, node_offset(k) + 3, dv);
  }
  // d/ds: c'(s) sddot - dQ/ds + d(dV/ds)/ds, with d(dV/ds)/ds = mu g cos((s - b)/d) (reel) +
  // sum_a EA |x_a|^2/(N^2 l^3) (strain energy EA (|x| - l)^2/(2l)).
  double d_ds = c_prime * sdd - dQ_ds + mu * p.g * std::cos((st.s - p.b) / p.d);
  for (int a = 1; a <= N; ++a) d_ds += EA * (st.q[a] - st.q[a - 1]).squaredNorm() / (double(N) * N * l * l * l);
  out.emplace_back(S, E, d_ds);
  // d/dsdot: -(dQ/dsdot + d(dT/ds)/dsdot - 2 c' sdot) = -dQ/dsdot - c' sdot + 2 c' sdot.
  out.emplace_back(S, S, -dQ_dsd + c_prime * sd);
  // s row: s' - sdot.
  out.emplace_back(E, E, cj);
  out.emplace_back(E, S, -1.0);
  // Work rows: W_c' - Q sdot, W_u' - (u/d) sdot.
  out.emplace_back(E + 2, E + 2, cj);
  out.emplace_back(E + 2, S, -(Q + sd * dQ_dsd));
  out.emplace_back(E + 2, E, -sd * dQ_ds);
  add_row(E + 2, node_offset(2), -sd * dQ_dq2);
  out.emplace_back(E + 3, E + 3, cj);
  out.emplace_back(E + 3, S, -p.u / p.d);
}

State DaeForm::to_physical(const Eigen::VectorXd& y) const {
  const int N = mech_.params().N;
  State s;
  s.q.assign(N + 1, Vec3::Zero());
  s.v.assign(N + 1, Vec3::Zero());
  for (int j = 2; j <= N; ++j) {
    s.q[j - 1] = y.segment<3>(node_offset(j));
    s.v[j - 1] = y.segment<3>(node_offset(j) + 3);
  }
  // The body's attachment point (the string's end node up to the drift C, which observe() reports).
  s.q[N] = body_.attachment_position(y);
  s.v[N] = body_.attachment_velocity(y);
  s.R = body_.attitude(y);
  s.Omega = body_.angular_velocity(y);
  const int E = reel_offset();
  s.s = free_reel() ? y(E) : ic_.s0;
  s.sdot = free_reel() ? y(E + 1) : 0.0;
  s.carnot_work = free_reel() ? y(E + 2) : 0.0;
  s.control_work = free_reel() ? y(E + 3) : 0.0;
  return s;
}

Eigen::VectorXd DaeForm::physical_state(const Eigen::VectorXd& y) const { return mech_.pack(to_physical(y)); }

Observation DaeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  Observation o = mech_.observe(to_physical(y));
  o.constraint_err = body_.constraint_error(y);
  o.constraint_rate_err = body_.constraint_rate_error(y);
  return o;
}

}  // namespace tb::reel_pendulum
