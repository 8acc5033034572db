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
// The Jacobian of A z and h is derived term by term in string_reel_tangents.cpp (shared with
// the constrained mechanical form); the tests check it against central differences of the
// residual.

#include <cmath>

#include "models/reel_pendulum/forms.hpp"
#include "models/reel_pendulum/string_reel_tangents.hpp"

namespace tb::reel_pendulum {

using dae::add_diagonal;
using Triplet = Eigen::Triplet<double>;

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

// dF/dy + cj dF/dy'. The v and reel rows are A(s, q) z - h(s, q, sdot, v) (z = the v' and sdot'
// entries of y'): cj A in the y' columns, and d(A z)/d(q, s) - dh/d(q, s), -dh/d(v, sdot) from the
// string-and-reel tangents shared with the other forms (string_reel_tangents.hpp: the derivation),
// placed from their index space (node j, reel) into this layout.
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
  const double mu = p.mu, l = mech_.element_length(st.s), sd = st.sdot;

  // Kinematic rows and the string's mass (mu l/6 (1 4 1), mu l/3 on the end node) times cj.
  for (int j = 2; j <= N + 1; ++j) {
    const int o = node_offset(j);
    add_diagonal(out, o, o, cj);
    add_diagonal(out, o, o + 3, -1.0);
    add_diagonal(out, o + 3, o + 3, cj * mu * l * (j <= N ? 4.0 / 6.0 : 1.0 / 3.0));
    if (j >= 3) add_diagonal(out, o + 3, o - 3, cj * mu * l / 6.0);
    if (j <= N) add_diagonal(out, o + 3, o + 9, cj * mu * l / 6.0);
  }
  // The string-and-reel index space -> this layout: node j's rows are its v rows, its position
  // columns q_j, its velocity columns v_j; the reel's row is sdot's, its columns s and sdot.
  const StringReelTangents tangents(mech_);
  const int R = tangents.reel();
  auto row_of = [&](int i) { return i < R ? node_offset(i / 3 + 2) + 3 + i % 3 : E + 1; };
  auto position_column = [&](int i) { return i < R ? node_offset(i / 3 + 2) + i % 3 : E; };
  auto velocity_column = [&](int i) { return i < R ? node_offset(i / 3 + 2) + 3 + i % 3 : E + 1; };
  tangent_x_.clear();
  tangent_v_.clear();
  tangents.force_jacobian(st, tangent_x_, tangent_v_);
  for (const Triplet& e : tangent_x_) out.emplace_back(row_of(e.row()), position_column(e.col()), -e.value());
  for (const Triplet& e : tangent_v_) out.emplace_back(row_of(e.row()), velocity_column(e.col()), -e.value());
  body_.jacobian(y, yp, cj, b, out);
  if (!free) return;

  z_.resize(3 * N + 1);
  for (int j = 2; j <= N + 1; ++j) z_.segment<3>(3 * (j - 2)) = yp.segment<3>(node_offset(j) + 3);
  z_(3 * N) = yp(E + 1);
  tangent_x_.clear();
  tangents.mass_times_jacobian(st, z_, tangent_x_);
  for (const Triplet& e : tangent_x_) out.emplace_back(row_of(e.row()), position_column(e.col()), e.value());
  // cj times the border b_j (column sdot' in node j's rows, row of the reel in v_j' columns) and
  // the corner c(s) = mu s + kappa_d + mu l sum m3.
  for (int j = 2; j <= N + 1; ++j) {
    Vec3 bj = mu * mech_.c23(j - 1) * (st.q[j - 2] - st.q[j - 1]);
    if (j <= N) bj += mu * mech_.c31(j) * (st.q[j - 1] - st.q[j]);
    for (int i = 0; i < 3; ++i) {
      if (bj(i) == 0.0) continue;
      out.emplace_back(node_offset(j) + 3 + i, E + 1, cj * bj(i));
      out.emplace_back(E + 1, node_offset(j) + 3 + i, cj * bj(i));
    }
  }
  out.emplace_back(E + 1, E + 1, cj * (mu * st.s + p.kappa_d + mu * l * mech_.m3_sum()));
  // s row: s' - sdot.
  out.emplace_back(E, E, cj);
  out.emplace_back(E, E + 1, -1.0);
  // Work rows: W_c' - Q sdot, W_u' - (u/d) sdot.
  const CarnotGradient dQ = tangents.carnot_gradient(st);
  const double Q = mech_.carnot_force(st);
  out.emplace_back(E + 2, E + 2, cj);
  out.emplace_back(E + 2, E + 1, -(Q + sd * dQ.dsdot));
  out.emplace_back(E + 2, E, -sd * dQ.ds);
  for (int i = 0; i < 3; ++i) out.emplace_back(E + 2, node_offset(2) + i, -sd * dQ.dq2(i));
  out.emplace_back(E + 3, E + 3, cj);
  out.emplace_back(E + 3, E + 1, -p.u / p.d);
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
