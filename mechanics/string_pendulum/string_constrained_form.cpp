// Model A as a constrained mechanical system in natural coordinates (string_constrained_form.hpp),
// for RATTLE and the alpha methods.
//
// Saddle-point solve [M, G(q_b)^T; G(q_a), 0] [x; lambda] = [r; s] in O(N). Unknowns: string
// x_s (3N), centre of mass x_x, rotation X (3x3), attachment multipliers l (3) and the body's
// orthonormality multipliers mu (6). Rows (G^T of C = r_{N+1} - x_c + R rho_c puts +l on
// r_{N+1}, -l on x_c and l rho_c^T on R):
//   M_s x_s + E l = r_s,   M x_x - l = r_x,   X J_d + l rho_c^T + R_b L(mu) = Y,
//   E^T x_s - x_x + X rho_c = s_C,   G_R(R_a) X = s_R,
// with E the end node's 3 columns. For given l: x_s = M_s^{-1} r_s - W l (W = M_s^{-1} E,
// constant, computed once), x_x = (r_x + l)/M, and the body's block (NaturalRigidBody::Solver)
// is linear in its right-hand side: X = X_0 - sum_k l_k X_k with X_k its solution for
// Y = e_k rho_c^T, s_R = 0 (three solves per factorisation). The attachment rows then give the
// 3x3 system
//   (W_end + I/M + [X_1 rho_c, X_2 rho_c, X_3 rho_c]) l = u_end - r_x/M + X_0 rho_c - s_C,
// u = M_s^{-1} r_s. Per solve: one block-tridiagonal solve and one 6x6 body solve.

#include "mechanics/string_pendulum/string_constrained_form.hpp"

#include <cmath>

#include "mechanics/attached_body_dae.hpp"

#include <Eigen/LU>

namespace tb::string_pendulum {

namespace {

class Solver final : public ConstrainedMechanicalSolver {
 public:
  explicit Solver(const StringConstrainedForm& form) : form_(form), body_(form.body()) {
    mass_ = form.string_mass();
    mass_ok_ = mass_.factor();
    const int n = 3 * form.mechanics().params().N;
    W_.resize(n, 3);
    for (int k = 0; k < 3; ++k) {
      Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
      e(form.end_node() + k) = 1.0;
      if (mass_ok_) mass_.solve_in_place(e);
      W_.col(k) = e;
    }
  }

  bool factor(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b) override {
    if (!mass_ok_) return false;
    const int rot = form_.rotation();
    if (!body_.factor(NaturalRigidBody::read(q_a, rot), NaturalRigidBody::read(q_b, rot))) return false;
    const Vec3& rho = form_.rho_c();
    Mat3 S = W_.block<3, 3>(form_.end_node(), 0) + Mat3::Identity() / form_.mechanics().params().M;
    for (int k = 0; k < 3; ++k) {
      body_.solve(Vec3::Unit(k) * rho.transpose(), Vec6::Zero(), X_[k], mu_[k]);
      S.col(k) += X_[k] * rho;
    }
    lu_.compute(S);
    return S.allFinite() && std::abs(S.determinant()) > 1e-14 * std::pow(S.norm(), 3);
  }

  void solve(const Eigen::VectorXd& r, const Eigen::VectorXd& s, Eigen::VectorXd& x, Eigen::VectorXd& lambda) override {
    const int n = 3 * form_.mechanics().params().N;
    const double M = form_.mechanics().params().M;
    const Vec3& rho = form_.rho_c();
    Eigen::VectorXd u = r.head(n);
    mass_.solve_in_place(u);
    Mat3 X0;
    Vec6 mu0;
    body_.solve(NaturalRigidBody::read(r, form_.rotation()), Vec6(s.segment<6>(3)), X0, mu0);
    const Vec3 r_x = r.segment<3>(form_.centre());
    const Vec3 l = lu_.solve(Vec3(u.segment<3>(form_.end_node()) - r_x / M + X0 * rho - s.head<3>()));
    x.resize(r.size());
    x.head(n) = u - W_ * l;
    x.segment<3>(form_.centre()) = (r_x + l) / M;
    Mat3 X = X0;
    Vec6 mu = mu0;
    for (int k = 0; k < 3; ++k) {
      X -= l(k) * X_[k];
      mu -= l(k) * mu_[k];
    }
    NaturalRigidBody::write(X, x, form_.rotation());
    lambda.resize(9);
    lambda.head<3>() = l;
    lambda.tail<6>() = mu;
  }

 private:
  const StringConstrainedForm& form_;
  NaturalRigidBody::Solver body_;
  BlockTridiagonal3 mass_;
  bool mass_ok_ = false;
  Eigen::MatrixXd W_;  // M_s^{-1} E (3N x 3)
  Mat3 X_[3];
  Vec6 mu_[3];
  Eigen::PartialPivLU<Mat3> lu_;
};

}  // namespace

StringConstrainedForm::StringConstrainedForm(const Parameters& p, const InitialCondition& ic)
    : mech_(p), ic_(ic), body_(dae::inertia_about_centre_of_mass(p.M, p.rho_c, p.J)) {
  mech_.assemble_string_mass_matrix(string_mass_);
  r_.assign(p.N + 1, Vec3::Zero());
}

Eigen::VectorXd StringConstrainedForm::initial_state() const {
  const int N = mech_.params().N, nq = positions();
  const State s = mech_.initial_state(ic_);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * nq);
  for (int a = 2; a <= N + 1; ++a) {
    y.segment<3>(3 * (a - 2)) = s.r[a - 1];
    y.segment<3>(nq + 3 * (a - 2)) = s.v[a - 1];
  }
  // The body placed on the string's end: x_c = r_{N+1} + R rho_c, x_c' = v_{N+1} + R (Omega x rho_c).
  y.segment<3>(centre()) = s.r[N] + s.R * rho_c();
  y.segment<3>(nq + centre()) = s.v[N] + s.R * s.Omega.cross(rho_c());
  NaturalRigidBody::write(s.R, y, rotation());
  NaturalRigidBody::write(s.R * so3::hat(s.Omega), y, nq + rotation());
  return y;
}

State StringConstrainedForm::to_physical(const Eigen::VectorXd& y) const {
  const int N = mech_.params().N, nq = positions();
  State s;
  s.r.assign(N + 1, Vec3::Zero());
  s.v.assign(N + 1, Vec3::Zero());
  for (int a = 2; a <= N + 1; ++a) {
    s.r[a - 1] = y.segment<3>(3 * (a - 2));
    s.v[a - 1] = y.segment<3>(nq + 3 * (a - 2));
  }
  s.R = NaturalRigidBody::read(y, rotation());
  s.Omega = NaturalRigidBody::angular_velocity(s.R, NaturalRigidBody::read(y, nq + rotation()));
  return s;
}

Observation StringConstrainedForm::observe(double, const Eigen::VectorXd& y) const {
  // The model's observables of the physical state (the body's kinetic energy through the end
  // node and Omega, equal to the natural coordinates' on the constraints), plus the attachment
  // constraint |C| and its rate |C'| (m, m/s), as the DAE form reports them.
  const int nq = positions();
  Observation o = mech_.observe(to_physical(y));
  Eigen::VectorXd g, Gv;
  constraint(y.head(nq), g);
  constraint_jacobian_times(y.head(nq), y.tail(nq), Gv);
  o.constraint_err = g.head<3>().norm();
  o.constraint_rate_err = Gv.head<3>().norm();
  return o;
}

void StringConstrainedForm::mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const {
  const int n = 3 * mech_.params().N;
  Mv.resize(positions());
  Mv.head(n) = string_mass_.multiply(v.head(n));
  Mv.segment<3>(centre()) = mech_.params().M * v.segment<3>(centre());
  NaturalRigidBody::write(body_.mass_times(NaturalRigidBody::read(v, rotation())), Mv, rotation());
}

void StringConstrainedForm::mass_entries(std::vector<Eigen::Triplet<double>>& e) const {
  const int N = mech_.params().N;
  auto add = [&](int row, int col, const Mat3& B) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (B(i, j) != 0.0) e.emplace_back(row + i, col + j, B(i, j));
  };
  for (int i = 0; i < N; ++i) {
    add(3 * i, 3 * i, string_mass_.diag(i));
    if (i > 0) add(3 * i, 3 * (i - 1), string_mass_.lower(i));
    if (i + 1 < N) add(3 * i, 3 * (i + 1), string_mass_.upper(i));
  }
  for (int k = 0; k < 3; ++k) e.emplace_back(centre() + k, centre() + k, mech_.params().M);
  body_.mass_entries(rotation(), e);
}

void StringConstrainedForm::force(double, const Eigen::VectorXd& q, const Eigen::VectorXd&, Eigen::VectorXd& f) const {
  const int N = mech_.params().N;
  for (int a = 2; a <= N + 1; ++a) r_[a - 1] = q.segment<3>(3 * (a - 2));
  Eigen::VectorXd fs;
  mech_.string_forces(r_, fs);
  f.setZero(positions());
  f.head(3 * N) = fs;
  f(centre() + 2) = mech_.params().M * mech_.params().g;  // weight at the centre of mass (+e3 down)
}

void StringConstrainedForm::force_jacobian_entries(double, const Eigen::VectorXd& q, const Eigen::VectorXd&,
                                             std::vector<Eigen::Triplet<double>>& dfdq,
                                             std::vector<Eigen::Triplet<double>>&) const {
  // f_a = F(x_a) - F(x_{a-1}) on node a = 2..N+1, x_a = r_{a+1} - r_a (element a; none past the
  // attachment), r_1 = 0 fixed; with K = dF/dx: df_a/dr_a = -K(x_a) - K(x_{a-1}),
  // df_a/dr_{a+1} = K(x_a), df_a/dr_{a-1} = K(x_{a-1}). Gravity is constant.
  const int N = mech_.params().N;
  auto add = [&](int row, int col, const Mat3& B) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) dfdq.emplace_back(row + i, col + j, B(i, j));
  };
  auto node = [&](int a) { return a == 1 ? Vec3(Vec3::Zero()) : Vec3(q.segment<3>(3 * (a - 2))); };
  for (int e = 1; e <= N; ++e) {  // element e from node e to node e + 1
    const Mat3 K = mech_.element_stiffness(node(e + 1) - node(e));
    const int hi = 3 * (e - 1);  // node e + 1
    add(hi, hi, -K);
    if (e >= 2) {
      const int lo = 3 * (e - 2);  // node e
      add(lo, lo, -K);
      add(lo, hi, K);
      add(hi, lo, K);
    }
  }
}

void StringConstrainedForm::constraint_force_jacobian_entries(const Eigen::VectorXd&, const Eigen::VectorXd& lambda,
                                                        std::vector<Eigen::Triplet<double>>& entries) const {
  attachment().force_jacobian_entries(lambda, entries);
}

// ---- Constraints: the body on the string's end (mechanics/attachment_constraint.hpp) ----

AttachmentConstraint StringConstrainedForm::attachment() const {
  return {end_node(), centre(), rotation(), rho_c(), mech_.params().length};
}

void StringConstrainedForm::constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const { attachment().value(q, g); }

Eigen::VectorXd StringConstrainedForm::constraint_scale() const { return attachment().scale(); }

void StringConstrainedForm::constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& e) const {
  attachment().jacobian(q, e);
}

void StringConstrainedForm::constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                Eigen::VectorXd& Gv) const {
  attachment().jacobian_times(q, v, Gv);
}

void StringConstrainedForm::constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                                          Eigen::VectorXd& out) const {
  attachment().jacobian_transpose_times(q, lambda, positions(), out);
}

std::unique_ptr<ConstrainedMechanicalSolver> StringConstrainedForm::make_solver() const {
  return std::make_unique<Solver>(*this);
}

}  // namespace tb::string_pendulum
