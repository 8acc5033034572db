// Model A's Lie group variational integrator in position-momentum form.
//
// From the discrete Lagrangian L_d(g_k, f_k) of seed 000 (17)-(19), with g = (r, R) and
// f = (dr, F), the discrete Euler-Lagrange equations (20) split into the discrete Legendre
// transforms (seed 003 Algorithm 1, (7)-(8), is the same construction):
//   p_k  = D_dr L_d - D_r L_d                                   (translational, nodes 2..N+1)
//   Pi_k = F_k (T*L_F D_F L_d) - T*L_R D_R L_d                  (Ad*_{F^T} of (27), i.e. (28), minus (29))
//   p_{k+1} = D_dr L_d,   Pi_{k+1} = T*L_F D_F L_d,   r_{k+1} = r_k + dr,   R_{k+1} = R_k F_k.
// Shifting the index and eliminating the momenta gives back the paper's (30)-(34). The start
// needs no second configuration: p_0, Pi_0 come from the initial velocities through the
// continuous Legendre transform.
//
// Unknowns x = [dr_2..dr_{N+1}, c] with F = Cay(c). The translational equations are linear
// in dr (the strain gradients at k+1 cancel between D_dr and D_r), so the Newton matrix is
// the consistent mass matrix / h, plus the body coupling: block-tridiagonal with N+1 blocks,
// solved in O(N).
//
// Increment form. F_k = I + O(h), so every F-dependent term is formed from E = F - I =
// 2 (hat(c) + hat(c)^2) / (1 + |c|^2) computed from c (so3::cayley_minus_identity), never as
// F - I or as a difference of O(1) products of F that stands for an O(h) quantity:
//  * D_dr L_d depends on F only through (M/h) R_k (F_k - I) rho_c (seed 000 (18), (25)), and
//    D_r L_d not at all ((24), (26)). The derivatives (discrete_lagrangian.cpp) are evaluated
//    at F = I, where that term vanishes exactly, and it is added here as (M/h) R (E rho_c):
//    formed from F it costs eps M |rho_c| / h in an O(M |v|) momentum.
//  * The rotational row. By (28), F (T*L_F D_F L_d) = (1/h) vee(F Jd - Jd F^T) + (F rho_c) x A,
//    A = (M/h) R^T dr + (h/2) M g R^T e3, and by (29)
//    T*L_R D_R L_d = (M/h) (E rho_c) x R^T dr + (h/2) M g (rho_c + F rho_c) x R^T e3. With
//    F rho_c = rho_c + E rho_c their F-dependent parts cancel identically, so the row is
//      (1/h) vee(F Jd - Jd F^T) + rho_c x ((M/h) R^T dr - (h/2) M g R^T e3) - Pi_k = 0,
//    whose dr- and c-derivatives are the Newton matrix's blocks below. vee(F Jd - Jd F^T) =
//    vee(E Jd - Jd E^T) is O(h) while F Jd and Jd F^T are O(1) (error eps |Jd| / h in an
//    O(|J Omega|) momentum); so3::cayley_momentum forms (2/(h s)) (J c + c x J c) from c.
//    The row itself is an O(1) momentum balance: its terms summing to zero is the equation.
//  * The update (seed 000 (33), (34); seed 003 Algorithm 1's "propagate momentum"): at the
//    solution the transforms give
//      p_{k+1} = D_dr L_d = p_k + D_r L_d,
//      Pi_{k+1} = T*L_F D_F L_d = F^T (Pi_k + T*L_R D_R L_d),
//    the O(1) momentum plus the step's O(h) impulse (gravity, strain; (29)'s torque), rounded
//    relative to each momentum. p_{k+1} from D_dr L_d re-forms the momentum from dr / h and
//    carries the residual G that Newton stopped at (and into the momentum map pi3,
//    e3 . sum r_k x G; the increment form leaves e3 . sum dr x G, O(h) smaller). F^T w is formed
//    as w + E^T w (so3::cayley_transpose_increment), R_{k+1} = R_k + R_k E (so3::times_cayley):
//    the same products, rounded relative to the increments, not to |w| and |R| = 1.
//
// Round-off floor (DiscreteLieGroupStep::residual_magnitudes), component-wise, row by row:
//   node a:   sum over its elements e of (m/(6|h|)) (2|dr_a| + |dr_b|)  [inertia, (22)]
//             + (3/4) |h| m g e3                                         [gravity in D_dr and D_r]
//             + (|h|/2) kappa (1 + u/|x|) |x|,  x = r_{e+1} - r_e at k   [strain at k, |x| - u by its operands]
//             + |h| |grad V^e_{k+1}|                                     [strain at k+1: the same computed
//               value enters D_dr and D_r and cancels, so its own rounding cancels; the two
//               accumulations leave eps h/2 |grad V^e_{k+1}| each]
//             + |p_a|; and at node N+1 also (M/|h|) (|dr| + |R| |E| |rho_c|) + (3/2) |h| M g e3.
//   rotation: so3::cayley_momentum_magnitude(J, c, h)
//             + |rho_c| x (M/|h| |R|^T |dr| + |h|/2 M g |R^T e3|) (cross products by their products)
//             + |Pi_k|.

#include <cmath>
#include <vector>

#include "mechanics/attached_body_lgvi.hpp"
#include "models/string_pendulum/forms.hpp"

namespace tb::string_pendulum {

using so3::hat;

namespace {

const Vec3 kE3 = Vec3::UnitZ();

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
    // The floor's terms that do not depend on x (header): |p_a|, |Pi_k|, gravity, strain at k.
    const double ah = std::abs(h), kappa = p_.kappa(), u = p_.u();
    S_fixed_ = momenta_.cwiseAbs();
    const Vec3 gravity = (0.75 * ah * p_.m() * p_.g) * kE3;
    for (int a = 1; a <= N_; ++a) {
      const Vec3 x = r_[a] - r_[a - 1];
      const bool slack = element_slack(u, x, p_.tension_only);  // no strain term, no round-off of one
      const Vec3 element = gravity + (slack ? 0.0 : 0.5 * ah * kappa * (1.0 + u / x.norm())) * x.cwiseAbs();
      if (a >= 2) S_fixed_.segment<3>(3 * (a - 2)) += element;
      S_fixed_.segment<3>(3 * (a - 1)) += element;
    }
    S_fixed_.segment<3>(3 * (N_ - 1)) += (1.5 * ah * p_.M * p_.g) * kE3;
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
    G.segment<3>(3 * (N_ - 1)) += body_.translational;  // (M/h) R (F - I) rho_c of (25), from c
    G.segment<3>(3 * N_) = body_.rotational - momenta_.segment<3>(3 * N_);

    // The floor (header): the x-independent part from begin(), then inertia and strain at k+1.
    const double ah = std::abs(h_), inertia = p_.m() / (6.0 * ah), kappa = p_.kappa(), u = p_.u();
    S_ = S_fixed_;
    for (int a = 1; a <= N_; ++a) {
      const Vec3 &da = dr_[a - 1], &db = dr_[a];
      const Vec3 ada = da.cwiseAbs(), adb = db.cwiseAbs();
      const Vec3 x_next = r_[a] + db - r_[a - 1] - da;
      const double len = x_next.norm();
      const Vec3 strain_next =
          element_slack(u, x_next, p_.tension_only) ? Vec3::Zero() : Vec3((ah * kappa * std::abs(len - u) / len) * x_next.cwiseAbs());
      if (a >= 2) S_.segment<3>(3 * (a - 2)) += inertia * (2.0 * ada + adb) + strain_next;
      S_.segment<3>(3 * (a - 1)) += inertia * (ada + 2.0 * adb) + strain_next;
    }
    S_.segment<3>(3 * (N_ - 1)) += body_.translational_magnitude;
    S_.segment<3>(3 * N_) += body_.rotational_magnitude;
  }

  void residual_magnitudes(Eigen::VectorXd& S) const override { S = S_; }

  // The string's position increments are one group (metres), the Cayley parameters another.
  void unknown_groups(std::vector<int>& group) const override {
    group.assign(unknowns(), 0);
    for (int i = 0; i < 3; ++i) group[3 * N_ + i] = 1;
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
      y_next.segment<3>(3 * (a - 2)) = r_[a - 1] + dr_[a - 1];  // (33)
      // p_{k+1} = D_dr L_d = p_k + D_r L_d (header): D_r L_d is F-independent, so D_ at F = I is exact.
      y_next.segment<3>(3 * N_ + 9 + 3 * (a - 2)) = momenta_.segment<3>(3 * (a - 2)) + D_.d_r[a - 1];
    }
    const Mat3 R_next = so3::times_cayley(R_, c_);  // (34) as R_k + R_k (F_k - I)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) y_next(3 * N_ + 3 * i + j) = R_next(i, j);
    // Pi_{k+1} = F^T (Pi_k + T*L_R D_R L_d) = w + (F - I)^T w (header).
    const Vec3 w = Vec3(momenta_.segment<3>(3 * N_)) + attitude_derivative();
    y_next.segment<3>(6 * N_ + 9) = w + so3::cayley_transpose_increment(c_, w);
  }

 private:
  // dr_, c_, E_ = F - I, the string's derivatives (D_ at F = I) and the body's F-dependent terms.
  void evaluate(const Eigen::VectorXd& x) {
    for (int a = 2; a <= N_ + 1; ++a) dr_[a - 1] = x.segment<3>(3 * (a - 2));
    c_ = x.segment<3>(3 * N_);
    E_ = so3::cayley_minus_identity(c_);
    discrete_lagrangian_derivatives(p_, StepConfiguration{r_, dr_, R_, identity_, h_}, D_);
    body_ = attached_body_step_terms(body_params_, R_, dr_[N_], c_, E_, h_);
  }

  // T*L_R D_R L_d of seed 000 (29), (M/h) (E rho_c) x R^T dr + (h/2) M g (rho_c + F rho_c) x R^T e3,
  // with F rho_c = rho_c + E rho_c: O(h), formed from E. After evaluate().
  Vec3 attitude_derivative() const { return attached_body_attitude_derivative(body_params_, R_, dr_[N_], E_, h_); }

  const LieGroupForm& form_;
  const Parameters& p_;
  const int N_;
  const Mat3 Jd_;
  const Mat3 identity_ = Mat3::Identity();  // the F at which D_ is evaluated (header)
  Eigen::VectorXd y_, momenta_;
  double h_ = 0.0;
  std::vector<Vec3> r_, dr_;
  Mat3 R_ = Mat3::Identity(), E_ = Mat3::Zero();
  Vec3 c_ = Vec3::Zero();
  const AttachedBody body_params_{p_.M, p_.J, p_.rho_c, p_.g};
  AttachedBodyStepTerms body_;  // the body's terms of the last residual (mechanics/attached_body_lgvi.hpp)
  Eigen::VectorXd S_fixed_, S_;  // the floor's x-independent part (begin) and the whole (residual)
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
