// Model C as a Baumgarte-stabilised index-1 DAE in natural coordinates, for IDA (SPEC
// "Formulations"; seed 004 §1 "Pendulum in Cartesian Coordinates", §2 "What if they are
// coupled?", §3 "Baumgarte Stabilisation", §4 "Tether Models: full model").
//
// Coordinates. Each cable joint J_j^a (j = 0..n; j = 0 is the payload, shared by every cable;
// j = n is multirotor a's position) is a point in R^3 with its velocity V_j^a = J_j^a'. The
// kinetic energy is Model C's, T = 1/2 V^T M_J V + sum_a 1/2 Omega_a^T J_Q Omega_a, with the
// joint mass matrix M_J of mechanics.hpp: link i's mass m_i sits at (J_{i-1} + J_i)/2, which
// is the slides' "full model" of a tether (rigid links with mass) with the mass at the link
// centre as in seed 003, so this is the same mechanical system as the ODE and VI forms. The
// potential is linear, -phi . J (gravity of the lumped masses and the thrust at joint n).
// Each link is a holonomic constraint (seed 004 §4 "Constraints")
//   C_j^a = (|d_j|^2 - l^2)/2,   d_j = J_j - J_{j-1},
// with multiplier lambda_j^a in L = T - U - sum lambda C (seed 004 §1, Cartesian pendulum),
// so lambda_j = (tension of link j)/l > 0 for a taut link (dC/dJ_j = d_j = l q_j).
//
// Equations (F = 0), with A_j = V_j' (accelerations) and DV_j = V_j - V_{j-1}:
//   J_j' - V_j                                                          = 0   every joint
//   (M_J A)_0 - sum_a lambda_1^a d_1^a - phi_0                          = 0   payload
//   (M_J A)_j + lambda_j d_j - lambda_{j+1} d_{j+1} - phi_j             = 0   joint j >= 1 (lambda_{n+1} = 0)
//   d_j . (A_j - A_{j-1}) + |DV_j|^2 + 2p d_j . DV_j + p^2 C_j           = 0   link j (algebraic row)
//   J_Q Omega' - (J_Q Omega) x Omega                                     = 0   multirotor, torque-free
//   R' - R (hat(Omega) + Xi),  Xi = gamma/2 ((R^T R)^-1 - I)             = 0   multirotor attitude
// The link row is C'' + 2p C' + p^2 C = 0 (seed 004 §3: C'' = 0 of the index reduction, plus
// the "linear controller" with double eigenvalue -p), since C' = d . DV and C'' = d . DA +
// |DV|^2 — the slides' semi-implicit form (seed 004 §1) with the Baumgarte terms added. The
// attitude row is seed 004 §3 "What about the orthonormality condition?": with it,
// d/dt (R^T R - I) = -gamma (R^T R - I) + (skew terms), so orthonormality drift decays. The
// multirotor's rotation does not couple to the cable without the attachment offset (the thrust
// is an inertial force at X_Q = J_n and the torque is zero, SPEC "Model C"), so its block is the slides' §2 equations
// of motion with no constraint term: J Omega' + Omega x J Omega = 0.
// The attachment offset (mechanics.hpp): joint n stays the cable's top joint (the attachment
// point, with m_Q lumped in M_J as before) and the multirotor's rows become seed 000's attached
// body's (SPEC Model A's equations of motion, the same as ode_form.cpp's):
//   joint n: (M_J A)_n + ... - phi_n + m_Q R (Omega' x rho_c + Omega x (Omega x rho_c))   = 0
//   Omega:   J_A Omega' + m_Q rho_c x R^T A_n - (J_A Omega) x Omega - rho_c x R^T F_Q e3  = 0
// (J_A = J_Q without the offset, and the extra terms vanish). Omega' enters joint n's row and
// A_n the attitude's: still index 1, the KKT solve takes Omega' eliminated (Mechanics::top_block).
// Given (J, V, R, Omega), the rows in (A, lambda) are exactly the joint-coordinate KKT system
// that CableTreeKkt solves in O(m n), which makes this DAE index 1 while the links are not
// perpendicular to their constraint gradients (always: the gradient is the link itself).
//
// Ordering. y is ordered by joint index first and cable second:
//   [J_0, V_0 | for j = 1..n, for a = 0..m-1: lambda_j^a, J_j^a, V_j^a | for a: Omega_a, R_a]
// (blocks of 6, 7 each, then 12 per multirotor; F's rows in the same places). Joint j of cable
// a couples only to joints j - 1 and j + 1 of the same cable, which lie m blocks (7m entries)
// away, and the payload couples to every cable's joint 1, which are the m blocks right after
// it. So the Jacobian is banded with half-bandwidths ~7m whatever the number of cables
// (ordering cable after cable instead would put the payload ~7n(m-1) entries from the last
// cable's first joint and force a dense solve for m > 1). The exact bandwidths:
//   lower 7m + 3: row c of V_j^a reaches column c of J_{j-1}^a (the -lambda_j I of d_j; the
//                 payload's J_0 is reached by V_1^{m-1} the same way);
//   upper 7m: row c of V_j^a reaches column c of V_{j+1}^a (the cj M_J coupling; the payload's
//             V_0 reaches V_1^{m-1} the same way);
// and the multirotor blocks [Omega, R] are self-contained with (11, 8): R's rows reach Omega,
// and every entry of R through Xi (gamma > 0). For the paper's cases this gives (11, 8) of
// 88 unknowns (single) and (24, 21) of 147 (cooperative): IDA's band LU costs
// O(N ml (ml + mu)), about a twelfth (resp. a sixth) of a dense LU. (IDA's default is now KLU on
// the same triplets, which needs no bandwidths; they serve its band option, sparse = 0.)

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/multirotor_payload/forms.hpp"

namespace tb::multirotor_payload {

namespace {

using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

Mat3 read_rotation(const Eigen::VectorXd& y, int k) { return Eigen::Map<const RowMajor3>(y.data() + k); }

// Xi = gamma/2 ((R^T R)^-1 - I) (seed 004 §3).
Mat3 orthonormality_correction(const Mat3& R, double gamma) {
  return 0.5 * gamma * ((R.transpose() * R).inverse() - Mat3::Identity());
}

void add_block(std::vector<Eigen::Triplet<double>>& e, int row, int col, const Mat3& B) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) e.emplace_back(row + r, col + c, B(r, c));
}
void add_diagonal(std::vector<Eigen::Triplet<double>>& e, int row, int col, double v) {
  for (int r = 0; r < 3; ++r) e.emplace_back(row + r, col + r, v);
}
void add_column(std::vector<Eigen::Triplet<double>>& e, int row, int col, const Vec3& v) {
  for (int r = 0; r < 3; ++r) e.emplace_back(row + r, col, v(r));
}
void add_row(std::vector<Eigen::Triplet<double>>& e, int row, int col, const Vec3& v) {
  for (int c = 0; c < 3; ++c) e.emplace_back(row, col + c, v(c));
}

}  // namespace

DaeForm::DaeForm(const Parameters& p, const InitialCondition& ic)
    : mech_(p), ic_(ic), m_(p.multirotors), n_(p.links) {}

// With the offset, joint n of cable a (velocity row vn) and multirotor a's block (w = Omega, R)
// couple, w - vn = 7m + 5a - 4: row vn + s reaches R's entry (s, k) at w + 3 + 3s + k (upper
// 12m at a = m - 1, s = k = 2), the Omega rows reach every entry of R (upper 11) and A_n's
// first component from their third row (lower 12m - 7).
int DaeForm::lower_bandwidth() const {
  return mech_.attachment_offset() ? std::max({7 * m_ + 3, 11, 12 * m_ - 7}) : std::max(7 * m_ + 3, 11);
}
int DaeForm::upper_bandwidth() const {
  return mech_.attachment_offset() ? std::max({7 * m_, 11, 12 * m_}) : std::max(7 * m_, 8);
}

Eigen::VectorXd DaeForm::differential_components() const {
  Eigen::VectorXd id = Eigen::VectorXd::Ones(state_size());
  for (int a = 0; a < m_; ++a)
    for (int j = 1; j <= n_; ++j) id(multiplier_index(a, j)) = 0.0;
  return id;
}

Eigen::VectorXd DaeForm::from_physical(const State& s) const {
  const Joints joints = joints_of(mech_, s);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(state_size());
  y.segment<3>(0) = s.Xp;
  y.segment<3>(3) = s.Vp;
  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j) {
      y.segment<3>(joint_index(a, j)) = joints.J[a][j];
      y.segment<3>(velocity_index(a, j)) = joints.V[a][j];
    }
    Eigen::Map<RowMajor3>(y.data() + rotation_index(a)) = s.R[a];
    y.segment<3>(angular_velocity_index(a)) = s.Omega[a];
  }
  return y;
}

Joints DaeForm::joints(const Eigen::VectorXd& y) const {
  Joints out;
  out.J.assign(m_, std::vector<Vec3>(n_ + 1));
  out.V.assign(m_, std::vector<Vec3>(n_ + 1));
  for (int a = 0; a < m_; ++a)
    for (int j = 0; j <= n_; ++j) {
      out.J[a][j] = y.segment<3>(joint_index(a, j));
      out.V[a][j] = y.segment<3>(velocity_index(a, j));
    }
  return out;
}

State DaeForm::to_physical(const Eigen::VectorXd& y) const {
  State s;
  cable_state_from_joints(mech_, joints(y), s);
  s.R.resize(m_);
  s.Omega.resize(m_);
  for (int a = 0; a < m_; ++a) {
    s.R[a] = read_rotation(y, rotation_index(a));
    s.Omega[a] = y.segment<3>(angular_velocity_index(a));
  }
  return s;
}

Eigen::VectorXd DaeForm::physical_state(const Eigen::VectorXd& y) const {
  Eigen::VectorXd x;
  mech_.pack(to_physical(y), x);
  return x;
}

Observation DaeForm::observe(double, const Eigen::VectorXd& y) const {
  // Energies, momenta and extra columns by the same code as the other forms. Its
  // constraint_err, max | |q_i| - 1 | with q_i = d_i/l, is the relative link-length error
  // max | |J_i - J_{i-1}| - l | / l, the very quantity the ODE form reports for its
  // unnormalised q_i, so the forms' constraint columns compare directly.
  Observation o = mech_.observe(to_physical(y));
  // constraint_rate_err: the rate of the same quantity, |d/dt |d_i|| / l (natural_coordinates.hpp).
  o.constraint_rate_err = link_length_rate_error(mech_, joints(y));
  return o;
}

namespace {

// The index-1 system at one state y, for DaeForm::solve_index_one: what it reads of the state,
// the KKT factorisation and its two solutions (accelerations and multipliers, then their rates
// along the motion). An object so that the stages share these and the accessors J, V (of y) and
// A, lambda (of the first solution) without passing them.
struct IndexOneSystem {
  IndexOneSystem(const DaeForm& form, Eigen::VectorXd& y, const BaumgarteParameters& b, int m, int n,
                 const std::vector<std::vector<bool>>* released);
  void solve_accelerations();
  void solve_rates();
  Eigen::VectorXd write_multipliers_and_derivative();
  Vec3 J(int a, int j) const { return y.segment<3>(form.joint_index(a, j)); }
  Vec3 V(int a, int j) const { return y.segment<3>(form.velocity_index(a, j)); }
  Vec3 A(int a, int j) const {
    return j == 0 ? Vec3(sol.head<3>()) : Vec3(sol.segment<3>(CableTreeKkt::offset(n, a, j) + 1));
  }
  double lambda(int a, int j) const { return -sol(CableTreeKkt::offset(n, a, j)) / l; }
  bool is_released(int a, int j) const { return released && (*released)[size_t(a)][size_t(j - 1)]; }

  const DaeForm& form;
  const Mechanics& mech;
  Eigen::VectorXd& y;
  const BaumgarteParameters& b;
  const int m, n;
  // Issue 48: links gone slack (HybridDaeForm), whose multipliers are 0 and whose rows leave the system
  // (CableTreeKkt's released links); null: every link held.
  const std::vector<std::vector<bool>>* released;
  const double l = mech.params().link_length();
  const double p = b.p, p2 = b.p * b.p;
  // CableTreeKkt with u_j = t_j = d_j/l: its joint rows (M_J A)_j - tau_j u_j + tau_{j+1} u_{j+1}
  // = phi_j are ours with lambda_j = -tau_j/l, its link rows u_j . (A_j - A_{j-1}) = r_j ours
  // divided by l.
  std::vector<std::vector<Vec3>> u;
  // With the offset, Omega' is eliminated into joint n's row (header; Mechanics::top_block).
  const bool offset = mech.attachment_offset();
  const double mQ = mech.params().multirotor_mass;
  const Vec3& rho_c = mech.centre_offset();
  const Vec3 body_force = mech.body_force() * Vec3::UnitZ();
  const Mat3& JA = mech.attachment_inertia();
  std::vector<Mat3> top, Rs;
  std::vector<Vec3> Omegas, torque;
  CableTreeKkt kkt{mech};
  Eigen::VectorXd sol, rate;     // the two solutions, in CableTreeKkt's layout
  std::vector<Vec3> Omega_dots;  // with the offset: each multirotor's Omega', from the first solution
};

// Reads the links' directions u and each multirotor's R and Omega (with the offset, its top
// block and torque too).
IndexOneSystem::IndexOneSystem(const DaeForm& form, Eigen::VectorXd& y, const BaumgarteParameters& b, int m, int n,
                               const std::vector<std::vector<bool>>* released)
    : form(form), mech(form.mechanics()), y(y), b(b), m(m), n(n), released(released), u(m, std::vector<Vec3>(n)), top(m),
      Rs(m), Omegas(m), torque(m), Omega_dots(m) {
  for (int a = 0; a < m; ++a)
    for (int j = 1; j <= n; ++j) u[a][j - 1] = is_released(a, j) ? Vec3::Zero() : Vec3((J(a, j) - J(a, j - 1)) / l);
  for (int a = 0; a < m; ++a) {
    Rs[a] = read_rotation(y, form.rotation_index(a));
    Omegas[a] = y.segment<3>(form.angular_velocity_index(a));
    if (offset) {
      top[a] = mech.top_block(Rs[a]);
      torque[a] = (JA * Omegas[a]).cross(Omegas[a]) + rho_c.cross(Rs[a].transpose() * body_force);
    }
  }
}

// The accelerations A and multipliers lambda: the KKT matrix factored (kept for the rates) and solved.
void IndexOneSystem::solve_accelerations() {
  if (!kkt.factor(1.0, u, u, offset ? &top : nullptr, released))
    throw std::runtime_error("Model C DAE: singular index-1 system (a link of zero length?)");
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(kkt.size());
  rhs.head<3>() = mech.payload_joint_force();
  for (int a = 0; a < m; ++a)
    for (int j = 1; j <= n; ++j) {
      const Vec3 d = l * u[a][j - 1], dv = V(a, j) - V(a, j - 1);
      const double C = link_constraint(d, l);
      const int o = CableTreeKkt::offset(n, a, j);
      rhs(o) = is_released(a, j) ? 0.0 : -(dv.squaredNorm() + 2.0 * p * d.dot(dv) + p2 * C) / l;  // tau = 0 where released
      rhs.segment<3>(o + 1) = mech.joint_force(j);
    }
  if (offset)
    for (int a = 0; a < m; ++a)
      rhs.segment<3>(CableTreeKkt::offset(n, a, n) + 1) +=
          -mQ * (Rs[a] * Omegas[a].cross(Omegas[a].cross(rho_c))) + mech.top_rhs(Rs[a], torque[a]);
  kkt.solve(rhs, sol);
}

// The second solve, with the factorisation of solve_accelerations(): the multipliers' rates make
// IDA's first predictor exact to first order in them too (forms.hpp).
void IndexOneSystem::solve_rates() {
  // The rates (A', lambda') along the motion: the time derivative of the same system,
  //   M_J A' + G^T lambda' = -G'^T lambda,   G A' = r' - G' A,
  // with G' the constraint gradient with d_j replaced by DV_j, and r_j = -|DV|^2 - 2p d.DV - p^2 C:
  //   r_j' - DV_j . DA_j = -3 DV.DA - 2p (|DV|^2 + d.DA) - p^2 d.DV.
  // Same matrix, so one more solve with the factorisation above.
  Eigen::VectorXd rate_rhs = Eigen::VectorXd::Zero(kkt.size());
  for (int a = 0; a < m; ++a)
    for (int j = 1; j <= n; ++j) {
      const Vec3 d = l * u[a][j - 1], dv = V(a, j) - V(a, j - 1), da = A(a, j) - A(a, j - 1);
      const int o = CableTreeKkt::offset(n, a, j);
      if (is_released(a, j)) continue;  // tau' = 0, and its multiplier (0) adds nothing to the joint rows
      rate_rhs(o) = (-3.0 * dv.dot(da) - 2.0 * p * (dv.squaredNorm() + d.dot(da)) - p2 * d.dot(dv)) / l;
      // -(G'^T lambda): joint j gets -(lambda_j DV_j - lambda_{j+1} DV_{j+1}), the payload +lambda_1 DV_1.
      rate_rhs.segment<3>(o + 1) -= lambda(a, j) * dv;
      if (j > 1) rate_rhs.segment<3>(CableTreeKkt::offset(n, a, j - 1) + 1) += lambda(a, j) * dv;
      else rate_rhs.head<3>() += lambda(a, j) * dv;
    }
  // With the offset, the time derivative of joint n's and the attitude's rows (header), with
  // R' = R (hat(Omega) + Xi) the DAE's own and g(Omega) = Omega x (Omega x rho_c):
  //   joint n: ... + m_Q R (Omega'' x rho_c) = ... - m_Q R' (Omega' x rho_c + g) - m_Q R g'(Omega) Omega',
  //   attitude: J_A Omega'' + m_Q rho_c x R^T A_n' = b' - m_Q rho_c x R'^T A_n,
  //   b' = (J_A Omega') x Omega + (J_A Omega) x Omega' + rho_c x R'^T F_Q e3,
  // the same matrix: Omega'' eliminated as in the first solve.
  for (int a = 0; a < m; ++a) {
    if (!offset) break;
    const Mat3& R = Rs[a];
    const Vec3& W = Omegas[a];
    const Vec3 Wd = mech.rotational_solution(R, torque[a], A(a, n));
    Omega_dots[a] = Wd;
    const Mat3 Rdot = R * (so3::hat(W) + orthonormality_correction(R, b.gamma));
    const Vec3 g = W.cross(W.cross(rho_c));
    const Vec3 g_rate = W.dot(rho_c) * Wd + W * rho_c.dot(Wd) - 2.0 * rho_c * W.dot(Wd);
    const Vec3 b_rate = (JA * Wd).cross(W) + (JA * W).cross(Wd) + rho_c.cross(Rdot.transpose() * body_force) -
                        mQ * rho_c.cross(Rdot.transpose() * A(a, n));
    rate_rhs.segment<3>(CableTreeKkt::offset(n, a, n) + 1) +=
        -mQ * (Rdot * (Wd.cross(rho_c) + g)) - mQ * (R * g_rate) + mech.top_rhs(R, b_rate);
  }
  kkt.solve(rate_rhs, rate);
}

// The multipliers into y, and y' (velocities, accelerations, the multipliers' rates, Omega', R').
Eigen::VectorXd IndexOneSystem::write_multipliers_and_derivative() {
  Eigen::VectorXd yp = Eigen::VectorXd::Zero(form.state_size());
  yp.segment<3>(0) = V(0, 0);
  yp.segment<3>(3) = A(0, 0);
  for (int a = 0; a < m; ++a) {
    for (int j = 1; j <= n; ++j) {
      const int o = CableTreeKkt::offset(n, a, j);
      y(form.multiplier_index(a, j)) = lambda(a, j);
      yp(form.multiplier_index(a, j)) = -rate(o) / l;
      yp.segment<3>(form.joint_index(a, j)) = V(a, j);
      yp.segment<3>(form.velocity_index(a, j)) = A(a, j);
    }
    const Mat3 R = read_rotation(y, form.rotation_index(a));
    const Vec3 Omega = y.segment<3>(form.angular_velocity_index(a));
    const Mat3& JQ = mech.params().J_Q;
    yp.segment<3>(form.angular_velocity_index(a)) =
        offset ? Omega_dots[a] : Vec3(JQ.ldlt().solve((JQ * Omega).cross(Omega)));
    Eigen::Map<RowMajor3>(yp.data() + form.rotation_index(a)) =
        R * (so3::hat(Omega) + orthonormality_correction(R, b.gamma));
  }
  return yp;
}

}  // namespace

Eigen::VectorXd DaeForm::solve_index_one(Eigen::VectorXd& y, const BaumgarteParameters& b,
                                         const std::vector<std::vector<bool>>* released) const {
  IndexOneSystem system(*this, y, b, m_, n_, released);
  system.solve_accelerations();
  system.solve_rates();
  return system.write_multipliers_and_derivative();
}

Eigen::VectorXd DaeForm::consistent_initial_state(const BaumgarteParameters& b) const {
  Eigen::VectorXd y = from_physical(mech_.initial_state(ic_));
  solve_index_one(y, b);
  return y;
}

Eigen::VectorXd DaeForm::consistent_initial_derivative(const BaumgarteParameters& b) const {
  Eigen::VectorXd y = from_physical(mech_.initial_state(ic_));
  return solve_index_one(y, b);
}

void DaeForm::residual(double, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                       Eigen::VectorXd& F) const {
  const double l = mech_.params().link_length();
  const double p = b.p, p2 = b.p * b.p;
  F.resize(state_size());
  auto J = [&](int a, int j) -> Vec3 { return y.segment<3>(joint_index(a, j)); };
  auto V = [&](int a, int j) -> Vec3 { return y.segment<3>(velocity_index(a, j)); };
  auto A = [&](int a, int j) -> Vec3 { return yp.segment<3>(velocity_index(a, j)); };
  auto lambda = [&](int a, int j) { return y(multiplier_index(a, j)); };

  F.segment<3>(0) = yp.segment<3>(0) - V(0, 0);
  Vec3 payload = mech_.payload_joint_mass() * A(0, 0) - mech_.payload_joint_force();
  for (int a = 0; a < m_; ++a) {
    payload += mech_.joint_coupling(1) * A(a, 1) - lambda(a, 1) * (J(a, 1) - J(a, 0));
    for (int j = 1; j <= n_; ++j) {
      const Vec3 d = J(a, j) - J(a, j - 1), dv = V(a, j) - V(a, j - 1);
      F(multiplier_index(a, j)) =
          d.dot(A(a, j) - A(a, j - 1)) + dv.squaredNorm() + 2.0 * p * d.dot(dv) + p2 * link_constraint(d, l);
      F.segment<3>(joint_index(a, j)) = yp.segment<3>(joint_index(a, j)) - V(a, j);
      Vec3 f = mech_.joint_coupling(j) * A(a, j - 1) + mech_.joint_mass(j) * A(a, j) + lambda(a, j) * d -
               mech_.joint_force(j);
      if (j < n_) f += mech_.joint_coupling(j + 1) * A(a, j + 1) - lambda(a, j + 1) * (J(a, j + 1) - J(a, j));
      F.segment<3>(velocity_index(a, j)) = f;
    }
    const Mat3& JQ = mech_.attachment_inertia();  // J_A: J_Q itself without the offset
    const int w = angular_velocity_index(a), r = rotation_index(a);
    const Vec3 Omega = y.segment<3>(w);
    F.segment<3>(w) = JQ * yp.segment<3>(w) - (JQ * Omega).cross(Omega);
    const Mat3 R = read_rotation(y, r);
    if (mech_.attachment_offset()) {  // the attached body's coupling (header)
      const double mQ = mech_.params().multirotor_mass;
      const Vec3& rho_c = mech_.centre_offset();
      const Vec3 Omega_dot = yp.segment<3>(w);
      F.segment<3>(velocity_index(a, n_)) += mQ * (R * (Omega_dot.cross(rho_c) + Omega.cross(Omega.cross(rho_c))));
      F.segment<3>(w) += rho_c.cross(R.transpose() * (mQ * A(a, n_) - mech_.body_force() * Vec3::UnitZ()));
    }
    Eigen::Map<RowMajor3>(F.data() + r) =
        read_rotation(yp, r) - R * (so3::hat(Omega) + orthonormality_correction(R, b.gamma));
  }
  F.segment<3>(3) = payload;
}

void DaeForm::jacobian(double, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                       const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& e) const {
  // dF/dy + cj dF/dy', row block by row block of residual().
  const double p = b.p, p2 = b.p * b.p;
  auto J = [&](int a, int j) -> Vec3 { return y.segment<3>(joint_index(a, j)); };
  auto V = [&](int a, int j) -> Vec3 { return y.segment<3>(velocity_index(a, j)); };
  auto A = [&](int a, int j) -> Vec3 { return yp.segment<3>(velocity_index(a, j)); };
  auto lambda = [&](int a, int j) { return y(multiplier_index(a, j)); };
  const Mat3 I = Mat3::Identity();
  e.reserve(e.size() + 60 * m_ * n_ + 140 * m_ + 20);

  // Payload: J_0' - V_0 and (M_J A)_0 - sum_a lambda_1^a d_1^a - phi_0.
  const int x0 = joint_index(0, 0), v0 = velocity_index(0, 0);
  add_diagonal(e, x0, x0, cj);
  add_diagonal(e, x0, v0, -1.0);
  add_diagonal(e, v0, v0, cj * mech_.payload_joint_mass());
  for (int a = 0; a < m_; ++a) {
    add_diagonal(e, v0, velocity_index(a, 1), cj * mech_.joint_coupling(1));
    add_column(e, v0, multiplier_index(a, 1), -(J(a, 1) - J(a, 0)));
    add_diagonal(e, v0, joint_index(a, 1), -lambda(a, 1));
    add_diagonal(e, v0, x0, lambda(a, 1));
  }

  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j) {
      const int row_l = multiplier_index(a, j), row_x = joint_index(a, j), row_v = velocity_index(a, j);
      const int x_prev = joint_index(a, j - 1), v_prev = velocity_index(a, j - 1);
      const Vec3 d = J(a, j) - J(a, j - 1), dv = V(a, j) - V(a, j - 1);
      // Link row d.DA + |DV|^2 + 2p d.DV + p^2 C: d/dd = DA + 2p DV + p^2 d, d/dDV = 2 DV + 2p d,
      // d/dDA = d (times cj).
      const Vec3 by_d = A(a, j) - A(a, j - 1) + 2.0 * p * dv + p2 * d;
      const Vec3 by_dv = 2.0 * dv + 2.0 * p * d + cj * d;
      add_row(e, row_l, row_x, by_d);
      add_row(e, row_l, x_prev, -by_d);
      add_row(e, row_l, row_v, by_dv);
      add_row(e, row_l, v_prev, -by_dv);
      // Kinematics J_j' - V_j.
      add_diagonal(e, row_x, row_x, cj);
      add_diagonal(e, row_x, row_v, -1.0);
      // Joint j: (M_J A)_j + lambda_j d_j - lambda_{j+1} d_{j+1} - phi_j.
      add_diagonal(e, row_v, v_prev, cj * mech_.joint_coupling(j));
      add_diagonal(e, row_v, row_v, cj * mech_.joint_mass(j));
      add_column(e, row_v, row_l, d);
      add_diagonal(e, row_v, row_x, lambda(a, j));
      add_diagonal(e, row_v, x_prev, -lambda(a, j));
      if (j < n_) {
        add_diagonal(e, row_v, velocity_index(a, j + 1), cj * mech_.joint_coupling(j + 1));
        add_column(e, row_v, multiplier_index(a, j + 1), -(J(a, j + 1) - J(a, j)));
        add_diagonal(e, row_v, joint_index(a, j + 1), -lambda(a, j + 1));
        add_diagonal(e, row_v, row_x, lambda(a, j + 1));
      }
    }

    // Multirotor: J_Q Omega' - (J_Q Omega) x Omega, whose Omega-derivative is
    // -(hat(J_Q Omega) - hat(Omega) J_Q) (product rule on -hat(Omega) J_Q Omega).
    const Mat3& JQ = mech_.attachment_inertia();  // J_A: J_Q itself without the offset
    const int w = angular_velocity_index(a), r = rotation_index(a);
    const Vec3 Omega = y.segment<3>(w);
    add_block(e, w, w, cj * JQ - so3::hat(JQ * Omega) + so3::hat(Omega) * JQ);
    if (mech_.attachment_offset()) {
      // Joint n's row m_Q R (Omega' x rho_c + g(Omega)), g = Omega (Omega.rho_c) - rho_c |Omega|^2:
      // by Omega' -m_Q R hat(rho_c) (times cj), by Omega m_Q R ((Omega.rho_c) I + Omega rho_c^T -
      // 2 rho_c Omega^T), by R's entry (s, k) m_Q v_k e_s with v = Omega' x rho_c + g.
      // The attitude's rho_c x R^T (m_Q A_n - F_Q e3): by A_n m_Q hat(rho_c) R^T (times cj), by
      // R's entry (s, k) hat(rho_c) e_k (m_Q A_n - F_Q e3)_s.
      const double mQ = mech_.params().multirotor_mass;
      const Vec3& rho_c = mech_.centre_offset();
      const Mat3 Rm = read_rotation(y, r);
      const Vec3 Omega_dot = yp.segment<3>(w);
      const int vn = velocity_index(a, n_);
      add_block(e, vn, w,
                -cj * mQ * Rm * so3::hat(rho_c) +
                    mQ * Rm * (Omega.dot(rho_c) * I + Omega * rho_c.transpose() - 2.0 * rho_c * Omega.transpose()));
      const Vec3 v = Omega_dot.cross(rho_c) + Omega.cross(Omega.cross(rho_c));
      for (int s = 0; s < 3; ++s)
        for (int k = 0; k < 3; ++k) e.emplace_back(vn + s, r + 3 * s + k, mQ * v(k));
      add_block(e, w, vn, cj * mQ * so3::hat(rho_c) * Rm.transpose());
      const Vec3 pull = mQ * A(a, n_) - mech_.body_force() * Vec3::UnitZ();
      for (int s = 0; s < 3; ++s)
        for (int k = 0; k < 3; ++k) add_column(e, w, r + 3 * s + k, pull(s) * rho_c.cross(Vec3::Unit(k)));
    }
    // R' - R (hat(Omega) + Xi(R)): in direction E of R (row-major entry (s, k) of R),
    // -(E hat(Omega) + E Xi + R dXi) with dXi = -gamma/2 S^-1 (E^T R + R^T E) S^-1, S = R^T R;
    // in direction e_i of Omega, -R hat(e_i).
    const Mat3 R = read_rotation(y, r);
    const Mat3 S_inv = (R.transpose() * R).inverse();
    const Mat3 B = so3::hat(Omega) + orthonormality_correction(R, b.gamma);
    for (int s = 0; s < 3; ++s)
      for (int k = 0; k < 3; ++k) {
        Mat3 E = Mat3::Zero();
        E(s, k) = 1.0;
        const Mat3 dXi = -0.5 * b.gamma * S_inv * (E.transpose() * R + R.transpose() * E) * S_inv;
        const Mat3 dF = -(E * B + R * dXi);
        for (int rr = 0; rr < 3; ++rr)
          for (int cc = 0; cc < 3; ++cc) e.emplace_back(r + 3 * rr + cc, r + 3 * s + k, dF(rr, cc) + (rr == s && cc == k ? cj : 0.0));
      }
    for (int i = 0; i < 3; ++i) {
      const Mat3 dF = -R * so3::hat(I.col(i));
      for (int rr = 0; rr < 3; ++rr)
        for (int cc = 0; cc < 3; ++cc) e.emplace_back(r + 3 * rr + cc, w + i, dF(rr, cc));
    }
  }
}

}  // namespace tb::multirotor_payload
