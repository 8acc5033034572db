// Model B's Lie group variational integrator in position-momentum form, from the discrete
// Lagrange-d'Alembert principle (seed 002 (35)-(38)) with the forcing f_k = Q_dk + u_dk acting
// on s_p at step k:
//   p_k = D_dy L_d - D_y L_d - f-_k e_s,    Pi_k = F_k (T*L_F D_F L_d) - T*L_R D_R L_d,
//   p_{k+1} = D_dy L_d + f+_k e_s,         Pi_{k+1} = T*L_F D_F L_d,
// y = (s_p, q_2..q_{N+1}). Unknowns x = [dq_2..dq_{N+1}, c | ds] with F = Cay(c): the Newton
// matrix is Model A's block-tridiagonal one (nodes and the attitude) bordered by the reel
// coordinate, solved in O(N) by a Schur complement. With the reel locked, ds = 0 and the
// border is dropped: the step is Model A's.
//
// Forcing: by default (Parameters::Discretization::Midpoint) f = Q_dk + u_dk at the step's
// midpoint, split f- = f+ = f/2, with the kinetic energy also at the midpoint (second order);
// Discretization::Paper gives the printed (34), (37), (38) (first order when the reel moves). Discrete work of the forcing over step k: f ds_k / h, the
// quadrature the scheme's forcing implies; it enters the energy-balance residual.

#include <cmath>

#include "models/reel_pendulum/forms.hpp"

namespace tb::reel_pendulum {

using so3::hat;

namespace {

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
  }

  int unknowns() const override { return 3 * N_ + 3 + (locked_ ? 0 : 1); }

  void begin(const Eigen::VectorXd& y, double h) override {
    y_ = y;
    h_ = h;
    read_configuration(y, L_, s_, q_, R_);
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
    G.segment<3>(3 * N_) = F_ * D_.d_F - D_.d_R - y_.segment<3>(L_.Pi());
    if (!locked_) G(3 * N_ + 3) = D_.d_ds - D_.d_s - forcing_.weight_before * forcing_.f - y_(L_.ps());
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
      y_next.segment<3>(L_.p(j)) = D_.d_dq[j - 1];
    }
    const Mat3 R_next = R_ * F_;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) y_next(L_.R() + 3 * i + k) = R_next(i, k);
    y_next.segment<3>(L_.Pi()) = D_.d_F;
    y_next(L_.ps()) = locked_ ? 0.0 : D_.d_ds + forcing_.weight_after * forcing_.f;
    y_next(L_.carnot()) = y_(L_.carnot()) + forcing_.carnot / h_ * ds_;
    y_next(L_.control()) = y_(L_.control()) + p_.u / p_.d * ds_;
  }

 private:
  void evaluate(const Eigen::VectorXd& x) {
    for (int j = 2; j <= N_ + 1; ++j) dq_[j - 1] = x.segment<3>(3 * (j - 2));
    F_ = so3::cayley(x.segment<3>(3 * N_));
    ds_ = locked_ ? 0.0 : x(3 * N_ + 3);
    const StepConfiguration cfg{s_, ds_, q_, dq_, R_, F_, h_};
    discrete_lagrangian_derivatives(mech_, cfg, D_);
    forcing_ = locked_ ? DiscreteForcing{} : discrete_forcing(mech_, cfg);
  }

  const LieGroupForm& form_;
  const Mechanics& mech_;
  const Parameters& p_;
  const Layout L_;
  const int N_;
  const bool locked_;
  const Mat3 Jd_;
  Eigen::VectorXd y_;
  double h_ = 0.0, s_ = 0.0, ds_ = 0.0;
  DiscreteForcing forcing_;
  std::vector<Vec3> q_, dq_;
  Mat3 R_ = Mat3::Identity(), F_ = Mat3::Identity();
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
