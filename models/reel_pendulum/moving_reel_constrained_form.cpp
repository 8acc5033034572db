// Model B with a moving reel as a constrained mechanical system in natural coordinates with a
// configuration-dependent mass matrix (forms.hpp; core/formulation.hpp, "configuration-dependent
// mass matrix"), for RATTLE and generalized-alpha.
//
// Coordinates q = [q_2..q_{N+1} (3N), s (1) | x_c (3), R (9)]: the string nodes and the reel
// coordinate s = s_p in the string-and-reel index space of Mechanics (the nodes' block and the
// reel entry last), then the body by its centre of mass and R as 9 numbers, as in Model A's
// constrained form (models/string_pendulum/constrained_form.cpp). Constraints (9):
//   C = q_{N+1} - x_c + R rho_c = 0 (the attachment, linear in q),   R^T R - I = 0 (6).
// Kinetic energy T = 1/2 v^T M(q) v with
//   M(q) = A(s, q_2..q_{N+1}) (+) M I3 (+) I3 (x) J_d,
// A the string-and-reel matrix of seed 002 (29)-(30) (Mechanics::assemble_string_reel_mass_matrix:
// element mass mu l, l = (L - s)/N, bordered by s through M23, M31; corner mu s + kappa_d +
// mu l sum m3): AFFINE in (s, q), which the schemes' increment form uses: (M(q + dq) - M(q)) v is
// its derivative along dq, exactly. The body's part is constant (T_body = 1/2 M |x_c'|^2 +
// 1/2 tr(R' J_d R'^T), J_d the non-standard inertia about the centre of mass): the body of seed
// 002 (31) written about its centre of mass, equal on C = 0.
// Forces, split as the schemes need them (core/formulation.hpp):
//   applied  f_a = -dV/dq (string gravity and elasticity (33), the reel's potential, the body's
//            weight M g e3 at x_c) + (Q + u/d) on s (Carnot loss (21), control moment);
//   inertial dT/dq - (dM/dq v) v (the velocity-quadratic terms of A(s, q));
//   force()  f = f_a + dT/dq - (dM/dq v) v = Mechanics::string_reel_forces h (+ the weight),
// so M(q) q'' = f - G^T lambda are the Euler-Lagrange equations of the ODE and DAE forms.
// The Carnot and control works W_c' = Q sdot, W_u' = (u/d) sdot ride along (work terms).
//
// Saddle-point solve [M(q_a), G(q_b)^T; G(q_a), 0] [x; lambda] = [r; s] in O(N): as Model A's
// form with the bordered block-tridiagonal A(q_a) (numerics/bordered_block_tridiagonal.hpp) in
// place of the constant string mass: A factored per call of factor() (its border depends on the
// nodes), W = A^{-1} E for the end node's three columns E, the body's block in closed form
// (NaturalRigidBody::Solver), and the attachment's multipliers by a 3x3 Schur complement.
//
// The reel's deployed length L - s must stay in (0, L - b]: outside, the string has no
// elements (l <= 0, A singular) or would have left the drum's guide way (s < b, where the drum
// geometry of the reel's potential does not hold). why_not_admissible(q) says which, and the
// schemes fail with it (a result of the run, not a clamp).

#include <cmath>
#include <utility>

#include "core/format.hpp"
#include "mechanics/attached_body_dae.hpp"
#include "models/reel_pendulum/forms.hpp"
#include "models/reel_pendulum/string_reel_tangents.hpp"

namespace tb::reel_pendulum {

namespace {

using dae::add_block;  // the nonzeros of a 3x3 block (mechanics/attached_body_dae.hpp)

class Solver final : public ConstrainedMechanicalSolver {
 public:
  explicit Solver(const MovingReelConstrainedForm& form) : form_(form), body_(form.body()) {
    W_.resize(form.reel() + 1, 3);
  }

  bool factor(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b) override {
    const int rot = form_.rotation(), n = form_.reel() + 1;
    if (!form_.why_not_admissible(q_a).empty()) return false;
    form_.load(q_a, nullptr, state_);
    form_.mechanics().assemble_string_reel_mass_matrix(state_, mass_);
    if (!mass_.factor()) return false;
    for (int k = 0; k < 3; ++k) {
      Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
      e(form_.end_node() + k) = 1.0;
      mass_.solve_in_place(e);
      W_.col(k) = e;
    }
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
    const int n = form_.reel() + 1;
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
  const MovingReelConstrainedForm& form_;
  NaturalRigidBody::Solver body_;
  State state_;
  BorderedBlockTridiagonal3 mass_;
  Eigen::MatrixXd W_;  // A^{-1} E ((3N + 1) x 3)
  Mat3 X_[3];
  Vec6 mu_[3];
  Eigen::PartialPivLU<Mat3> lu_;
};

}  // namespace

MovingReelConstrainedForm::MovingReelConstrainedForm(const Parameters& p, const InitialCondition& ic)
    : mech_(p), ic_(ic), body_(dae::inertia_about_centre_of_mass(p.M, p.rho_c, p.J)) {
  q0_ = initial_state().head(positions());
}

void MovingReelConstrainedForm::load(const Eigen::VectorXd& q, const Eigen::VectorXd* v, State& st) const {
  const int N = mech_.params().N;
  st.q.resize(N + 1);
  st.v.resize(N + 1);
  st.q[0].setZero();
  st.v[0].setZero();
  for (int j = 2; j <= N + 1; ++j) {
    st.q[j - 1] = q.segment<3>(3 * (j - 2));
    st.v[j - 1] = v ? Vec3(v->segment<3>(3 * (j - 2))) : Vec3::Zero();
  }
  st.s = q(reel());
  st.sdot = v ? (*v)(reel()) : 0.0;
}

std::string MovingReelConstrainedForm::why_not_admissible(const Eigen::VectorXd& q) const {
  const Parameters& p = mech_.params();
  const double s = q(reel());
  if (!std::isfinite(s)) return "the reel coordinate s_p is not finite";
  if (s >= p.L)
    return "the string is fully reeled in: s_p = " + format_g(s, 6) + " m reached the total length L = " +
           format_g(p.L) + " m (no deployed elements: l = (L - s_p)/N <= 0, the mass matrix is singular)";
  if (s < p.b)
    return "the string's drum end passed the guide way: s_p = " + format_g(s, 6) + " m < b = " + format_g(p.b) +
           " m (the model's drum geometry holds for s_p in [b, L) only)";
  return "";
}

Eigen::VectorXd MovingReelConstrainedForm::initial_state() const {
  const int N = mech_.params().N, nq = positions();
  const State s = mech_.initial_state(ic_);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * nq + work_terms());
  for (int j = 2; j <= N + 1; ++j) {
    y.segment<3>(3 * (j - 2)) = s.q[j - 1];
    y.segment<3>(nq + 3 * (j - 2)) = s.v[j - 1];
  }
  y(reel()) = s.s;
  y(nq + reel()) = s.sdot;
  // The body placed on the string's end: x_c = q_{N+1} + R rho_c, x_c' = v_{N+1} + R (Omega x rho_c).
  y.segment<3>(centre()) = s.q[N] + s.R * rho_c();
  y.segment<3>(nq + centre()) = s.v[N] + s.R * s.Omega.cross(rho_c());
  NaturalRigidBody::write(s.R, y, rotation());
  NaturalRigidBody::write(s.R * so3::hat(s.Omega), y, nq + rotation());
  y(2 * nq) = s.carnot_work;
  y(2 * nq + 1) = s.control_work;
  return y;
}

State MovingReelConstrainedForm::to_physical(const Eigen::VectorXd& y) const {
  const int nq = positions();
  State s;
  const Eigen::VectorXd v = y.segment(nq, nq);
  load(y.head(nq), &v, s);  // the attachment point is the string's end node (up to C, which observe() reports)
  s.R = NaturalRigidBody::read(y, rotation());
  s.Omega = NaturalRigidBody::angular_velocity(s.R, NaturalRigidBody::read(y, nq + rotation()));
  s.carnot_work = y(2 * nq);
  s.control_work = y(2 * nq + 1);
  return s;
}

Observation MovingReelConstrainedForm::observe(double, const Eigen::VectorXd& y) const {
  // The model's observables of the physical state (the body's kinetic energy through the end
  // node and Omega, equal to the natural coordinates' on the constraints), plus the attachment
  // constraint |C| and its rate |C'| (m, m/s), as the DAE form reports them.
  const int nq = positions();
  Observation o = mech_.observe(to_physical(y));
  Eigen::VectorXd g, Gv;
  constraint(y.head(nq), g);
  constraint_jacobian_times(y.head(nq), y.segment(nq, nq), Gv);
  o.constraint_err = g.head<3>().norm();
  o.constraint_rate_err = Gv.head<3>().norm();
  return o;
}

// ---- Mass matrix ----

void MovingReelConstrainedForm::mass_times_at(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const {
  const int n = reel() + 1;
  load(q, nullptr, state_);
  mech_.assemble_string_reel_mass_matrix(state_, mass_);
  Mv.resize(positions());
  Mv.head(n) = mass_.multiply(v.head(n));
  Mv.segment<3>(centre()) = mech_.params().M * v.segment<3>(centre());
  NaturalRigidBody::write(body_.mass_times(NaturalRigidBody::read(v, rotation())), Mv, rotation());
}

void MovingReelConstrainedForm::mass_entries_at(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& e) const {
  const int N = mech_.params().N, S = reel();
  load(q, nullptr, state_);
  mech_.assemble_string_reel_mass_matrix(state_, mass_);
  const BlockTridiagonal3& T = std::as_const(mass_).core();
  for (int i = 0; i < N; ++i) {
    add_block(e, 3 * i, 3 * i, T.diag(i));
    if (i > 0) add_block(e, 3 * i, 3 * (i - 1), T.lower(i));
    if (i + 1 < N) add_block(e, 3 * i, 3 * (i + 1), T.upper(i));
  }
  const Eigen::VectorXd& b = std::as_const(mass_).border_column();
  for (int i = 0; i < 3 * N; ++i)
    if (b(i) != 0.0) {
      e.emplace_back(i, S, b(i));
      e.emplace_back(S, i, b(i));
    }
  e.emplace_back(S, S, std::as_const(mass_).corner());
  for (int k = 0; k < 3; ++k) e.emplace_back(centre() + k, centre() + k, mech_.params().M);
  body_.mass_entries(rotation(), e);
}

void MovingReelConstrainedForm::mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const { mass_times_at(q0_, v, Mv); }
void MovingReelConstrainedForm::mass_entries(std::vector<Eigen::Triplet<double>>& e) const { mass_entries_at(q0_, e); }

void MovingReelConstrainedForm::mass_times_jacobian_entries(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                                  std::vector<Eigen::Triplet<double>>& entries) const {
  // Only A(s, q) depends on the configuration; the string-and-reel block of q is the tangents'
  // index space, so their entries go in unchanged.
  load(q, nullptr, state_);
  z_ = a.head(reel() + 1);
  StringReelTangents(mech_).mass_times_jacobian(state_, z_, entries);
}

void MovingReelConstrainedForm::mass_change_times(const Eigen::VectorXd& q, const Eigen::VectorXd& dq, const Eigen::VectorXd& v,
                                        Eigen::VectorXd& out) const {
  // A is affine in (s, q): A(q + dq) - A(q) = dA/dq[dq], so (A(q + dq) - A(q)) v is the
  // derivative of A(q) v along dq, formed from dq itself (no difference of O(1) products).
  tangent_.clear();
  mass_times_jacobian_entries(q, v, tangent_);
  out.setZero(positions());
  for (const auto& e : tangent_) out(e.row()) += e.value() * dq(e.col());
}

void MovingReelConstrainedForm::kinetic_gradient(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& dT) const {
  load(q, &v, state_);
  mech_.string_reel_kinetic_gradient(state_, h_);
  dT.setZero(positions());
  dT.head(reel() + 1) = h_;
}

// ---- Forces ----

void MovingReelConstrainedForm::applied_force(double, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const {
  load(q, &v, state_);
  mech_.string_reel_applied_forces(state_, h_);
  f.setZero(positions());
  f.head(reel() + 1) = h_;
  f(centre() + 2) = mech_.params().M * mech_.params().g;  // weight at the centre of mass (+e3 down)
}

void MovingReelConstrainedForm::force(double, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const {
  load(q, &v, state_);
  mech_.string_reel_forces(state_, h_);
  f.setZero(positions());
  f.head(reel() + 1) = h_;
  f(centre() + 2) = mech_.params().M * mech_.params().g;
}

void MovingReelConstrainedForm::power(double, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& P) const {
  load(q, &v, state_);
  P.resize(2);
  P(0) = mech_.carnot_force(state_) * state_.sdot;                 // Carnot power (21)
  P(1) = mech_.params().u / mech_.params().d * state_.sdot;      // control power
}

double MovingReelConstrainedForm::potential_energy(const Eigen::VectorXd& q) const {
  // Mechanics' V has the body's weight at the attachment point + R rho_c; here it acts at x_c
  // (the same on C = 0): with R = 0 that term is -M g e3.q_{N+1}, which is exchanged for x_c's.
  load(q, nullptr, state_);
  state_.R = Mat3::Zero();
  const double Mg = mech_.params().M * mech_.params().g;
  return mech_.potential_energy(state_) + Mg * state_.q[mech_.params().N].z() - Mg * q(centre() + 2);
}

void MovingReelConstrainedForm::force_jacobian_entries(double, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                             std::vector<Eigen::Triplet<double>>& dfdq,
                                             std::vector<Eigen::Triplet<double>>& dfdv) const {
  // f's string-and-reel rows are h: its tangents in their own index space (the head of q, v).
  // The weight is constant.
  load(q, &v, state_);
  StringReelTangents(mech_).force_jacobian(state_, dfdq, dfdv);
}

void MovingReelConstrainedForm::constraint_force_jacobian_entries(const Eigen::VectorXd&, const Eigen::VectorXd& lambda,
                                                        std::vector<Eigen::Triplet<double>>& entries) const {
  attachment().force_jacobian_entries(lambda, entries);
}

// ---- Constraints: the body on the string's end (mechanics/attachment_constraint.hpp) ----

AttachmentConstraint MovingReelConstrainedForm::attachment() const {
  return {end_node(), centre(), rotation(), rho_c(), mech_.params().L};
}

void MovingReelConstrainedForm::constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const { attachment().value(q, g); }

Eigen::VectorXd MovingReelConstrainedForm::constraint_scale() const { return attachment().scale(); }

void MovingReelConstrainedForm::constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& e) const {
  attachment().jacobian(q, e);
}

void MovingReelConstrainedForm::constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                Eigen::VectorXd& Gv) const {
  attachment().jacobian_times(q, v, Gv);
}

void MovingReelConstrainedForm::constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                                          Eigen::VectorXd& out) const {
  attachment().jacobian_transpose_times(q, lambda, positions(), out);
}

std::unique_ptr<ConstrainedMechanicalSolver> MovingReelConstrainedForm::make_solver() const {
  return std::make_unique<Solver>(*this);
}

}  // namespace tb::reel_pendulum
