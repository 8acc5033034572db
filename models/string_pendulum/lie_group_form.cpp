// Model A's Lie group variational integrator in position-momentum form.
//
// From the discrete Lagrangian L_d(g_k, f_k) of seed 000 (17)-(19), with g = (r, R) and
// f = (dr, F), the discrete Euler-Lagrange equations (20) split into the discrete Legendre
// transforms (seed 003 Algorithm 1 is the same construction):
//   p_k  = D_dr L_d - D_r L_d                                   (translational, nodes 2..N+1)
//   Pi_k = F_k (T*L_F D_F L_d) - T*L_R D_R L_d                  (Ad*_{F^T} of (27) minus (29))
//   p_{k+1} = D_dr L_d,   Pi_{k+1} = T*L_F D_F L_d,   r_{k+1} = r_k + dr,   R_{k+1} = R_k F_k.
// Shifting the index and eliminating the momenta gives back the paper's (30)-(34). The start
// needs no second configuration: p_0, Pi_0 come from the initial velocities through the
// continuous Legendre transform.
//
// Unknowns x = [dr_2..dr_{N+1}, c] with F = Cay(c). The translational equations are linear
// in dr (the strain gradients at k+1 cancel between D_dr and D_r), so the Newton matrix is
// the consistent mass matrix / h, plus the body coupling: block-tridiagonal with N+1 blocks,
// solved in O(N).

#include <cmath>

#include "models/string_pendulum/forms.hpp"

namespace tb::string_pendulum {

using so3::hat;

namespace {

void read_configuration(const Eigen::VectorXd& y, int N, std::vector<Vec3>& r, Mat3& R) {
  r.assign(N + 1, Vec3::Zero());
  for (int a = 2; a <= N + 1; ++a) r[a - 1] = y.segment<3>(3 * (a - 2));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = y(3 * N + 3 * i + j);
}

class StringPendulumStep final : public DiscreteLieGroupStep {
 public:
  explicit StringPendulumStep(const LieGroupForm& form)
      : form_(form), p_(form.mechanics().params()), N_(p_.N), Jd_(so3::nonstandard_inertia(p_.J)) {
    dr_.assign(N_ + 1, Vec3::Zero());
  }

  int unknowns() const override { return 3 * N_ + 3; }

  void begin(const Eigen::VectorXd& y, double h) override {
    y_ = y;
    h_ = h;
    read_configuration(y, N_, r_, R_);
    momenta_ = y.segment(3 * N_ + 9, 3 * N_ + 3);
  }

  void initial_guess(Eigen::VectorXd& x) const override {
    // dr ~ h v and F ~ exp(h hat(Omega)), i.e. c ~ h Omega / 2 (Cay(c) rotates by 2 atan|c|).
    const State s = form_.to_physical(y_);
    x.resize(unknowns());
    for (int a = 2; a <= N_ + 1; ++a) x.segment<3>(3 * (a - 2)) = h_ * s.v[a - 1];
    x.segment<3>(3 * N_) = 0.5 * h_ * s.Omega;
  }

  void residual(const Eigen::VectorXd& x, Eigen::VectorXd& G) override {
    evaluate(x);
    G.resize(unknowns());
    for (int a = 2; a <= N_ + 1; ++a)
      G.segment<3>(3 * (a - 2)) = D_.d_dr[a - 1] - D_.d_r[a - 1] - momenta_.segment<3>(3 * (a - 2));
    G.segment<3>(3 * N_) = F_ * D_.d_F - D_.d_R - momenta_.segment<3>(3 * N_);
  }

  bool newton_correction(const Eigen::VectorXd& x, const Eigen::VectorXd& G, Eigen::VectorXd& dx) override {
    const double m = p_.m(), h = h_;
    const Mat3 I = Mat3::Identity();
    const Vec3 c = x.segment<3>(3 * N_);
    const Mat3 F = so3::cayley(c);
    const Mat3 T = so3::cayley_left_jacobian(c);  // F^T dF = hat(T dc)
    A_.resize(N_ + 1);
    for (int i = 0; i < N_; ++i) {
      A_.diag(i) = (4.0 * m / (6.0 * h)) * I;
      if (i > 0) A_.lower(i) = (m / (6.0 * h)) * I;
      if (i + 1 < N_) A_.upper(i) = (m / (6.0 * h)) * I;
    }
    A_.diag(N_ - 1) = ((p_.M + m / 3.0) / h) * I;
    // d/dc of M/h R (F - I) rho_c: dF rho_c = F hat(T dc) rho_c = -F hat(rho_c) T dc.
    A_.upper(N_ - 1) = -p_.M / h * R_ * F * hat(p_.rho_c) * T;
    // d/d(dr_{N+1}) of the rotational equation: the F-dependence cancels, leaving M/h hat(rho_c) R^T.
    A_.lower(N_) = p_.M / h * hat(p_.rho_c) * R_.transpose();
    // d/dc of (1/h) vee(F Jd - Jd F^T): column i is (1/h) vee(F hat(e_i) Jd + Jd hat(e_i) F^T), times T.
    A_.diag(N_) = so3::rotational_momentum_jacobian(F, Jd_, c, h);
    if (!A_.factor()) return false;
    dx = -G;
    A_.solve_in_place(dx);
    return true;
  }

  void complete(const Eigen::VectorXd& x, Eigen::VectorXd& y_next) override {
    evaluate(x);
    y_next.resize(y_.size());
    for (int a = 2; a <= N_ + 1; ++a) {
      y_next.segment<3>(3 * (a - 2)) = r_[a - 1] + dr_[a - 1];
      y_next.segment<3>(3 * N_ + 9 + 3 * (a - 2)) = D_.d_dr[a - 1];  // p_{k+1} = D_dr L_d
    }
    const Mat3 R_next = R_ * F_;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) y_next(3 * N_ + 3 * i + j) = R_next(i, j);
    y_next.segment<3>(6 * N_ + 9) = D_.d_F;  // Pi_{k+1} = T*L_F D_F L_d
  }

 private:
  void evaluate(const Eigen::VectorXd& x) {
    for (int a = 2; a <= N_ + 1; ++a) dr_[a - 1] = x.segment<3>(3 * (a - 2));
    F_ = so3::cayley(x.segment<3>(3 * N_));
    discrete_lagrangian_derivatives(p_, StepConfiguration{r_, dr_, R_, F_, h_}, D_);
  }

  const LieGroupForm& form_;
  const Parameters& p_;
  const int N_;
  const Mat3 Jd_;
  Eigen::VectorXd y_, momenta_;
  double h_ = 0.0;
  std::vector<Vec3> r_, dr_;
  Mat3 R_ = Mat3::Identity(), F_ = Mat3::Identity();
  DiscreteLagrangianDerivatives D_;
  BlockTridiagonal3 A_;
};

}  // namespace

LieGroupForm::LieGroupForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}

Eigen::VectorXd LieGroupForm::initial_state() const { return from_physical(mech_.initial_state(ic_)); }

State LieGroupForm::to_physical(const Eigen::VectorXd& y) const {
  const int N = mech_.params().N;
  State s;
  read_configuration(y, N, s.r, s.R);
  mech_.set_velocities_from_momenta(y.segment(3 * N + 9, 3 * N + 3), s);
  return s;
}

Eigen::VectorXd LieGroupForm::from_physical(const State& s) const {
  const int N = mech_.params().N;
  Eigen::VectorXd y(6 * N + 12);
  for (int a = 2; a <= N + 1; ++a) y.segment<3>(3 * (a - 2)) = s.r[a - 1];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) y(3 * N + 3 * i + j) = s.R(i, j);
  y.segment(3 * N + 9, 3 * N + 3) = mech_.momenta(s);
  return y;
}

Observation LieGroupForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  // Energy is H(q, p) and pi3 = e3 . (sum r_a x p_a + R Pi): the discrete momentum map, since
  // the velocities are the exact inverse Legendre transform of the discrete momenta.
  return mech_.observe(to_physical(y));
}

Eigen::VectorXd LieGroupForm::physical_state(const Eigen::VectorXd& y) const { return mech_.pack(to_physical(y)); }

std::unique_ptr<DiscreteLieGroupStep> LieGroupForm::make_step() const { return std::make_unique<StringPendulumStep>(*this); }

}  // namespace tb::string_pendulum
