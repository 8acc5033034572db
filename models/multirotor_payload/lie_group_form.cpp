// Model C's Lie group variational integrator in position-momentum form (seed 003 Algorithm 1;
// eqs. (22)-(28) for one multirotor, (35)-(38) for m of them).
//
// Discrete Lagrangian (seed 003 §3.2, after (21)), written in joint coordinates J = B Q
// (Q = (X_p, q_1..q_n) per cable, see mechanics.hpp): with dJ = J_{k+1} - J_k,
//   L_d = (1/2h) dJ^T M_J dJ + (h/2) phi . (J_k + J_{k+1}) + sum_a (1/h) tr[(I - F_a) J_d,a],
// where phi collects gravity and the constant thrust; for a constant force the seed's
// discrete forcing f^- = f^+ = (h/2) f is the same as this trapezoidal thrust potential.
// The discrete Legendre transforms (25)-(28) are then
//   p_k     = -D_{Q_k} L_d     = B^T (M_J dJ / h - (h/2) phi)        (P_V,k = slot 0, P_omega_i,k = q_i,k x slot i)
//   p_{k+1} =  D_{Q_{k+1}} L_d = B^T (M_J dJ / h + (h/2) phi)
//   h hat(Pi_k) = F_k J_d - J_d F_k^T,  Pi_{k+1} = F_k^T Pi_k,  R_{k+1} = R_k F_k
// (without the attachment offset the attitude decouples: D_R L_d = 0 (24), tau = 0 and the
// thrust is inertial; with it, see below).
//
// The state stores the cable's momenta as JOINT momenta z_j (covectors of the joint
// coordinates, one per joint, p = B^T z), not as the seed's P_omega_i = q_i x (l sum_{j>=i} z_j)
// (issue 23): recovering a light joint's z_j from the seed's momenta takes the difference of
// two suffix sums dominated by the multirotor's momentum, which costs eps |m_Q V_Q| per joint
// per step instead of eps |z_j|. z is defined up to the kernel of B^T at q (impulses along the
// links, T(sigma) below), which the link multipliers absorb, so any representative will do:
// the continuous Legendre transform stores z = M_J Jdot (from_physical), the step stores the
// representative its own update gives. Layout: the physical one with V_p -> P_V (the total
// linear momentum, sum of every z; the payload joint's z_0 is P_V less the cable joints',
// read_joint_momenta), Omega_a -> Pi_a = J_Q Omega_a and omega_i^a -> z_i^a (joint i of cable a).
//
// Writing p_k = B^T z_k, the step's unknowns x = [dJ_0, {(tau_i, dJ_i)}, {c_a}] solve
//   M_J dJ / h - T_k(tau) = z_k + (h/2) phi,
//   q_i,k . (dJ_i - dJ_{i-1}) + |dJ_i - dJ_{i-1}|^2 / (2 l) = 0,
//   (1/h) vee(F(c) J_d - J_d F(c)^T) = Pi_k,
// where (T_k(tau))_j = tau_j q_j - tau_{j+1} q_{j+1} (q at k, tau_{n+1} = 0; the payload joint
// gets -sum_a tau_1^a q_1^a) are the link impulses and the middle row is (l/2)(|q + e|^2 - 1)
// for the new direction q + e, e = (dJ_i - dJ_{i-1})/l, expanded so that it is evaluated from
// the O(h) increment itself: |q + e|^2 - 1 would keep only the increment's leading digits
// (floor eps l / 2 instead of eps |q| |dJ|). The cable rows are linear in (dJ, tau); the
// Newton matrix is CableTreeKkt with u = q_k, t = q_k + e, s = 1/h: O(m n) per iteration, plus
// a 3x3 block per multirotor.
//
// The update is in increment form throughout (no O(1) - O(1) difference stands for an O(h)
// quantity): q_i,k+1 = q_i,k + (F_i - I) q_i,k with F_i the Cayley rotation taking q_i,k onto
// the solved direction, formed from e (s2::rotation_onto_increment), so |q| = 1 holds to
// round-off whatever the tolerance; R_{k+1} = R_k + R_k (F - I); Pi_{k+1} = Pi_k + (F - I)^T Pi_k;
// and, from the cable rows at the solution,
//   z_{k+1} = M_J dJ / h + (h/2) phi = z_k + h phi + T_k(tau),
// the momentum changed by the force and link impulses of the step (the discrete
// Euler-Lagrange equation itself), rounded relative to each joint's own momentum and
// impulses. The link impulses cancel in pairs, so the total linear momentum sum_j z_j changes
// by h (total force) exactly: the discrete Noether identity, by which P_V itself is updated.
//
// The attachment offset (mechanics.hpp). The multirotor is then seed 000's body hanging from
// the string's end (§IV, (17)-(19)), with the string's end node = joint n, M = m_Q, the inertia
// J_A about the attachment point, rho_c = -rho and g = F_Q / m_Q (Mechanics::attached_body):
// its discrete Lagrangian adds (M/h) dJ_n . R_k (F_k - I) rho_c (the cross term of
// (M/2h) |dJ_n + R_k (F_k - I) rho_c|^2; its square is in (1/h) tr((I - F) J_d) of J_A, and
// (M/2h) |dJ_n|^2 is M_J's) and the attitude's potential term (h/2) M g e3 . (R_k + R_{k+1}) rho_c.
// As in Model A (models/string_pendulum/lie_group_form.cpp, mechanics/attached_body_lgvi.hpp):
//  * joint n's cable row gains (M/h) R_k (E rho_c), E = F - I formed from c;
//  * the rotational row becomes (1/h) vee(F J_d - J_d F^T) + rho_c x ((M/h) R^T dJ_n - (h/2) M g
//    R^T e3) - Pi_k = 0 (J_d of J_A), with Pi = J_A Omega + m_Q rho_c x R^T J_n' the momentum
//    conjugate to the attitude;
//  * Pi_{k+1} = F^T (Pi_k + T*L_R D_R L_d) (attached_body_attitude_derivative);
//  * z_{k+1} = z_k + h phi + T_k(tau) is unchanged: the cross term enters D_{J_n,k} and
//    D_{J_n,k+1} with opposite signs and the same value, so it cancels from the difference, and
//    the total linear momentum's discrete Noether identity holds as before.
// The Newton matrix gains per multirotor B = d(joint n row)/dc = -(M/h) R F hat(rho_c) T(c),
// C = d(rotational row)/d(dJ_n) = (M/h) hat(rho_c) R^T and D = d(rotational row)/dc
// (so3::cayley_momentum_jacobian of J_A); dc = D^{-1} (-G_c - C dJ_n) is eliminated into
// CableTreeKkt's top block -B D^{-1} C of joint n, so the solve stays O(m n).

#include <cmath>
#include <limits>

#include "models/multirotor_payload/forms.hpp"

namespace tb::multirotor_payload {

namespace {

class MultirotorStep final : public DiscreteLieGroupStep {
 public:
  explicit MultirotorStep(const LieGroupForm& form)
      : form_(form),
        mech_(form.mechanics()),
        p_(mech_.params()),
        m_(p_.multirotors),
        n_(p_.links),
        l_(p_.link_length()),
        J_(mech_.attachment_inertia()),  // J_Q itself without the offset
        offset_(mech_.attachment_offset()),
        body_(mech_.attached_body()),
        kkt_(mech_) {
    top_.assign(m_, Mat3::Zero());
    rotational_rhs_.assign(m_, Vec3::Zero());
    D_inverse_.assign(m_, Mat3::Zero());
    coupling_.assign(m_, Mat3::Zero());
    kkt_size_ = kkt_.size();
    t_.assign(m_, std::vector<Vec3>(n_));
    phi_.setZero(kkt_size_);
    phi_.head<3>() = total_force_ = mech_.payload_joint_force();
    for (int a = 0; a < m_; ++a)
      for (int j = 1; j <= n_; ++j) {
        phi_.segment<3>(CableTreeKkt::offset(n_, a, j) + 1) = mech_.joint_force(j);
        total_force_ += mech_.joint_force(j);
      }
  }

  int unknowns() const override { return kkt_size_ + 3 * m_; }

  void begin(const Eigen::VectorXd& y, double h) override {
    h_ = h;
    mech_.unpack(y, s_);  // momenta in the velocity slots: P_V, Pi, z_j (header)
    read_joint_momenta(mech_, s_, z_);
    b_ = z_ + (0.5 * h) * phi_;
    b_magnitude_ = z_.cwiseAbs() + (0.5 * std::abs(h)) * phi_.cwiseAbs();
  }

  void initial_guess(Eigen::VectorXd& x) const override {
    // dJ ~ h Jdot from the continuous Legendre inverse; c ~ h Omega / 2; tau = 0.
    Eigen::VectorXd y;
    mech_.pack(s_, y);
    const State v = form_.to_physical(y);
    x.setZero(unknowns());
    x.head<3>() = h_ * v.Vp;
    for (int a = 0; a < m_; ++a) {
      Vec3 Jdot = v.Vp;
      for (int j = 1; j <= n_; ++j) {
        Jdot += l_ * v.omega[a][j - 1].cross(v.q[a][j - 1]);
        x.segment<3>(CableTreeKkt::offset(n_, a, j) + 1) = h_ * Jdot;
      }
      x.segment<3>(kkt_size_ + 3 * a) = 0.5 * h_ * v.Omega[a];
    }
  }

  void residual(const Eigen::VectorXd& x, Eigen::VectorXd& G) override {
    G.resize(unknowns());
    S_.resize(unknowns());
    cable_ = x.head(kkt_size_);
    joint_mass_times(mech_, cable_, Mx_, Mabs_);
    Gc_ = Mx_ / h_ - b_;
    Sc_ = Mabs_ / std::abs(h_) + b_magnitude_;
    for (int a = 0; a < m_; ++a) {
      Vec3 previous = x.head<3>();
      for (int j = 1; j <= n_; ++j) {
        const int o = CableTreeKkt::offset(n_, a, j);
        const Vec3& q = s_.q[a][j - 1];
        const double tau = x(o);
        // Link impulse columns: joint j gets -tau_j q_j, joint j-1 gets +tau_j q_j.
        const Vec3 impulse = tau * q, impulse_magnitude = impulse.cwiseAbs();
        Gc_.segment<3>(o + 1) -= impulse;
        Sc_.segment<3>(o + 1) += impulse_magnitude;
        const int o_previous = j == 1 ? 0 : CableTreeKkt::offset(n_, a, j - 1) + 1;
        Gc_.segment<3>(o_previous) += impulse;
        Sc_.segment<3>(o_previous) += impulse_magnitude;
        // Unit length of q + e, e = (dJ_j - dJ_{j-1}) / l, from the increment:
        // (l/2)(|q + e|^2 - 1) = q . d + |d|^2 / (2 l) with d = dJ_j - dJ_{j-1} (|q| = 1).
        const Vec3 dJ = x.segment<3>(o + 1);
        const Vec3 d = dJ - previous;
        Gc_(o) = q.dot(d) + d.squaredNorm() / (2.0 * l_);
        Sc_(o) = q.cwiseAbs().dot(dJ.cwiseAbs() + previous.cwiseAbs()) + d.squaredNorm() / (2.0 * l_);
        previous = dJ;
      }
      // (1/h) vee(F Jd - Jd F^T) at F = cay(c), in closed vector form (no 3x3 products).
      const Vec3 c = x.segment<3>(kkt_size_ + 3 * a);
      if (offset_) {
        // The attached body's terms (header): joint n's row and the rotational row.
        const Vec3 dJn = x.segment<3>(CableTreeKkt::offset(n_, a, n_) + 1);
        const Mat3 E = so3::cayley_minus_identity(c);
        const AttachedBodyStepTerms body = attached_body_step_terms(body_, s_.R[a], dJn, c, E, h_);
        const int on = CableTreeKkt::offset(n_, a, n_) + 1;
        Gc_.segment<3>(on) += body.translational;
        // Only the E rho_c part: (M/|h|) |dJ_n| is already in M_J |dJ| / |h| (m_Q is joint n's).
        Sc_.segment<3>(on) += (body_.M / std::abs(h_)) * (s_.R[a].cwiseAbs() * (E.cwiseAbs() * body_.rho_c.cwiseAbs()));
        G.segment<3>(kkt_size_ + 3 * a) = body.rotational - s_.Omega[a];
        S_.segment<3>(kkt_size_ + 3 * a) = body.rotational_magnitude + s_.Omega[a].cwiseAbs();
        continue;
      }
      G.segment<3>(kkt_size_ + 3 * a) = so3::cayley_momentum(J_, c, h_) - s_.Omega[a];
      S_.segment<3>(kkt_size_ + 3 * a) = so3::cayley_momentum_magnitude(J_, c, h_) + s_.Omega[a].cwiseAbs();
    }
    G.head(kkt_size_) = Gc_;
    S_.head(kkt_size_) = Sc_;
  }

  void residual_magnitudes(Eigen::VectorXd& S) const override { S = S_; }

  void unknown_groups(std::vector<int>& group) const override {
    // The joint increments (one length unit), each multirotor's Cayley parameters; the link
    // multipliers tau are judged by the cable rows they enter.
    group.assign(unknowns(), 0);
    for (int a = 0; a < m_; ++a) {
      for (int j = 1; j <= n_; ++j) group[CableTreeKkt::offset(n_, a, j)] = -1;
      for (int i = 0; i < 3; ++i) group[kkt_size_ + 3 * a + i] = 1 + a;
    }
  }

  bool newton_correction(const Eigen::VectorXd& x, const Eigen::VectorXd& G, Eigen::VectorXd& dx) override {
    for (int a = 0; a < m_; ++a) {
      Vec3 previous = x.head<3>();
      for (int j = 1; j <= n_; ++j) {
        const Vec3 dJ = x.segment<3>(CableTreeKkt::offset(n_, a, j) + 1);
        t_[a][j - 1] = s_.q[a][j - 1] + (dJ - previous) / l_;  // gradient of the unit-length row
        previous = dJ;
      }
    }
    dx.resize(unknowns());
    rhs_ = -G.head(kkt_size_);
    if (offset_) {
      // Eliminate each multirotor's dc (header): top block -B D^{-1} C, right-hand side + B D^{-1} G_c.
      for (int a = 0; a < m_; ++a) {
        const Vec3 c = x.segment<3>(kkt_size_ + 3 * a);
        const Mat3& R = s_.R[a];
        const double Mh = body_.M / h_;
        const Mat3 B = -Mh * R * so3::cayley(c) * so3::hat(body_.rho_c) * so3::cayley_left_jacobian(c);
        const Mat3 C = Mh * so3::hat(body_.rho_c) * R.transpose();
        D_inverse_[a] = so3::cayley_momentum_jacobian(J_, c, h_).inverse();
        if (!D_inverse_[a].allFinite()) return false;
        top_[a] = -B * D_inverse_[a] * C;
        rotational_rhs_[a] = -G.segment<3>(kkt_size_ + 3 * a);
        rhs_.segment<3>(CableTreeKkt::offset(n_, a, n_) + 1) -= B * (D_inverse_[a] * rotational_rhs_[a]);
        coupling_[a] = C;
      }
      if (!kkt_.factor(1.0 / h_, s_.q, t_, &top_)) return false;
      kkt_.solve(rhs_, sol_);
      dx.head(kkt_size_) = sol_;
      for (int a = 0; a < m_; ++a)
        dx.segment<3>(kkt_size_ + 3 * a) =
            D_inverse_[a] * (rotational_rhs_[a] - coupling_[a] * sol_.segment<3>(CableTreeKkt::offset(n_, a, n_) + 1));
      return dx.allFinite();
    }
    // Full Newton: the cable matrix is factored at every iterate (O(mn), like the solve). The
    // simplified Newton it replaces (one factorisation per step, reused while the residual
    // shrank 100x per iteration) converged only linearly: measured over 20 s of
    // C_single_multirotor, 6.09 iterations per step and 0.264 s against 4.66 and 0.197 s now
    // (C_cooperative_multirotors 4.12 -> 3.19 iterations, 0.303 -> 0.294 s).
    if (!kkt_.factor(1.0 / h_, s_.q, t_)) return false;
    kkt_.solve(rhs_, sol_);
    dx.head(kkt_size_) = sol_;
    for (int a = 0; a < m_; ++a) {
      Vec3 correction;
      if (!so3::cayley_momentum_correction(J_, x.segment<3>(kkt_size_ + 3 * a), h_, G.segment<3>(kkt_size_ + 3 * a),
                                           correction))
        return false;
      dx.segment<3>(kkt_size_ + 3 * a) = correction;
    }
    return dx.allFinite();
  }

  void complete(const Eigen::VectorXd& x, Eigen::VectorXd& y_next) override {
    State& next = next_;  // reused storage: no allocation per step
    next = s_;
    next.Xp = s_.Xp + x.head<3>();
    // z_{k+1} = z_k + h phi + T_k(tau): the cable rows at the solution (header).
    z_next_ = z_ + h_ * phi_;
    for (int a = 0; a < m_; ++a) {
      Vec3 previous = x.head<3>();
      for (int j = 1; j <= n_; ++j) {
        const int o = CableTreeKkt::offset(n_, a, j);
        const Vec3& q = s_.q[a][j - 1];
        // At the solution M_J dJ / h = b + tau_j q_j - tau_{j+1} q_{j+1} (the cable rows of
        // residual()): joint j gains tau_j q_j, joint j-1 loses it.
        const Vec3 impulse = x(o) * q;
        z_next_.segment<3>(o + 1) += impulse;
        if (j == 1) z_next_.head<3>() -= impulse;
        else z_next_.segment<3>(CableTreeKkt::offset(n_, a, j - 1) + 1) -= impulse;
        const Vec3 dJ = x.segment<3>(o + 1);
        next.q[a][j - 1] = q + s2::rotation_onto_increment(q, (dJ - previous) / l_);
        previous = dJ;
      }
      const Vec3 c = x.segment<3>(kkt_size_ + 3 * a);
      next.R[a] = so3::times_cayley(s_.R[a], c);
      if (offset_) {
        // Pi_{k+1} = F^T (Pi_k + T*L_R D_R L_d) = w + E^T w (header).
        const Vec3 w = s_.Omega[a] + attached_body_attitude_derivative(body_, s_.R[a], x.segment<3>(CableTreeKkt::offset(n_, a, n_) + 1),
                                                                       so3::cayley_minus_identity(c), h_);
        next.Omega[a] = w + so3::cayley_transpose_increment(c, w);
        continue;
      }
      next.Omega[a] = s_.Omega[a] + so3::cayley_transpose_increment(c, s_.Omega[a]);  // Pi_{k+1} = F^T Pi_k
    }
    write_joint_momenta(mech_, z_next_, next);
    // P_V,k+1 = P_V,k + h (total force), the discrete Noether identity: the link impulses cancel
    // in pairs, so the sum of the z_{k+1} above is this in exact arithmetic; stored so, it is
    // kept to the last bit (the thrust balances the weight: the total force is zero).
    next.Vp = s_.Vp + h_ * total_force_;
    mech_.pack(next, y_next);
  }

 private:
  const LieGroupForm& form_;
  const Mechanics& mech_;
  const Parameters& p_;
  int m_, n_;
  double l_;
  Mat3 J_;  // the standard inertia J_A (J_Q without the offset), for the closed-form Cayley momentum
  bool offset_;
  AttachedBody body_;  // the multirotor as seed 000's attached body (used with the offset)
  CableTreeKkt kkt_;
  std::vector<Mat3> top_, D_inverse_, coupling_;  // per multirotor, with the offset (newton_correction)
  std::vector<Vec3> rotational_rhs_;
  int kkt_size_ = 0;
  double h_ = 0.0;
  State s_, next_;
  Eigen::VectorXd phi_;  // the constant joint forces, in the CableTreeKkt layout
  Vec3 total_force_;     // their sum
  Eigen::VectorXd z_, z_next_, b_, b_magnitude_, Mx_, Mabs_, rhs_, sol_, cable_, Gc_, Sc_, S_;
  std::vector<std::vector<Vec3>> t_;
};

}  // namespace

LieGroupForm::LieGroupForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}

Eigen::VectorXd LieGroupForm::initial_state() const { return from_physical(mech_.initial_state(ic_)); }

Eigen::VectorXd LieGroupForm::physical_state(const Eigen::VectorXd& y) const {
  Eigen::VectorXd out;
  mech_.pack(to_physical(y), out);
  return out;
}

Eigen::VectorXd LieGroupForm::from_physical(const State& s) const {
  // z = M_J Jdot (the continuous Legendre transform, seed 003 (19)-(20), in joint coordinates).
  const int n = mech_.params().links;
  const double l = mech_.params().link_length();
  Eigen::VectorXd Jdot = Eigen::VectorXd::Zero(3 + 4 * mech_.params().multirotors * n), z;
  Jdot.head<3>() = s.Vp;
  for (int a = 0; a < mech_.params().multirotors; ++a) {
    Vec3 v = s.Vp;
    for (int j = 1; j <= n; ++j) {
      v += l * s.omega[a][j - 1].cross(s.q[a][j - 1]);
      Jdot.segment<3>(CableTreeKkt::offset(n, a, j) + 1) = v;
    }
  }
  joint_mass_times(mech_, Jdot, z);
  State momenta = s;
  const double mQ = mech_.params().multirotor_mass;
  for (int a = 0; a < mech_.params().multirotors; ++a) {
    if (mech_.attachment_offset()) {
      // z_n = (M_J J')_n + m_Q R (Omega x rho_c), Pi = J_A Omega + m_Q rho_c x R^T J_n' (header).
      const int o = CableTreeKkt::offset(n, a, n) + 1;
      const Vec3& rho_c = mech_.centre_offset();
      z.segment<3>(o) += mQ * (s.R[a] * s.Omega[a].cross(rho_c));
      momenta.Omega[a] = mech_.attachment_inertia() * s.Omega[a] + mQ * rho_c.cross(s.R[a].transpose() * Jdot.segment<3>(o));
    } else {
      momenta.Omega[a] = mech_.params().J_Q * s.Omega[a];
    }
  }
  write_joint_momenta(mech_, z, momenta);
  Eigen::VectorXd y;
  mech_.pack(momenta, y);
  return y;
}

State LieGroupForm::to_physical(const Eigen::VectorXd& y) const {
  // Solve M_J Jdot - T(tau) = z with q_i . (Jdot_i - Jdot_{i-1}) = 0 (qdot_i . q_i = 0): the
  // multipliers remove whatever impulses along the links the representative z carries.
  State s = mech_.unpack(y);
  const int n = mech_.params().links;
  const double l = mech_.params().link_length();
  // With the attachment offset Omega is eliminated from joint n's row (Mechanics::top_block):
  // (M_J Jdot)_n - m_Q R hat(rho_c) Omega = z_n, J_A Omega + m_Q rho_c x R^T Jdot_n = Pi.
  CableTreeKkt kkt(mech_);
  Eigen::VectorXd z, Jdot;
  read_joint_momenta(mech_, s, z);
  std::vector<Mat3> top;
  if (mech_.attachment_offset())
    for (int a = 0; a < mech_.params().multirotors; ++a) {
      top.push_back(mech_.top_block(s.R[a]));
      z.segment<3>(CableTreeKkt::offset(n, a, n) + 1) += mech_.top_rhs(s.R[a], s.Omega[a]);
    }
  if (!kkt.solve(1.0, s.q, s.q, z, Jdot, top.empty() ? nullptr : &top))
    Jdot.setConstant(z.size(), std::numeric_limits<double>::quiet_NaN());
  s.Vp = Jdot.head<3>();
  for (int a = 0; a < mech_.params().multirotors; ++a) {
    Vec3 previous = s.Vp;
    for (int j = 1; j <= n; ++j) {
      const Vec3 v = Jdot.segment<3>(CableTreeKkt::offset(n, a, j) + 1);
      s.omega[a][j - 1] = s.q[a][j - 1].cross((v - previous) / l);
      previous = v;
    }
    s.Omega[a] = mech_.attachment_offset()
                     ? mech_.rotational_solution(s.R[a], s.Omega[a], Jdot.segment<3>(CableTreeKkt::offset(n, a, n) + 1))
                     : Vec3(mech_.inverse_inertia() * s.Omega[a]);
  }
  return s;
}

Eigen::VectorXd LieGroupForm::canonical_state(const Eigen::VectorXd& y) const {
  // p = B^T z at q: P_omega_i = q_i x (l sum_{j >= i} z_j) (joint_to_momentum); P_V is stored as such.
  State s = mech_.unpack(y);
  const Vec3 P_V = s.Vp;
  Eigen::VectorXd z;
  read_joint_momenta(mech_, s, z);
  joint_to_momentum(mech_, z, s.q, s.Vp, s.omega);
  s.Vp = P_V;
  Eigen::VectorXd out;
  mech_.pack(s, out);
  return out;
}

std::unique_ptr<DiscreteLieGroupStep> LieGroupForm::make_step() const { return std::make_unique<MultirotorStep>(*this); }

}  // namespace tb::multirotor_payload
