// Model C's rate rows in mass-matrix form, with their tangents, for the Lie group ODE form
// (LieGroupOdeFormulation::rate_residual / rate_tangent_entries, the Lie group generalized-alpha
// method's Newton): r(t, g, v, [vdot, tau]) = 0 in the configuration g = (R_a, q_i^a, X_p), the
// rates v = (Omega_a, omega_i^a, V_p) and one multiplier tau_i^a per link.
//
// Derivation. Seed 003 §3.1 eq. (11)-(13) / §4.1 eqs. (30)-(32) are the Euler-Lagrange equations
// on R^3 x (SO(3) x (S^2)^n)^m with the mass terms M00, M0i, Mij (Mij uses a = max(i, j)). In the
// joint coordinates of mechanics.hpp (J_0 = X_p, J_j = J_{j-1} + l q_j) the kinetic energy is
// 1/2 Jdot^T M_J Jdot with M_J block-tridiagonal along each cable, and the seed's M0i, Mij are
// B^T M_J B for the cumulative map J = B (X_p, q) (mechanics.hpp). So the seed's equations are
// the joint equations (one 3-vector per joint, with joint accelerations A_j = J''_j)
//   E_0 = (M_J A)_0 + sum_a tau_1^a q_1^a - phi_0                            = 0   payload
//   E_j = (M_J A)_j - tau_j q_j + tau_{j+1} q_{j+1} - phi_j + B_j            = 0   joint j = 1..n of each cable (tau_{n+1} = 0)
// from which the seed eliminates the tau: its row of link i is l q_i x (sum_{j >= i} E_j) (B^T,
// then the S^2 pairing; the tau terms telescope to -tau_i q_i, killed by q_i x), and its row of
// X_p is sum_j E_j. Eliminated, every link row depends on every link's acceleration (the seed's
// dense Mij, and through the tensions a dense tangent in q); kept, the rows are local. The rates
// enter through the link accelerations d_j = A_j - A_{j-1}:
//   d_j = l (omegadot_j x q_j - |omega_j x q_j|^2 q_j),   A_j = V_p' + d_1 + ... + d_j,
// the tangential part q_j'' of omegadot_j and the normal part -l |q_j'|^2 that keeps |q_j| = 1
// (the ODE form's link row q_j . (A_j - A_{j-1}) = -l |q_j'|^2, ode_form.cpp; the ODE's omegadot_j
// = q_j x (A_j - A_{j-1}) / l is this d_j's inverse for omegadot_j . q_j = 0).
//
// Attachment offset rho (Parameters::attachment_offset): the cable's last joint J_n is the point
// X_Q + R rho of multirotor a, so X_Q = J_n - R rho, X_Q'' = A_n - R (Omegadot x rho + w) with
// w = Omega x (Omega x rho). M_J and phi keep m_Q and its weight and thrust phi_Q = m_Q g e3 + f
// at joint n (as at rho = 0); the difference is B_n = -m_Q R (Omegadot x rho + w) (B_j = 0 for j < n),
// and the body's row is Euler's equation about its centre of mass with the cable's force
// F_c = m_Q X_Q'' - phi_Q acting at R rho (the same from the Lagrangian with T_Q = 1/2 m_Q |X_Q'|^2
// + 1/2 Omega . J_Q Omega and U_Q = -phi_Q . X_Q, variation dR = R hat(eta)):
//   J_Q Omegadot + Omega x J_Q Omega - rho x R^T F_c
//   = J_Q Omegadot + Omega x J_Q Omega - m_Q rho x (R^T A_n) + m_Q rho x (Omegadot x rho) + m_Q rho x w
//     + rho x (R^T phi_Q) = 0.
// (At rho = 0 this is the ODE form's free top, and B_n = 0.)
//
// The row transform (rows of the joint equations only; nonsingular, so r = 0 iff the joint
// equations hold): with T_j = c_j + mu_j + c_{j+1} the sum of M_J's row j (c the couplings, mu the
// diagonal, c_{n+1} = 0) and T_0 = mu_0 + m c_1, (M_J A)_j = T_j A_{j-1} + (mu_j + c_{j+1}) d_j
// + c_{j+1} d_{j+1}, so E_j = T_j A_{j-1} + N_j with N_j local in link j and j+1, and
// E_0 = T_0 V_p' + N_0, N_0 = sum_a (c_1 d_1^a + tau_1^a q_1^a) - phi_0. The rows are
//   payload rows (X_p's rate slots):  E_0
//   link j of cable a (omega_j's):    F_j = E_j - (T_j / T_{j-1}) E_{j-1} = T_j d_{j-1} + N_j - (T_j / T_{j-1}) N_{j-1}
//                                     (j >= 2), F_1 = E_1 - (T_1 / T_0) E_0 = N_1 - (T_1 / T_0) N_0
//   body rows (Omega_a's):            Euler's equation above (it reads A_n: 3 rows over the cable's
//                                     3 n + 3 rates, O(n); zero at rho = 0)
//   multiplier rows (tau_j's):        T_j l (q_j . omegadot_j), the derivative of q_j . omega_j = 0
//                                     along q_j' = omega_j x q_j (omega_j . q_j' = 0), which fixes
//                                     omegadot_j's free component at the field's value 0
// i.e. P E with P block lower-bidiagonal with identity diagonal: the prefix sums A_{j-1} cancel,
// and every row reads rates and multipliers of at most links j-1, j, j+1 (plus the first links of
// every cable in F_1 and E_0, and the cable in the body rows): O(m n) nonzeros in M, K and C, and
// the Newton matrix M + c_K K T + c_C C is bordered-banded, never dense. Every row is in newtons
// (N; the body rows in N m), and each is evaluated from its local terms (no prefix sum
// differences), so the round-off floor S counts only the magnitudes of those terms.
//
// Tangents, along R exp(e hat(xi)) (dR = R hat(xi)), exp(e hat(xi)) q (dq = xi x q = -hat(q) xi)
// and the rates (nothing depends on X_p or V_p):
//   d d_j / d omegadot_j = -l hat(q_j)
//   d d_j / d xi_j       = l (-hat(omegadot_j) hat(q_j) + 2 q_j (omega_j x q_j)^T hat(omega_j) hat(q_j) + s_j hat(q_j)),  s_j = |omega_j x q_j|^2
//   d d_j / d omega_j    = -2 l q_j (q_j x (omega_j x q_j))^T
//   d (tau q) / d xi     = -tau hat(q);   d (R v) / d xi_R = -R hat(v);   d (R^T v) / d xi_R = hat(R^T v)
//   d w / d Omega        = -hat(Omega x rho) - hat(Omega) hat(rho)

#include <cmath>
#include <limits>

#include "models/multirotor_payload/forms.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::multirotor_payload {

namespace {

using so3::hat;
using Triplets = std::vector<Eigen::Triplet<double>>;

// Where each rate, multiplier and state entry sits (the manifold's rate layout, OdeForm::manifold).
struct Layout {
  int m, n;
  int k() const { return 3 * m + 3 * m * n + 3; }
  int rotation(int a) const { return 3 * a; }
  int direction(int a, int j) const { return 3 * m + 3 * (a * n + j - 1); }  // link j = 1..n
  int position() const { return 3 * m + 3 * m * n; }
  int multiplier(int a, int j) const { return k() + a * n + j - 1; }
  int state_R(int a) const { return 6 + a * (12 + 6 * n); }
  int state_q(int a, int j) const { return state_R(a) + 12 + 6 * (j - 1); }
};

void put(Triplets& e, int row, int col, const Mat3& B) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (B(i, j) != 0.0) e.emplace_back(row + i, col + j, B(i, j));
}
void put_column(Triplets& e, int row, int col, const Vec3& b) {
  for (int i = 0; i < 3; ++i)
    if (b(i) != 0.0) e.emplace_back(row + i, col, b(i));
}
void put_row(Triplets& e, int row, int col, const Vec3& b) {
  for (int j = 0; j < 3; ++j)
    if (b(j) != 0.0) e.emplace_back(row, col + j, b(j));
}

// One link's quantities at (y, vdot): its acceleration d = A_j - A_{j-1} and, for the tangents,
// d's derivatives.
struct Link {
  Vec3 q, omega, omegadot;
  double tau = 0.0, s = 0.0;
  Vec3 d, d_abs;           // d and the magnitudes of its terms
  Mat3 D_wd, D_xi, D_w;    // d d / d omegadot, d d / d xi (left on q), d d / d omega
};

struct Body {
  Mat3 R;
  Vec3 Omega, Omegadot, w;  // w = Omega x (Omega x rho)
};

class Rows {
 public:
  Rows(const Mechanics& mech, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, bool tangents)
      : mech_(mech), p_(mech.params()), L_{p_.multirotors, p_.links}, rho_(p_.attachment_offset) {
    const int m = L_.m, n = L_.n;
    const double l = p_.link_length();
    links_.assign(m, std::vector<Link>(n + 1));  // [a][j], j = 1..n
    bodies_.resize(m);
    Vd_ = vdot.segment<3>(L_.position());
    for (int a = 0; a < m; ++a) {
      Body& b = bodies_[a];
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) b.R(r, c) = y(L_.state_R(a) + 3 * r + c);
      b.Omega = y.segment<3>(L_.state_R(a) + 9);
      b.Omegadot = vdot.segment<3>(L_.rotation(a));
      b.w = b.Omega.cross(b.Omega.cross(rho_));
      for (int j = 1; j <= n; ++j) {
        Link& k = links_[a][j];
        k.q = y.segment<3>(L_.state_q(a, j));
        k.omega = y.segment<3>(L_.state_q(a, j) + 3);
        k.omegadot = vdot.segment<3>(L_.direction(a, j));
        k.tau = vdot(L_.multiplier(a, j));
        const Vec3 qdot = k.omega.cross(k.q);
        k.s = qdot.squaredNorm();
        k.d = l * (k.omegadot.cross(k.q) - k.s * k.q);
        k.d_abs = l * (hat(k.q).cwiseAbs() * k.omegadot.cwiseAbs() + k.s * k.q.cwiseAbs());
        if (tangents) {
          const Mat3 Q = hat(k.q);
          k.D_wd = -l * Q;
          k.D_xi = l * (-hat(k.omegadot) * Q + 2.0 * k.q * (qdot.transpose() * hat(k.omega) * Q) + k.s * Q);
          k.D_w = -2.0 * l * k.q * k.q.cross(qdot).transpose();
        }
      }
    }
    T0_ = mech.payload_joint_mass() + m * mech.joint_coupling(1);
  }

  const Layout& layout() const { return L_; }
  // T_j, the sum of M_J's row j (j = 0: the payload joint's).
  double T(int j) const {
    if (j == 0) return T0_;
    return mech_.joint_coupling(j) + mech_.joint_mass(j) + (j < L_.n ? mech_.joint_coupling(j + 1) : 0.0);
  }
  Vec3 phi_Q() const { return p_.multirotor_mass * p_.g * e3 + p_.thrust(); }

  // N_j of cable a (j = 1..n) and the magnitudes of its terms.
  void N(int a, int j, Vec3& v, Vec3& v_abs) const {
    const Link& k = links_[a][j];
    const double c_next = j < L_.n ? mech_.joint_coupling(j + 1) : 0.0, diag = mech_.joint_mass(j) + c_next;
    const Vec3& phi = mech_.joint_force(j);
    v = diag * k.d - k.tau * k.q - phi;
    v_abs = diag * k.d_abs + std::abs(k.tau) * k.q.cwiseAbs() + phi.cwiseAbs();
    if (j < L_.n) {
      const Link& next = links_[a][j + 1];
      v += c_next * next.d + next.tau * next.q;
      v_abs += c_next * next.d_abs + std::abs(next.tau) * next.q.cwiseAbs();
    }
    if (j == L_.n) {  // B_n = -m_Q R (Omegadot x rho + w)
      const Body& b = bodies_[a];
      const Vec3 u = b.Omegadot.cross(rho_) + b.w;
      v -= p_.multirotor_mass * (b.R * u);
      v_abs += p_.multirotor_mass * b.R.cwiseAbs() *
               (hat(rho_).cwiseAbs() * b.Omegadot.cwiseAbs() + b.w.cwiseAbs());
    }
  }
  void N0(Vec3& v, Vec3& v_abs) const {
    const double c1 = mech_.joint_coupling(1);
    v = -mech_.payload_joint_force();
    v_abs = mech_.payload_joint_force().cwiseAbs();
    for (int a = 0; a < L_.m; ++a) {
      const Link& k = links_[a][1];
      v += c1 * k.d + k.tau * k.q;
      v_abs += c1 * k.d_abs + std::abs(k.tau) * k.q.cwiseAbs();
    }
  }
  // A_n of cable a = V_p' + d_1 + ... + d_n and its terms' magnitudes.
  void A_end(int a, Vec3& v, Vec3& v_abs) const {
    v = Vd_;
    v_abs = Vd_.cwiseAbs();
    for (int j = 1; j <= L_.n; ++j) v += links_[a][j].d, v_abs += links_[a][j].d_abs;
  }

  // The derivatives of P X, for X = d_j, N_j, N_0 (and P a 3x3 left factor), appended at `row`.
  void emit_d(int a, int j, int row, const Mat3& P, Triplets& Me, Triplets& Ke, Triplets& Ce) const {
    const Link& k = links_[a][j];
    const int col = L_.direction(a, j);
    put(Me, row, col, P * k.D_wd);
    put(Ke, row, col, P * k.D_xi);
    put(Ce, row, col, P * k.D_w);
  }
  void emit_N(int a, int j, int row, const Mat3& P, Triplets& Me, Triplets& Ke, Triplets& Ce) const {
    const Link& k = links_[a][j];
    const double c_next = j < L_.n ? mech_.joint_coupling(j + 1) : 0.0, diag = mech_.joint_mass(j) + c_next;
    const int col = L_.direction(a, j);
    put(Me, row, col, diag * P * k.D_wd);
    put(Ke, row, col, P * (diag * k.D_xi + k.tau * hat(k.q)));
    put(Ce, row, col, diag * P * k.D_w);
    put_column(Me, row, L_.multiplier(a, j), -P * k.q);
    if (j < L_.n) {
      const Link& next = links_[a][j + 1];
      const int col1 = L_.direction(a, j + 1);
      put(Me, row, col1, c_next * P * next.D_wd);
      put(Ke, row, col1, P * (c_next * next.D_xi - next.tau * hat(next.q)));
      put(Ce, row, col1, c_next * P * next.D_w);
      put_column(Me, row, L_.multiplier(a, j + 1), P * next.q);
    } else {
      const Body& b = bodies_[a];
      const double mQ = p_.multirotor_mass;
      const int colR = L_.rotation(a);
      put(Me, row, colR, mQ * P * b.R * hat(rho_));
      put(Ke, row, colR, mQ * P * b.R * hat(b.Omegadot.cross(rho_) + b.w));
      put(Ce, row, colR, mQ * P * b.R * (hat(b.Omega.cross(rho_)) + hat(b.Omega) * hat(rho_)));
    }
  }
  void emit_N0(int row, const Mat3& P, Triplets& Me, Triplets& Ke, Triplets& Ce) const {
    const double c1 = mech_.joint_coupling(1);
    for (int a = 0; a < L_.m; ++a) {
      const Link& k = links_[a][1];
      const int col = L_.direction(a, 1);
      put(Me, row, col, c1 * P * k.D_wd);
      put(Ke, row, col, P * (c1 * k.D_xi - k.tau * hat(k.q)));
      put(Ce, row, col, c1 * P * k.D_w);
      put_column(Me, row, L_.multiplier(a, 1), P * k.q);
    }
  }

  const Link& link(int a, int j) const { return links_[a][j]; }
  const Body& body(int a) const { return bodies_[a]; }
  const Vec3& Vd() const { return Vd_; }
  const Vec3& rho() const { return rho_; }
  const Parameters& params() const { return p_; }

 private:
  const Mechanics& mech_;
  const Parameters& p_;
  Layout L_;
  Vec3 rho_, Vd_;
  double T0_ = 0.0;
  std::vector<std::vector<Link>> links_;
  std::vector<Body> bodies_;
};

}  // namespace

void OdeForm::rate_multiplier_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& tau) const {
  const int m = mech_.params().multirotors, n = mech_.params().links;
  Eigen::VectorXd dydt;
  rhs(t, y, dydt);  // the KKT solve of the field: its tau slots are the rows' multipliers
  tau.resize(m * n);
  if (!dydt.allFinite()) {
    tau.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  for (int a = 0; a < m; ++a)
    for (int j = 1; j <= n; ++j) tau(a * n + j - 1) = kkt_sol_(CableTreeKkt::offset(n, a, j));
}

void OdeForm::rate_residual(double, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                            Eigen::VectorXd& S) const {
  const Rows rows(mech_, y, vdot, false);
  const Layout& L = rows.layout();
  const Parameters& p = mech_.params();
  const double l = p.link_length(), mQ = p.multirotor_mass;
  const Vec3& rho = rows.rho();
  r.resize(L.k() + L.m * L.n);
  S.resize(r.size());
  Vec3 N0, N0_abs;
  rows.N0(N0, N0_abs);
  // Payload rows E_0 = T_0 V_p' + N_0.
  r.segment<3>(L.position()) = rows.T(0) * rows.Vd() + N0;
  S.segment<3>(L.position()) = rows.T(0) * rows.Vd().cwiseAbs() + N0_abs;
  for (int a = 0; a < L.m; ++a) {
    Vec3 previous, previous_abs;  // N_{j-1} (N_0 for j = 1)
    for (int j = 1; j <= L.n; ++j) {
      Vec3 Nj, Nj_abs;
      rows.N(a, j, Nj, Nj_abs);
      const double ratio = rows.T(j) / rows.T(j - 1);
      Vec3 F = Nj - ratio * (j == 1 ? N0 : previous), F_abs = Nj_abs + ratio * (j == 1 ? N0_abs : previous_abs);
      if (j >= 2) F += rows.T(j) * rows.link(a, j - 1).d, F_abs += rows.T(j) * rows.link(a, j - 1).d_abs;
      r.segment<3>(L.direction(a, j)) = F;
      S.segment<3>(L.direction(a, j)) = F_abs;
      const Link& k = rows.link(a, j);
      r(L.multiplier(a, j)) = rows.T(j) * l * k.q.dot(k.omegadot);
      S(L.multiplier(a, j)) = rows.T(j) * l * k.q.cwiseAbs().dot(k.omegadot.cwiseAbs());
      previous = Nj, previous_abs = Nj_abs;
    }
    // Body rows: J Omegadot + Omega x J Omega - m_Q rho x R^T A_n + m_Q rho x (Omegadot x rho) + m_Q rho x w + rho x R^T phi_Q.
    const Body& b = rows.body(a);
    Vec3 An, An_abs;
    rows.A_end(a, An, An_abs);
    const Vec3 JO = p.J_Q * b.Omega, RtA = b.R.transpose() * An, Rtphi = b.R.transpose() * rows.phi_Q();
    const Mat3 rho_hat_abs = hat(rho).cwiseAbs();
    r.segment<3>(L.rotation(a)) = p.J_Q * b.Omegadot + b.Omega.cross(JO) - mQ * rho.cross(RtA) +
                                  mQ * rho.cross(b.Omegadot.cross(rho)) + mQ * rho.cross(b.w) + rho.cross(Rtphi);
    S.segment<3>(L.rotation(a)) =
        p.J_Q.cwiseAbs() * b.Omegadot.cwiseAbs() + hat(b.Omega).cwiseAbs() * JO.cwiseAbs() +
        mQ * rho_hat_abs * (b.R.transpose().cwiseAbs() * An_abs) +
        mQ * rho_hat_abs * (rho_hat_abs * b.Omegadot.cwiseAbs()) + mQ * rho_hat_abs * b.w.cwiseAbs() +
        rho_hat_abs * (b.R.transpose().cwiseAbs() * rows.phi_Q().cwiseAbs());
  }
}

void OdeForm::rate_tangent_entries(double, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                                   std::vector<Eigen::Triplet<double>>& Me, std::vector<Eigen::Triplet<double>>& Ke,
                                   std::vector<Eigen::Triplet<double>>& Ce) const {
  const Rows rows(mech_, y, vdot, true);
  const Layout& L = rows.layout();
  const Parameters& p = mech_.params();
  const double l = p.link_length(), mQ = p.multirotor_mass;
  const Vec3& rho = rows.rho();
  const Mat3 I = Mat3::Identity();
  // Payload rows.
  put(Me, L.position(), L.position(), rows.T(0) * I);
  rows.emit_N0(L.position(), I, Me, Ke, Ce);
  for (int a = 0; a < L.m; ++a) {
    for (int j = 1; j <= L.n; ++j) {
      const int row = L.direction(a, j);
      const double ratio = rows.T(j) / rows.T(j - 1);
      rows.emit_N(a, j, row, I, Me, Ke, Ce);
      if (j == 1) {
        rows.emit_N0(row, -ratio * I, Me, Ke, Ce);
      } else {
        rows.emit_N(a, j - 1, row, -ratio * I, Me, Ke, Ce);
        rows.emit_d(a, j - 1, row, rows.T(j) * I, Me, Ke, Ce);
      }
      const Link& k = rows.link(a, j);
      put_row(Me, L.multiplier(a, j), L.direction(a, j), rows.T(j) * l * k.q);
      put_row(Ke, L.multiplier(a, j), L.direction(a, j), rows.T(j) * l * k.q.cross(k.omegadot));
    }
    const Body& b = rows.body(a);
    const int row = L.rotation(a);
    const Mat3 H = hat(rho), P = -mQ * H * b.R.transpose();  // d(body rows)/d A_n
    Vec3 An, An_abs;
    rows.A_end(a, An, An_abs);
    put(Me, row, row, p.J_Q - mQ * H * H);
    put(Me, row, L.position(), P);
    for (int j = 1; j <= L.n; ++j) rows.emit_d(a, j, row, P, Me, Ke, Ce);
    put(Ke, row, row, -mQ * H * hat(b.R.transpose() * An) + H * hat(b.R.transpose() * rows.phi_Q()));
    put(Ce, row, row,
        hat(b.Omega) * p.J_Q - hat(p.J_Q * b.Omega) - mQ * H * (hat(b.Omega.cross(rho)) + hat(b.Omega) * H));
  }
}

}  // namespace tb::multirotor_payload
