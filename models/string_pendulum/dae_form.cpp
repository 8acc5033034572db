// Model A as a Baumgarte-stabilised index-1 DAE in natural coordinates (SPEC "Formulations";
// seed 004 §2 "Modelling the Rotation Dynamics" and §3 "Baumgarte Stabilisation").
//
// The string nodes r_2..r_{N+1} with velocities v_a are exactly the FE model's (Mechanics:
// consistent mass matrix, elastic and gravity forces, shared rather than re-derived). The
// rigid body is a free body in natural coordinates tied to the string's end node r_{N+1} by
// C = r_{N+1} - (x_c - R rho_c) = 0; its rows, the multipliers, the Baumgarte-stabilised
// index-1 constraint C'' + 2p C' + p^2 C = 0 and the orthonormality correction are
// mechanics/attached_body_dae.* (shared with Model B). Euler-Lagrange with L = T - V - lambda^T C
// (seed 004 §1 "Constrained Pendulum", §2 "Finally! The equations of motion") gives the string
// rows
//   r_a:  r_a' - v_a = 0
//   v_a:  sum_b M_ab v_b' - f_a(r) [+ lambda for a = N+1] = 0       a = 2..N+1
// with M the string's own consistent mass (m/6 (1 4 1), m/3 on the end node: the body's mass is
// no longer lumped onto the end node, it is the body's) and f = -dV_string/dr
// (Mechanics::string_forces). Every row is linear in y'. The iteration matrix
// dF/dy + cj dF/dy' has, in (velocities, lambda), the shape [cj M + ..., G^T; cj G + ..., 0]: it is
// nonsingular for cj > 0 because the constraint gradient G has full rank (index 1).
//
// State order (forms.hpp): node by node along the string, then the body block (x_c, w, lambda,
// R, Omega). A node's rows reach its neighbours' columns (offsets up to 11); the lambda rows
// reach r_{N+1} (14 columns back) and Omega (14 forward); the Omega rows reach lambda (14
// back). So the half-bandwidths are 14 for every N and IDA's band solver is O(N).

#include "models/string_pendulum/forms.hpp"

namespace tb::string_pendulum {

using dae::add_block;
using dae::add_diagonal;
using Triplet = Eigen::Triplet<double>;

DaeForm::DaeForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {
  body_.M = p.M;
  body_.g = p.g;
  body_.rho_c = p.rho_c;
  body_.J_cm = dae::inertia_about_centre_of_mass(p.M, p.rho_c, p.J);
  body_.end_node = node_offset(p.N + 1);
  body_.body = body_offset();
  mech_.assemble_string_mass_matrix(string_mass_);
  r_.assign(p.N + 1, Vec3::Zero());
}

Eigen::VectorXd DaeForm::differential_components() const {
  Eigen::VectorXd id = Eigen::VectorXd::Ones(state_size());
  id.segment<3>(body_.lambda()).setZero();
  return id;
}

Eigen::VectorXd DaeForm::initial_state() const { return consistent_initial_state(BaumgarteParameters{}); }

// The index-1 system at t0 is linear in (v', w', Omega', lambda). With C = C' = 0 (the body is
// placed on the string's end) it is the constrained form of Model A's equations of motion, so
// the node accelerations and Omega' are Mechanics::accelerations (one O(N) block-tridiagonal
// solve), and the body's entries follow (AttachedBody::initial_values). The tests check
// F(t0, y0, y0') = 0 to round-off, which cross-checks this DAE (J about the centre of mass, the
// multiplier) against the ODE's equations (J about the attachment point).
void DaeForm::initial_values(const BaumgarteParameters& b, Eigen::VectorXd& y, Eigen::VectorXd& yp) const {
  const int N = mech_.params().N;
  const State s = mech_.initial_state(ic_);
  Eigen::VectorXd acc;
  mech_.accelerations(s, acc);
  y = Eigen::VectorXd::Zero(state_size());
  yp = Eigen::VectorXd::Zero(state_size());
  for (int a = 2; a <= N + 1; ++a) {
    y.segment<3>(node_offset(a)) = s.r[a - 1];
    y.segment<3>(node_offset(a) + 3) = s.v[a - 1];
    yp.segment<3>(node_offset(a)) = s.v[a - 1];
    yp.segment<3>(node_offset(a) + 3) = acc.segment<3>(3 * (a - 2));
  }
  body_.initial_values(s.r[N], s.v[N], acc.segment<3>(3 * (N - 1)), s.R, s.Omega, acc.segment<3>(3 * N), b, y, yp);
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
  const int N = mech_.params().N;
  F.resize(state_size());
  for (int a = 2; a <= N + 1; ++a) r_[a - 1] = y.segment<3>(node_offset(a));
  mech_.string_forces(r_, f_);
  for (int a = 2; a <= N + 1; ++a) {
    const int o = node_offset(a), i = a - 2;
    F.segment<3>(o) = yp.segment<3>(o) - y.segment<3>(o + 3);
    Vec3 Mv = string_mass_.diag(i) * yp.segment<3>(o + 3);
    if (i > 0) Mv += string_mass_.lower(i) * yp.segment<3>(o - 3);
    if (i + 1 < N) Mv += string_mass_.upper(i) * yp.segment<3>(o + 9);
    F.segment<3>(o + 3) = Mv - f_.segment<3>(3 * i);
  }
  body_.residual(y, yp, b, F);  // body rows, and + lambda on the end node
}

// dF/dy + cj dF/dy' of the rows above, then the body's.
void DaeForm::jacobian(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                       const BaumgarteParameters& b, std::vector<Triplet>& out) const {
  const int N = mech_.params().N;
  out.clear();
  out.reserve(std::size_t(66 * N + 300));
  for (int a = 2; a <= N + 1; ++a) r_[a - 1] = y.segment<3>(node_offset(a));
  for (int a = 2; a <= N + 1; ++a) {
    const int o = node_offset(a), i = a - 2;
    add_diagonal(out, o, o, cj);        // d(r_a' - v_a)/dr_a'
    add_diagonal(out, o, o + 3, -1.0);  // .../dv_a
    add_block(out, o + 3, o + 3, cj * string_mass_.diag(i));
    if (i > 0) add_block(out, o + 3, o - 3, cj * string_mass_.lower(i));
    if (i + 1 < N) add_block(out, o + 3, o + 9, cj * string_mass_.upper(i));
  }
  // -df/dr: element a (nodes a, a+1; F_a = F(r_{a+1} - r_a), stiffness K_a) enters f_a as +F_a
  // and f_{a+1} as -F_a, so the residual gets +K_a on (a,a), (a+1,a+1) and -K_a on (a,a+1),
  // (a+1,a). The pivot r_1 is fixed: no rows or columns.
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
  body_.jacobian(y, yp, cj, b, out);
}

State DaeForm::to_physical(const Eigen::VectorXd& y) const {
  const int N = mech_.params().N;
  State s;
  s.r.assign(N + 1, Vec3::Zero());
  s.v.assign(N + 1, Vec3::Zero());
  for (int a = 2; a <= N; ++a) {
    s.r[a - 1] = y.segment<3>(node_offset(a));
    s.v[a - 1] = y.segment<3>(node_offset(a) + 3);
  }
  // The body's attachment point (the string's end node up to the drift C, which observe() reports).
  s.r[N] = body_.attachment_position(y);
  s.v[N] = body_.attachment_velocity(y);
  s.R = body_.attitude(y);
  s.Omega = body_.angular_velocity(y);
  return s;
}

Eigen::VectorXd DaeForm::physical_state(const Eigen::VectorXd& y) const { return mech_.pack(to_physical(y)); }

// The model's observables (energy, pi3, orthogonality) of the physical state, plus the drift of
// the attachment constraint, which this formulation alone does not hold by construction.
Observation DaeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  Observation o = mech_.observe(to_physical(y));
  o.constraint_err = body_.constraint_error(y);
  o.constraint_rate_err = body_.constraint_rate_error(y);
  return o;
}

}  // namespace tb::string_pendulum
