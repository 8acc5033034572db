// Model B's Lie group variational integrator in position-momentum form, from the discrete
// Lagrange-d'Alembert principle (seed 002 (35)-(38)) with the forcing f_k = Q_dk + u_dk acting
// on s_p at step k:
//   p_k = D_dy L_d - D_y L_d - f-_k e_s,    Pi_k = F_k (T*L_F D_F L_d) - T*L_R D_R L_d,
//   p_{k+1} = D_dy L_d + f+_k e_s,         Pi_{k+1} = T*L_F D_F L_d,
// y = (s_p, q_2..q_{N+1}) (seed 003 (7)-(8), Algorithm 1). Unknowns x = [dq_2..dq_{N+1}, c | ds]
// with F = Cay(c): the Newton matrix is Model A's block-tridiagonal one (nodes and the attitude)
// bordered by the reel coordinate, solved in O(N) by a Schur complement. With the reel locked,
// ds = 0 and the border is dropped: the step is Model A's.
//
// Forcing: by default (Parameters::Discretization::Midpoint) f = Q_dk + u_dk at the step's
// midpoint, split f- = f+ = f/2, with the kinetic energy also at the midpoint (second order);
// Discretization::Paper gives the printed (34), (37), (38) (first order when the reel moves). Discrete work of the forcing over step k: f ds_k / h, the
// quadrature the scheme's forcing implies; it enters the energy-balance residual.
//
// Increment form, as in Model A (models/string_pendulum/lie_group_form.cpp, seed 000 (25),
// (27)-(29), (33)-(34)): the rigid body enters L_d (34) as in seed 000 (18), so with E = F - I
// formed from c (so3::cayley_minus_identity), never as F - I:
//  * D_dy L_d depends on F only through (M/h) R (F - I) rho_c at node N+1 (the body's weight is
//    in V through R rho_c, which only D_R L_d sees; D_y L_d, D_s L_d, D_ds L_d and the forcing
//    do not depend on F). discrete_lagrangian.cpp's derivatives are evaluated at F = I, where
//    that term vanishes exactly, and it is added here as (M/h) R (E rho_c).
//  * The rotational row: the F-dependent parts of (F rho_c) x A and T*L_R D_R L_d cancel
//    identically, leaving (1/h) vee(F Jd - Jd F^T) + rho_c x ((M/h) R^T dq_{N+1} - (h/2) M g
//    R^T e3) - Pi_k = 0, with (1/h) vee(F Jd - Jd F^T) (O(1) - O(1) products of F for an O(h)
//    matrix, over h) formed from c by so3::cayley_momentum. An O(1) momentum balance.
//  * The update: at the solution the transforms give
//      p_{k+1} = p_k + D_y L_d + (f-_k + f+_k) e_s,   Pi_{k+1} = F^T (Pi_k + T*L_R D_R L_d),
//    the momenta plus the step's O(h) impulses, rounded relative to each momentum rather than
//    re-formed from the increments / h (which carries the residual Newton stopped at into the
//    momenta and e3 . sum q_k x G into the momentum map; here e3 . sum dq x G remains).
//    F^T w = w + E^T w (so3::cayley_transpose_increment), R_{k+1} = R_k + R_k E (so3::times_cayley),
//    s_{k+1} = s_k + ds, q_{k+1} = q_k + dq.
//
// Round-off floor (DiscreteLieGroupStep::residual_magnitudes), component-wise, row by row,
// with l, s_e at the kinetic configuration and e = q_a - q_{a+1} + alpha (dq_a - dq_{a+1}),
// |e| counted as |q_a - q_{a+1}| + alpha (|dq_a| + |dq_{a+1}|):
//   node:     per element, (mu l/(6|h|)) (2|dq_a| + |dq_b|) + |ds| mu |c31 or c23| |e| / |h|
//             + (1 + alpha) |ds| mu (|c23| |dq_{a+1}| + |c31| |dq_a|) / |h|        [Gamma_q, in D_dy and D_y]
//             + (|h|/2) (mu g l/2 e3 + (EA/l) (1 + l/|x|) |x|),  x at k            [V_k, |x| - l by operands]
//             + |h| |dV/dq_{k+1}|   [the same computed value in D_dy and D_y: its rounding cancels]
//             + |p|; at node N+1 also (M/|h|) (|dq| + |R| |E| |rho_c|) + (|h|/2) M g e3.
//   rotation: so3::cayley_momentum_magnitude(J, c, h)
//             + |rho_c| x (M/|h| |R|^T |dq_{N+1}| + |h|/2 M g |R^T e3|) + |Pi_k|.
//   reel:     (|mu s_e| + kappa_d + mu l m3_sum) |ds| / |h| + sum_a mu (|c23| |e|.|dq_{a+1}| + |c31| |e|.|dq_a|) / |h|
//             + (1 + alpha) |Gamma_s| (its terms' magnitudes) + (|h|/2) |dV/ds_k| (by operands)
//             + |h| |dV/ds_{k+1}| + f-/f |f| (the strain eps = (|x| - l)/l by its operands) + |p_s|.

#include <cmath>
#include <vector>

#include "mechanics/attached_body_lgvi.hpp"
#include "models/reel_pendulum/forms.hpp"

namespace tb::reel_pendulum {

using so3::hat;

namespace {

const Vec3 kE3 = Vec3::UnitZ();

struct Layout {
  int N;
  int q(int j) const { return 1 + 3 * (j - 2); }  // q_j, j = 2..N+1
  int R() const { return 1 + 3 * N; }
  int p(int j) const { return 10 + 3 * N + 3 * (j - 2); }
  int Pi() const { return 10 + 6 * N; }
  int ps() const { return 13 + 6 * N; }
  int carnot() const { return 14 + 6 * N; }
  int control() const { return 15 + 6 * N; }
};

void read_configuration(const Eigen::VectorXd& y, const Layout& L, double& s, std::vector<Vec3>& q, Mat3& R) {
  s = y(0);
  q.assign(L.N + 1, Vec3::Zero());
  for (int j = 2; j <= L.N + 1; ++j) q[j - 1] = y.segment<3>(L.q(j));
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) R(i, k) = y(L.R() + 3 * i + k);
}

class ReelPendulumStep final : public DiscreteLieGroupStep {
 public:
  explicit ReelPendulumStep(const LieGroupForm& form)
      : form_(form), mech_(form.mechanics()), p_(mech_.params()), L_{p_.N}, N_(p_.N),
        locked_(p_.reel_locked), Jd_(so3::nonstandard_inertia(p_.J)) {
    dq_.assign(N_ + 1, Vec3::Zero());
    edge_.assign(N_, Vec3::Zero());
  }

  int unknowns() const override { return 3 * N_ + 3 + (locked_ ? 0 : 1); }

  void begin(const Eigen::VectorXd& y, double h) override {
    y_ = y;
    h_ = h;
    read_configuration(y, L_, s_, q_, R_);
    // The floor's terms that do not depend on x (header): the momenta and the potential at k.
    const double ah = std::abs(h), mu = p_.mu, g = p_.g, l = mech_.element_length(s_);
    S_fixed_.resize(unknowns());
    for (int j = 2; j <= N_ + 1; ++j) S_fixed_.segment<3>(3 * (j - 2)) = y.segment<3>(L_.p(j)).cwiseAbs();
    S_fixed_.segment<3>(3 * N_) = y.segment<3>(L_.Pi()).cwiseAbs();
    double dVds = mu * g * (std::abs(p_.b) + std::abs(p_.d * std::sin((s_ - p_.b) / p_.d)));
    for (int a = 1; a <= N_; ++a) {
      const Vec3 x = q_[a] - q_[a - 1];
      const double len = x.norm();
      edge_[a - 1] = x.cwiseAbs();
      const bool slack = element_slack_length(l, len, p_.tension_only);  // no strain term, no round-off of one
      const Vec3 element =
          (0.5 * ah) * ((0.5 * mu * g * l) * kE3 + (slack ? 0.0 : p_.EA / l * (1.0 + l / len)) * x.cwiseAbs());
      if (a >= 2) S_fixed_.segment<3>(3 * (a - 2)) += element;
      S_fixed_.segment<3>(3 * (a - 1)) += element;
      dVds += (0.5 * mu * g / N_) * (std::abs(q_[a - 1].z()) + std::abs(q_[a].z())) +
              (slack ? 0.0 : (p_.EA / (2.0 * N_)) * (len * len / (l * l) + 1.0));
    }
    S_fixed_.segment<3>(3 * (N_ - 1)) += (0.5 * ah * p_.M * g) * kE3;  // the body's weight in V_k
    if (!locked_) S_fixed_(3 * N_ + 3) = std::abs(y(L_.ps())) + 0.5 * ah * dVds;
  }

  void initial_guess(Eigen::VectorXd& x) const override {
    const State st = form_.to_physical(y_);
    x.setZero(unknowns());
    for (int j = 2; j <= N_ + 1; ++j) x.segment<3>(3 * (j - 2)) = h_ * st.v[j - 1];
    x.segment<3>(3 * N_) = 0.5 * h_ * st.Omega;
    if (!locked_) x(3 * N_ + 3) = h_ * st.sdot;
  }

  void residual(const Eigen::VectorXd& x, Eigen::VectorXd& G) override {
    evaluate(x);
    G.resize(unknowns());
    for (int j = 2; j <= N_ + 1; ++j)
      G.segment<3>(3 * (j - 2)) = D_.d_dq[j - 1] - D_.d_q[j - 1] - y_.segment<3>(L_.p(j));
    G.segment<3>(3 * (N_ - 1)) += body_.translational;  // (M/h) R (F - I) rho_c, from c
    G.segment<3>(3 * N_) = body_.rotational - y_.segment<3>(L_.Pi());
    if (!locked_) G(3 * N_ + 3) = D_.d_ds - D_.d_s - forcing_.weight_before * forcing_.f - y_(L_.ps());
    floor();
  }

  void residual_magnitudes(Eigen::VectorXd& S) const override { S = S_; }

  // The nodes' increments (metres), the Cayley parameters, and the reel increment ds: one group each.
  void unknown_groups(std::vector<int>& group) const override {
    group.assign(unknowns(), 0);
    for (int i = 0; i < 3; ++i) group[3 * N_ + i] = 1;
    if (!locked_) group[3 * N_ + 3] = 2;
  }

  bool newton_correction(const Eigen::VectorXd& x, const Eigen::VectorXd& G, Eigen::VectorXd& dx) override {
    evaluate(x);
    // The kinetic part of the residual is A(g_e) dy/h - (1 - alpha) Gamma(dy), g_e = g_k + alpha dy
    // (discrete_lagrangian.hpp), so its Jacobian is A(g_e)/h + (alpha C - (1 - alpha) C^T)/h with
    // C = d(A dy)/d(configuration), which is local: node-node blocks are multiples of I and the
    // reel adds one border row and column.
    const double h = h_, mu = p_.mu, ds = ds_, alpha = p_.kinetic_weight(), beta = 1.0 - alpha;
    const double s_e = s_ + alpha * ds, l = mech_.element_length(s_e);
    const Mat3 I = Mat3::Identity();
    const Mat3 T = so3::cayley_left_jacobian(x.segment<3>(3 * N_));
    auto c23 = [&](int a) { return a >= 1 && a <= N_ ? mech_.c23(a) : 0.0; };
    auto c31 = [&](int a) { return a >= 1 && a <= N_ ? mech_.c31(a) : 0.0; };
    // C between nodes (scalar multiples of I): C_{j,j-1}, C_{j,j}, C_{j,j+1}.
    const double sl = locked_ ? 0.0 : mu * ds;
    auto C_lower = [&](int j) { return sl * c23(j - 1); };
    auto C_diag = [&](int j) { return sl * (c31(j) - c23(j - 1)); };
    auto C_upper = [&](int j) { return -sl * c31(j); };
    A_.resize(N_ + 1);
    BlockTridiagonal3& K = A_.core();
    for (int j = 2; j <= N_ + 1; ++j) {
      const int i = j - 2;
      K.diag(i) = ((j <= N_ ? 4.0 : 2.0) * mu * l / (6.0 * h) + (alpha - beta) * C_diag(j) / h) * I;
      if (j > 2) K.lower(i) = (mu * l / (6.0 * h) + (alpha * C_lower(j) - beta * C_upper(j - 1)) / h) * I;
      if (j <= N_) K.upper(i) = (mu * l / (6.0 * h) + (alpha * C_upper(j) - beta * C_lower(j + 1)) / h) * I;
    }
    K.diag(N_ - 1) += p_.M / h * I;
    K.upper(N_ - 1) = -p_.M / h * R_ * F_ * hat(p_.rho_c) * T;
    K.lower(N_) = p_.M / h * hat(p_.rho_c) * R_.transpose();
    K.diag(N_) = so3::rotational_momentum_jacobian(F_, Jd_, x.segment<3>(3 * N_), h);
    if (locked_) {
      if (!K.factor()) return false;
      dx = -G;
      K.solve_in_place(dx);
      return true;
    }
    // Border: A's reel coupling at g_e, and C's reel entries S_j = d(A dy)_j/ds,
    // P_j = d(A dy)_s/dq_j, C_ss = d(A dy)_s/ds.
    Eigen::VectorXd& col = A_.border_column();
    Eigen::VectorXd& row = A_.border_row();
    col.setZero(3 * N_ + 3);
    row.setZero(3 * N_ + 3);
    for (int j = 2; j <= N_ + 1; ++j) {
      const Vec3 prev = dq_[j - 2], cur = dq_[j - 1], next = j <= N_ ? dq_[j] : Vec3::Zero();
      const Vec3 q_prev = q_[j - 2] + alpha * prev, q_cur = q_[j - 1] + alpha * cur;
      Vec3 border = mu * c23(j - 1) * (q_prev - q_cur);
      if (j <= N_) border += mu * c31(j) * (q_cur - (q_[j] + alpha * next));
      const Vec3 S = -mu / (6.0 * N_) * (prev + (j <= N_ ? 4.0 : 2.0) * cur + next);
      const Vec3 P = mu * (c23(j) * next + (c31(j) - c23(j - 1)) * cur - c31(j - 1) * prev);
      col.segment<3>(3 * (j - 2)) = (border + alpha * S - beta * P) / h;
      row.segment<3>(3 * (j - 2)) = (border + alpha * P - beta * S) / h;
    }
    row.segment<3>(0) -= forcing_.weight_before * forcing_.d_dq2;  // the strain at the guide way
    const double C_ss = mu * (1.0 - mech_.m3_sum() / N_) * ds;
    A_.corner() = (mu * s_e + p_.kappa_d + mu * l * mech_.m3_sum()) / h + (alpha - beta) * C_ss / h -
                  forcing_.weight_before * forcing_.d_ds;
    if (!A_.factor()) return false;
    dx = -G;
    A_.solve_in_place(dx);
    return true;
  }

  void complete(const Eigen::VectorXd& x, Eigen::VectorXd& y_next) override {
    evaluate(x);
    y_next.resize(y_.size());
    y_next(0) = s_ + ds_;
    for (int j = 2; j <= N_ + 1; ++j) {
      y_next.segment<3>(L_.q(j)) = q_[j - 1] + dq_[j - 1];
      // p_{k+1} = D_dy L_d = p_k + D_y L_d (header): D_y L_d is F-independent, so D_ at F = I is exact.
      y_next.segment<3>(L_.p(j)) = y_.segment<3>(L_.p(j)) + D_.d_q[j - 1];
    }
    const Mat3 R_next = so3::times_cayley(R_, c_);  // R_k + R_k (F_k - I)
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) y_next(L_.R() + 3 * i + k) = R_next(i, k);
    // Pi_{k+1} = F^T (Pi_k + T*L_R D_R L_d) = w + (F - I)^T w (header).
    const Vec3 w = Vec3(y_.segment<3>(L_.Pi())) + attitude_derivative();
    y_next.segment<3>(L_.Pi()) = w + so3::cayley_transpose_increment(c_, w);
    // p_s,k+1 = D_ds L_d + f+ = p_s,k + D_s L_d + (f- + f+).
    y_next(L_.ps()) =
        locked_ ? 0.0 : y_(L_.ps()) + D_.d_s + (forcing_.weight_before + forcing_.weight_after) * forcing_.f;
    y_next(L_.carnot()) = y_(L_.carnot()) + forcing_.carnot / h_ * ds_;
    y_next(L_.control()) = y_(L_.control()) + p_.u / p_.d * ds_;
  }

 private:
  // dq_, ds_, c_, E_ = F - I (and F_ = I + E_ for the Newton matrix), the derivatives of L_d at
  // F = I (header), the forcing and the body's F-dependent terms.
  void evaluate(const Eigen::VectorXd& x) {
    for (int j = 2; j <= N_ + 1; ++j) dq_[j - 1] = x.segment<3>(3 * (j - 2));
    c_ = x.segment<3>(3 * N_);
    E_ = so3::cayley_minus_identity(c_);
    F_ = Mat3::Identity() + E_;  // so3::cayley(c_)
    ds_ = locked_ ? 0.0 : x(3 * N_ + 3);
    const StepConfiguration cfg{s_, ds_, q_, dq_, R_, identity_, h_};
    discrete_lagrangian_derivatives(mech_, cfg, D_);
    forcing_ = locked_ ? DiscreteForcing{} : discrete_forcing(mech_, cfg);
    body_ = attached_body_step_terms(body_params_, R_, dq_[N_], c_, E_, h_);
  }

  // The round-off floor S_ of the residual just evaluated (header); O(N), reused storage.
  void floor() {
    const double ah = std::abs(h_), mu = p_.mu, alpha = p_.kinetic_weight(), ds = ds_, ads = std::abs(ds);
    const double s_e = s_ + alpha * ds, l = mech_.element_length(s_e), inertia = mu * l / (6.0 * ah);
    S_ = S_fixed_;
    // The potential at k+1 enters D_dy and D_y (D_ds and D_s) as the same computed value.
    for (int j = 2; j <= N_ + 1; ++j) S_.segment<3>(3 * (j - 2)) += ah * D_.grad_next[j - 1].cwiseAbs();
    double reel = 0.0, gamma = mu * ds * ds / (2.0 * ah);
    for (int a = 1; a <= N_; ++a) {
      const Vec3 ada = dq_[a - 1].cwiseAbs(), adb = dq_[a].cwiseAbs();
      const Vec3 e = edge_[a - 1] + alpha * (ada + adb);
      const double c23 = std::abs(mech_.c23(a)), c31 = std::abs(mech_.c31(a)), coupling = ads * mu / ah;
      const Vec3 gamma_q = ((1.0 + alpha) * coupling) * (c23 * adb + c31 * ada);
      if (a >= 2) S_.segment<3>(3 * (a - 2)) += inertia * (2.0 * ada + adb) + (coupling * c31) * e + gamma_q;
      S_.segment<3>(3 * (a - 1)) += inertia * (ada + 2.0 * adb) + (coupling * c23) * e + gamma_q;
      reel += mu * (c23 * e.dot(adb) + c31 * e.dot(ada)) / ah;
      gamma += (mu / (6.0 * N_ * ah)) * (ada.dot(ada) + ada.dot(adb) + adb.dot(adb)) +
               mu * std::abs(mech_.m3(a)) * ds * ds / (2.0 * N_ * ah);
    }
    S_.segment<3>(3 * (N_ - 1)) += body_.translational_magnitude;
    S_.segment<3>(3 * N_) += body_.rotational_magnitude;
    if (locked_) return;
    reel += (std::abs(mu * s_e) + std::abs(p_.kappa_d) + mu * l * std::abs(mech_.m3_sum())) * ads / ah +
            (1.0 + alpha) * gamma + ah * std::abs(D_.dVds_next) + forcing_.weight_before * forcing_magnitude();
    S_(3 * N_ + 3) += reel;
  }

  // The magnitudes of the terms of f = -(h/2) w eps^2 + h u/d (discrete_forcing), w = mu ds^2/h^2 + EA,
  // eps = (|x| - l)/l counted by its operands to first order in their rounding.
  double forcing_magnitude() const {
    const bool midpoint = p_.discretization == Parameters::Discretization::Midpoint;
    const double ah = std::abs(h_), l = mech_.element_length(s_ + (midpoint ? 0.5 * ds_ : 0.0));
    const Vec3 x = midpoint ? Vec3(q_[1] + 0.5 * dq_[1]) : q_[1];
    const double len = x.norm(), eps = std::abs(len - l) / l;
    // A slack tension-only element at the guide way: no Carnot term (discrete_forcing), only u_dk.
    if (element_slack_length(l, len, p_.tension_only)) return ah * std::abs(p_.u / p_.d);
    const double len_operands = midpoint ? (q_[1].cwiseAbs() + 0.5 * dq_[1].cwiseAbs()).norm() : len;
    const double w = p_.mu * ds_ * ds_ / (h_ * h_) + p_.EA;
    return 0.5 * ah * w * eps * (eps + 2.0 * (len_operands + l) / l) + ah * std::abs(p_.u / p_.d);
  }

  // T*L_R D_R L_d (seed 000 (29), the body of seed 002 (34)): (M/h) (E rho_c) x R^T dq_{N+1}
  // + (h/2) M g (rho_c + F rho_c) x R^T e3 with F rho_c = rho_c + E rho_c: O(h), formed from E.
  Vec3 attitude_derivative() const { return attached_body_attitude_derivative(body_params_, R_, dq_[N_], E_, h_); }

  const LieGroupForm& form_;
  const Mechanics& mech_;
  const Parameters& p_;
  const Layout L_;
  const int N_;
  const bool locked_;
  const Mat3 Jd_;
  const Mat3 identity_ = Mat3::Identity();  // the F at which D_ is evaluated (header)
  Eigen::VectorXd y_;
  double h_ = 0.0, s_ = 0.0, ds_ = 0.0;
  DiscreteForcing forcing_;
  std::vector<Vec3> q_, dq_, edge_;  // edge_: |q_{a+1} - q_a| at k
  Mat3 R_ = Mat3::Identity(), F_ = Mat3::Identity(), E_ = Mat3::Zero();
  Vec3 c_ = Vec3::Zero();
  const AttachedBody body_params_{p_.M, p_.J, p_.rho_c, p_.g};
  AttachedBodyStepTerms body_;  // the body's terms of the last residual (mechanics/attached_body_lgvi.hpp)
  Eigen::VectorXd S_fixed_, S_;  // the floor's x-independent part (begin) and the whole (residual)
  DiscreteLagrangianDerivatives D_;
  BorderedBlockTridiagonal3 A_;
};

}  // namespace

LieGroupForm::LieGroupForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}

Eigen::VectorXd LieGroupForm::initial_state() const { return from_physical(mech_.initial_state(ic_)); }

State LieGroupForm::to_physical(const Eigen::VectorXd& y) const {
  const Layout L{mech_.params().N};
  State s;
  read_configuration(y, L, s.s, s.q, s.R);
  Eigen::VectorXd momenta(3 * L.N + 4);
  momenta.segment(0, 3 * L.N + 3) = y.segment(L.p(2), 3 * L.N + 3);
  momenta(3 * L.N + 3) = y(L.ps());
  mech_.set_velocities_from_momenta(momenta, s);
  s.carnot_work = y(L.carnot());
  s.control_work = y(L.control());
  return s;
}

Eigen::VectorXd LieGroupForm::from_physical(const State& s) const {
  const Layout L{mech_.params().N};
  Eigen::VectorXd y(mech_.physical_size());
  y(0) = s.s;
  for (int j = 2; j <= L.N + 1; ++j) y.segment<3>(L.q(j)) = s.q[j - 1];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) y(L.R() + 3 * i + k) = s.R(i, k);
  const Eigen::VectorXd momenta = mech_.momenta(s);
  y.segment(L.p(2), 3 * L.N + 3) = momenta.segment(0, 3 * L.N + 3);
  y(L.ps()) = momenta(3 * L.N + 3);
  y(L.carnot()) = s.carnot_work;
  y(L.control()) = s.control_work;
  return y;
}

Observation LieGroupForm::observe(double /*t*/, const Eigen::VectorXd& y) const { return mech_.observe(to_physical(y)); }

Eigen::VectorXd LieGroupForm::physical_state(const Eigen::VectorXd& y) const { return mech_.pack(to_physical(y)); }

std::unique_ptr<DiscreteLieGroupStep> LieGroupForm::make_step() const { return std::make_unique<ReelPendulumStep>(*this); }

std::string LieGroupForm::why_not_time_symmetric() const {
  const Parameters& p = mech_.params();
  if (p.discretization == Parameters::Discretization::Paper && !p.reel_locked)
    return "the paper's printed discretisation (seed 002 (34), (37), (38)) evaluates the kinetic energy's mass matrix "
           "and the reel forcing at the step's start, so its step is not symmetric (and first order) once the reel moves";
  return "";
}

}  // namespace tb::reel_pendulum
