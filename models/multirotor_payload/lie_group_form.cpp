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
// (the attitude decouples: D_R L_d = 0 (24), tau = 0 and the thrust is inertial).
// Inverting p_k as in momentum_to_joint_rhs leaves one unknown multiplier tau_i per link
// (the momentum component along q_i,k that P_omega = q x p discards); with the unit-length
// condition |q_i,k + (dJ_i - dJ_{i-1})/l| = 1 for the new directions the step's unknowns
// x = [dJ_0, {(tau_i, dJ_i)}, {c_a}] solve
//   M_J dJ / h - T(tau) = (h/2) phi + B^{-T} w_k,   (l/2)(|q_i,k + d_i|^2 - 1) = 0,
//   (1/h) vee(F(c) J_d - J_d F(c)^T) = Pi_k,
// linear in (dJ, tau) but for the unit-length rows. Its Newton matrix is CableTreeKkt with
// u = q_k, t = q_k + d, s = 1/h: O(m n) per iteration, plus a 3x3 block per multirotor.
// The new directions are then set to q_i,k+1 = F_i q_i,k with F_i the Cayley rotation taking
// q_i,k onto the solved direction, so |q| = 1 holds to round-off whatever the tolerance.

#include <cmath>

#include "models/multirotor_payload/forms.hpp"

namespace tb::multirotor_payload {

namespace {

// q_{k+1} = Cay(c) q_k for c = (q_k x target)/(|target| + q_k . target), which is orthogonal to
// q_k and rotates it by the angle between q_k and target: ((1 - |c|^2) q + 2 c x q)/(1 + |c|^2).
// Written as q + (small increment) so that rounding is relative to the increment, not to |q|:
// over 10^6 steps the unit-length error then stays a random walk of ulps.
Vec3 rotate_onto(const Vec3& q, const Vec3& target) {
  const Vec3 c = q.cross(target) / (target.norm() + q.dot(target));
  const double c2 = c.squaredNorm();
  return q + (2.0 * c.cross(q) - 2.0 * c2 * q) / (1.0 + c2);
}

// R F with F = Cay(c) = I + 2 (hat(c) + hat(c)^2) / (1 + |c|^2) (numerics/lie_group.hpp), as
// R + R (F - I): the same product, rounded relative to the small increment.
Mat3 times_cayley(const Mat3& R, const Vec3& c) {
  const Mat3 C = so3::hat(c);
  return R + R * ((2.0 / (1.0 + c.squaredNorm())) * (C + C * C));
}

class MultirotorStep final : public DiscreteLieGroupStep {
 public:
  explicit MultirotorStep(const LieGroupForm& form)
      : form_(form),
        mech_(form.mechanics()),
        p_(mech_.params()),
        m_(p_.multirotors),
        n_(p_.links),
        l_(p_.link_length()),
        J_(p_.J_Q),
        kkt_(mech_) {
    kkt_size_ = kkt_.size();
    t_.assign(m_, std::vector<Vec3>(n_));
  }

  int unknowns() const override { return kkt_size_ + 3 * m_; }

  void begin(const Eigen::VectorXd& y, double h) override {
    h_ = h;
    mech_.unpack(y, s_);  // momenta in the velocity slots: P_V, Pi, P_omega
    momentum_to_joint_rhs(mech_, s_.Vp, s_.q, s_.omega, b_);
    b_.head<3>() += 0.5 * h * mech_.payload_joint_force();
    for (int a = 0; a < m_; ++a)
      for (int j = 1; j <= n_; ++j) b_.segment<3>(CableTreeKkt::offset(n_, a, j) + 1) += 0.5 * h * mech_.joint_force(j);
  }

  void initial_guess(Eigen::VectorXd& x) const override {
    // dJ ~ h Jdot from the continuous Legendre inverse; c ~ h Omega / 2; tau = 0.
    Eigen::VectorXd y;
    mech_.pack(s_, y);
    const State v = form_.to_physical(y);
    x.setZero(unknowns());
    std::vector<Vec3> J;
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
    cable_ = x.head(kkt_size_);
    joint_mass_times(mech_, cable_, Mx_);
    Eigen::VectorXd& Gc = Gc_;
    Gc = Mx_ / h_ - b_;
    for (int a = 0; a < m_; ++a) {
      Vec3 previous = x.head<3>();
      for (int j = 1; j <= n_; ++j) {
        const int o = CableTreeKkt::offset(n_, a, j);
        const Vec3 q = s_.q[a][j - 1];
        const double tau = x(o);
        // Multiplier columns: joint j gets -tau_j q_j, joint j-1 gets +tau_j q_j.
        Gc.segment<3>(o + 1) -= tau * q;
        if (j == 1) Gc.head<3>() += tau * q;
        else Gc.segment<3>(CableTreeKkt::offset(n_, a, j - 1) + 1) += tau * q;
        const Vec3 dJ = x.segment<3>(o + 1);
        const Vec3 next = q + (dJ - previous) / l_;
        Gc(o) = 0.5 * l_ * (next.squaredNorm() - 1.0);
        previous = dJ;
      }
      // (1/h) vee(F Jd - Jd F^T) at F = cay(c), in closed vector form (no 3x3 products).
      G.segment<3>(kkt_size_ + 3 * a) = so3::cayley_momentum(J_, x.segment<3>(kkt_size_ + 3 * a), h_) - s_.Omega[a];
    }
    G.head(kkt_size_) = Gc;
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
    // Exact S^2 update, then the joint increments of the configuration actually taken.
    Eigen::VectorXd& dJ = dJ_;
    dJ.setZero(kkt_size_);
    dJ.head<3>() = x.head<3>();
    for (int a = 0; a < m_; ++a) {
      Vec3 previous_x = x.head<3>(), J = x.head<3>();
      for (int j = 1; j <= n_; ++j) {
        const int o = CableTreeKkt::offset(n_, a, j);
        const Vec3 q = s_.q[a][j - 1];
        const Vec3 target = q + (Vec3(x.segment<3>(o + 1)) - previous_x) / l_;
        previous_x = x.segment<3>(o + 1);
        next.q[a][j - 1] = rotate_onto(q, target);
        J += l_ * (next.q[a][j - 1] - q);
        dJ.segment<3>(o + 1) = J;
      }
      const Mat3 F = so3::cayley(x.segment<3>(kkt_size_ + 3 * a));
      next.R[a] = times_cayley(s_.R[a], x.segment<3>(kkt_size_ + 3 * a));
      next.Omega[a] = F.transpose() * s_.Omega[a];  // Pi_{k+1} = F^T Pi_k
    }
    // p_{k+1} = B^T (M_J dJ / h + (h/2) phi)  (28), (38).
    joint_mass_times(mech_, dJ, Mx_);
    Eigen::VectorXd& z = z_;
    z = Mx_ / h_;
    z.head<3>() += 0.5 * h_ * mech_.payload_joint_force();
    for (int a = 0; a < m_; ++a)
      for (int j = 1; j <= n_; ++j) z.segment<3>(CableTreeKkt::offset(n_, a, j) + 1) += 0.5 * h_ * mech_.joint_force(j);
    joint_to_momentum(mech_, z, next.q, next.Vp, next.omega);
    // P_V,k+1 by (27) minus (25): L_d depends on X_p only through dX_p and the potential, so
    // the kinetic terms cancel identically and P_V,k+1 = P_V,k + h (total force) — the
    // discrete Noether identity, evaluated without the O(eps/h) rounding of M_J dJ / h.
    Vec3 total_force = mech_.payload_joint_force();
    for (int a = 0; a < m_; ++a)
      for (int j = 1; j <= n_; ++j) total_force += mech_.joint_force(j);
    next.Vp = s_.Vp + h_ * total_force;
    mech_.pack(next, y_next);
  }

 private:
  const LieGroupForm& form_;
  const Mechanics& mech_;
  const Parameters& p_;
  int m_, n_;
  double l_;
  Mat3 J_;  // the standard inertia J_Q, for the closed-form Cayley momentum
  CableTreeKkt kkt_;
  int kkt_size_ = 0;
  double h_ = 0.0;
  State s_, next_;
  Eigen::VectorXd b_, Mx_, rhs_, sol_, cable_, Gc_, dJ_, z_;
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
  // z = M_J Jdot, then B^T and the S^2 pairing (seed 003 (19)-(20)).
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
  joint_to_momentum(mech_, z, s.q, momenta.Vp, momenta.omega);
  for (int a = 0; a < mech_.params().multirotors; ++a) momenta.Omega[a] = mech_.params().J_Q * s.Omega[a];
  Eigen::VectorXd y;
  mech_.pack(momenta, y);
  return y;
}

State LieGroupForm::to_physical(const Eigen::VectorXd& y) const {
  // Solve M_J Jdot - T(tau) = B^{-T} w with q_i . (Jdot_i - Jdot_{i-1}) = 0 (qdot_i . q_i = 0).
  State s = mech_.unpack(y);
  const int n = mech_.params().links;
  const double l = mech_.params().link_length();
  CableTreeKkt kkt(mech_);
  Eigen::VectorXd rhs, Jdot;
  momentum_to_joint_rhs(mech_, s.Vp, s.q, s.omega, rhs);
  if (!kkt.solve(1.0, s.q, s.q, rhs, Jdot)) Jdot.setConstant(rhs.size(), std::numeric_limits<double>::quiet_NaN());
  s.Vp = Jdot.head<3>();
  for (int a = 0; a < mech_.params().multirotors; ++a) {
    Vec3 previous = s.Vp;
    for (int j = 1; j <= n; ++j) {
      const Vec3 v = Jdot.segment<3>(CableTreeKkt::offset(n, a, j) + 1);
      s.omega[a][j - 1] = s.q[a][j - 1].cross((v - previous) / l);
      previous = v;
    }
    s.Omega[a] = mech_.inverse_inertia() * s.Omega[a];
  }
  return s;
}

std::unique_ptr<DiscreteLieGroupStep> LieGroupForm::make_step() const { return std::make_unique<MultirotorStep>(*this); }

}  // namespace tb::multirotor_payload
