// Derivation of each term below from Mechanics::assemble_string_reel_mass_matrix and
// Mechanics::string_reel_forces (notation in the header).

#include "models/reel_pendulum/string_reel_tangents.hpp"
#include "mechanics/attached_body_dae.hpp"  // add_block, add_diagonal
#include "numerics/lie_group.hpp"  // e3

#include <cmath>

namespace tb::reel_pendulum {

namespace {

using dae::add_block;     // the nonzeros of a 3x3 block
using dae::add_diagonal;  // and of a diagonal (mechanics/attached_body_dae.hpp)
void add_column(std::vector<Eigen::Triplet<double>>& out, int row, int col, const Vec3& v) {  // rows row..row+2
  for (int i = 0; i < 3; ++i)
    if (v(i) != 0.0) out.emplace_back(row + i, col, v(i));
}
void add_row(std::vector<Eigen::Triplet<double>>& out, int row, int col, const Vec3& v) {  // columns col..col+2
  for (int i = 0; i < 3; ++i)
    if (v(i) != 0.0) out.emplace_back(row, col + i, v(i));
}
int node(int j) { return 3 * (j - 2); }  // node j's index in the string-and-reel space

}  // namespace

CarnotGradient StringReelTangents::carnot_gradient(const State& st) const {
  const Parameters& p = mech_.params();
  const double l = mech_.element_length(st.s), sd = st.sdot;
  const double eps = mech_.guide_way_strain(st);  // |q_2|/l - 1
  const double q2 = st.q[1].norm();
  const double scale = p.mu * sd * sd + p.EA;
  CarnotGradient g;
  // A slack tension-only element at the guide way: Q = 0 nearby on that side (Mechanics::carnot_force).
  if (element_slack_length(l, q2, p.tension_only)) return g;
  g.ds = -scale * eps * q2 / (p.N * l * l);  // d eps/ds = |q_2|/(N l^2)
  g.dq2 = -scale * eps / (q2 * l) * st.q[1];
  g.dsdot = -p.mu * sd * eps * eps;
  return g;
}

// A(s, q) is affine in (s, q) (element mass mu l, border linear in the nodes, corner affine in
// s), so this derivative does not depend on the state: (A(x + dx) - A(x)) z is it applied to dx.
void StringReelTangents::mass_times_jacobian(const State& /*st*/, const Eigen::VectorXd& z,
                                             std::vector<Triplet>& out) const {
  const Parameters& p = mech_.params();
  if (p.reel_locked) return;
  const int N = p.N, S = reel();
  const double mu = p.mu, sdd = z(S), inv6N = 1.0 / (6.0 * N);
  auto zdot = [&](int j) -> Vec3 { return j >= 2 && j <= N + 1 ? Vec3(z.segment<3>(node(j))) : Vec3::Zero(); };
  for (int j = 2; j <= N + 1; ++j) {
    const int row = node(j);
    const bool inner = j <= N;
    // b_j sddot: b_j is linear in q_{j-1}, q_j, q_{j+1}.
    if (j >= 3) add_diagonal(out, row, node(j - 1), mu * mech_.c23(j - 1) * sdd);
    add_diagonal(out, row, node(j), (-mu * mech_.c23(j - 1) + (inner ? mu * mech_.c31(j) : 0.0)) * sdd);
    if (inner) add_diagonal(out, row, node(j + 1), -mu * mech_.c31(j) * sdd);
    // The string mass mu l/6 (1 4 1) (mu l/3 on the end node) scales with l, dl/ds = -1/N.
    const double diag = inner ? 4.0 : 2.0;
    add_column(out, row, S, -mu * inv6N * (zdot(j - 1) + diag * zdot(j) + zdot(j + 1)));
  }
  // Reel row sum_k b_k . z_k + c(s) sddot: d/dq_k of sum_a mu (c23(a) e_a . z_{a+1} + c31(a) e_a . z_a),
  // e_k = q_k - q_{k+1} (+), e_{k-1} = q_{k-1} - q_k (-); d c/ds = mu - mu sum m3 / N.
  for (int k = 2; k <= N + 1; ++k) {
    Vec3 dq = -mu * (mech_.c23(k - 1) * zdot(k) + mech_.c31(k - 1) * zdot(k - 1));
    if (k <= N) dq += mu * (mech_.c23(k) * zdot(k + 1) + mech_.c31(k) * zdot(k));
    add_row(out, S, node(k), dq);
  }
  out.emplace_back(S, S, (mu - mu * mech_.m3_sum() / N) * sdd);
}

void StringReelTangents::force_jacobian(const State& st, std::vector<Triplet>& dh_dx,
                                        std::vector<Triplet>& dh_dxdot) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  const double mu = p.mu, EA = p.EA, l = mech_.element_length(st.s), sd = st.sdot;
  const Mat3 I = Mat3::Identity();
  // h = -dV/dq on the nodes: minus the element stiffness K_a = EA [(1/l - 1/|x|) I + x x^T/|x|^3],
  // placed as in Model A (-K on (a,a), (a+1,a+1), +K on (a,a+1), (a+1,a); q_1 is fixed).
  // A slack tension-only element (mechanics/elastic_element.hpp, u = l) has no strain energy: none
  // of its terms below (stiffness, dF/ds, its part of dV/ds) exist.
  auto slack = [&](int a) { return mech_.element_slack_at(l, st.q[a] - st.q[a - 1]); };
  for (int a = 1; a <= N; ++a) {
    if (slack(a)) continue;
    const Vec3 x = st.q[a] - st.q[a - 1];
    const double len = x.norm();
    const Mat3 K = EA * ((1.0 / l - 1.0 / len) * I + x * x.transpose() / (len * len * len));
    add_block(dh_dx, node(a + 1), node(a + 1), -K);
    if (a >= 2) {
      add_block(dh_dx, node(a), node(a), -K);
      add_block(dh_dx, node(a), node(a + 1), K);
      add_block(dh_dx, node(a + 1), node(a), K);
    }
  }
  if (p.reel_locked) return;

  const int S = reel();
  const double inv6N = 1.0 / (6.0 * N);
  const double c_prime = mu - mu * mech_.m3_sum() / N;  // dc/ds
  // Node rows: the velocity terms of h_j (string_reel_forces), collected per node:
  //   P_j = mu sdot [alpha_j v_{j-1} + diag/(6N) v_j + beta_j v_{j+1}],
  //   alpha_j = 1/(6N) - c31(j-1) - c23(j-1),  beta_j = 1/(6N) + c23(j) + c31(j)
  // (the c23(j-1), c31(j) terms on v_j cancel between dT/dq and the border rate).
  for (int j = 2; j <= N + 1; ++j) {
    const int row = node(j);
    const bool inner = j <= N;
    const Vec3 v_prev = st.v[j - 2], v_cur = st.v[j - 1], v_next = inner ? st.v[j] : Vec3::Zero();
    const double diag = inner ? 4.0 : 2.0;
    const double alpha = inv6N - mech_.c31(j - 1) - mech_.c23(j - 1);
    const double beta = inner ? inv6N + mech_.c23(j) + mech_.c31(j) : 0.0;
    if (j >= 3) add_diagonal(dh_dxdot, row, node(j - 1), mu * sd * alpha);
    add_diagonal(dh_dxdot, row, node(j), mu * sd * diag * inv6N);
    if (inner) add_diagonal(dh_dxdot, row, node(j + 1), mu * sd * beta);
    add_column(dh_dxdot, row, S, mu * (alpha * v_prev + diag * inv6N * v_cur + beta * v_next));
  }
  // d/ds of -dV/dq: -dV/dq at node a is 1/2 mu g l e3 + F_a, at node a+1 1/2 mu g l e3 - F_a;
  // d/ds: gravity -1/2 mu g/N e3, dF_a/ds = EA x/(N l^2).
  for (int a = 1; a <= N; ++a) {
    const Vec3 x = st.q[a] - st.q[a - 1];
    const Vec3 dF = slack(a) ? Vec3::Zero() : Vec3(EA * x / (N * l * l));
    const Vec3 dg = 0.5 * mu * p.g / N * e3;
    if (a >= 2) add_column(dh_dx, node(a), S, dF - dg);
    add_column(dh_dx, node(a + 1), S, -dg - dF);
  }

  // Reel row h_s = Q + u/d + dT/ds - dV/ds - c'(s) sdot^2 - coupling_rate.
  const CarnotGradient dQ = carnot_gradient(st);
  for (int k = 2; k <= N + 1; ++k) {
    const bool inner = k <= N;
    const Vec3 v_prev = st.v[k - 2], v_cur = st.v[k - 1], v_next = inner ? st.v[k] : Vec3::Zero();
    // -dV/ds contains, per element touching q_k, -mu g/(2N) e3 and -EA/(2N) d|x|^2/dq / l^2:
    // -EA/N x_{k-1}/l^2 (x_{k-1} = q_k - q_{k-1}), +EA/N x_k/l^2.
    Vec3 dq = -0.5 * mu * p.g / N * (inner ? 2.0 : 1.0) * e3;
    if (!slack(k - 1)) dq -= EA / (N * l * l) * (st.q[k - 1] - st.q[k - 2]);
    if (inner && !slack(k)) dq += EA / (N * l * l) * (st.q[k] - st.q[k - 1]);
    if (k == 2) dq += dQ.dq2;
    add_row(dh_dx, S, node(k), dq);
    // dh_s/dv_k = d(dT/ds)/dv_k - d(coupling_rate)/dv_k:
    //   dT/ds contains -(mu/(6N)) (|v_a|^2 + v_a.v_b + |v_b|^2) per element;
    //   coupling_rate = sum_a mu (c23(a) (v_a - v_b).v_b + c31(a) (v_a - v_b).v_a).
    Vec3 dv = mu * inv6N * (v_prev + 2.0 * v_cur);
    dv += mu * (mech_.c23(k - 1) * (v_prev - 2.0 * v_cur) - mech_.c31(k - 1) * v_prev);
    if (inner) {
      dv += mu * inv6N * (2.0 * v_cur + v_next);
      dv += mu * (mech_.c23(k) * v_next + mech_.c31(k) * (2.0 * v_cur - v_next));
    }
    add_row(dh_dxdot, S, node(k), -dv);
  }
  // d/ds: dQ/ds - d(dV/ds)/ds, with d(dV/ds)/ds = mu g cos((s - b)/d) (reel) +
  // sum_a EA |x_a|^2/(N^2 l^3) (strain energy EA (|x| - l)^2/(2l)).
  double d_ds = dQ.ds - mu * p.g * std::cos((st.s - p.b) / p.d);
  for (int a = 1; a <= N; ++a)
    if (!slack(a)) d_ds -= EA * (st.q[a] - st.q[a - 1]).squaredNorm() / (double(N) * N * l * l * l);
  dh_dx.emplace_back(S, S, d_ds);
  // d/dsdot: dQ/dsdot + d(dT/ds)/dsdot - 2 c' sdot = dQ/dsdot + c' sdot - 2 c' sdot.
  dh_dxdot.emplace_back(S, S, dQ.dsdot - c_prime * sd);
}

}  // namespace tb::reel_pendulum
