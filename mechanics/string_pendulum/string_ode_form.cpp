#include "mechanics/string_pendulum/string_ode_form.hpp"

#include "numerics/block_tridiagonal.hpp"
#include "numerics/manifold_projection.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::string_pendulum {

namespace {
}  // namespace

StringOdeForm::StringOdeForm(const Parameters& p, const InitialCondition& ic, StringMass string_mass)
    : mech_(p, string_mass), ic_(ic), body_{p.M, p.rho_c, p.J, p.g} {}

Eigen::VectorXd StringOdeForm::initial_state() const { return mech_.pack(mech_.initial_state(ic_)); }

void StringOdeForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  const int N = mech_.params().N;
  mech_.unpack_into(y, state_);
  mech_.accelerations(state_, acc_);
  dydt.resize(y.size());
  dydt.segment(0, 3 * N) = y.segment(3 * N, 3 * N);    // rdot = v
  dydt.segment(3 * N, 3 * N) = acc_.segment(0, 3 * N);  // vdot
  const Mat3 Rdot = state_.R * so3::hat(state_.Omega);  // seed 000 eq. (1)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) dydt(6 * N + 3 * i + j) = Rdot(i, j);
  dydt.segment<3>(6 * N + 9) = acc_.segment<3>(3 * N);  // Omegadot
}

// The rate rows M(R) [v'; Omega'] = f of Mechanics::accelerations, in the Lie group rate layout
// [Omega (rows 0-2), node a = 2..N+1 at rows 3 + 3 (a - 2)]:
//   node rows:       (S v')_i - (m g e3 + F_{i+2} - F_{i+1})  (the last node: m/2 g e3 - F_N)
//   attachment node and Omega row: + the body's terms (mechanics/end_body_rates.hpp, shared with
//                    Model B's reel pendulum, with their tangents in R and Omega)
// with S the string's mass matrix and F_j = F(r_{j+1} - r_j) the elastic force of element j
// (Mechanics::string_forces). Tangents along r + e dr: the elastic stiffness K_j = dF/dx of each
// element, -df/dr (block-tridiagonal).
void StringOdeForm::rate_residual(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                                  Eigen::VectorXd& r, Eigen::VectorXd& S) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  const double m = p.m();
  mech_.unpack_into(y, state_);
  const Mat3& R = state_.R;
  const Vec3& Omega = state_.Omega;
  const Vec3 Wd = vdot.head<3>();
  // Mass matrix over (nodes, Omega) in Mechanics' order times vdot in that order.
  BlockTridiagonal3& A = mass_;
  mech_.assemble_mass_matrix(R, A);
  Eigen::VectorXd &x = x_, &xa = xa_;
  x.resize(3 * (N + 1));
  x.head(3 * N) = vdot.segment(3, 3 * N);
  x.tail<3>() = Wd;
  xa = x.cwiseAbs();
  Mx_ = A.multiply(x);
  const Eigen::VectorXd& Mx = Mx_;
  BlockTridiagonal3& Aabs = mass_abs_;
  if (Aabs.blocks() != N + 1) Aabs.resize(N + 1);
  for (int i = 0; i <= N; ++i) {
    Aabs.diag(i) = A.diag(i).cwiseAbs();
    if (i > 0) Aabs.lower(i) = A.lower(i).cwiseAbs();
    if (i < N) Aabs.upper(i) = A.upper(i).cwiseAbs();
  }
  Mxa_ = Aabs.multiply(xa);
  const Eigen::VectorXd& Mxa = Mxa_;
  r.resize(3 * (N + 1));
  S.resize(3 * (N + 1));
  // Node rows. An element force F(x) = kappa (|x| - u) x / |x| is formed from x = r_{j+1} - r_j,
  // a difference of positions of size |r|: rounding them moves F by kappa eps |r| (on a fine
  // string far larger than eps |F|: kappa = EA N / l), so each force counts kappa (|r_j| + |r_{j+1}|)
  // beside |F| (the operands of the differences inside the term).
  const Vec3 grav = m * p.g * e3;
  auto operands = [&](int j) {  // element j + 1, between r[j] and r[j + 1]
    return p.kappa() * (state_.r[j].lpNorm<Eigen::Infinity>() + state_.r[j + 1].lpNorm<Eigen::Infinity>());
  };
  for (int i = 0; i < N; ++i) {
    const Vec3 Fin = mech_.element_force(state_.r[i + 1] - state_.r[i]);                         // F_{i+1}
    const Vec3 Fout = i + 1 < N ? mech_.element_force(state_.r[i + 2] - state_.r[i + 1]) : Vec3::Zero();  // F_{i+2}
    const Vec3 g_i = i + 1 < N ? grav : Vec3(0.5 * grav);
    r.segment<3>(3 + 3 * i) = Mx.segment<3>(3 * i) - (g_i + Fout - Fin);
    S.segment<3>(3 + 3 * i) = Mxa.segment<3>(3 * i) + g_i.cwiseAbs() + Fout.cwiseAbs() + Fin.cwiseAbs();
    S.segment<3>(3 + 3 * i).array() += operands(i) + (i + 1 < N ? operands(i + 1) : 0.0);
  }
  // The body's terms on the attachment node and the Omega row (mechanics/end_body_rates.hpp).
  Vec3 F_node, S_node, F_omega, S_omega;
  body_.rate_forces(R, Omega, F_node, S_node, F_omega, S_omega);
  r.segment<3>(3 * N) -= F_node;
  S.segment<3>(3 * N) += S_node;
  r.head<3>() = Mx.tail<3>() - F_omega;
  S.head<3>() = Mxa.tail<3>() + S_omega;
}

void StringOdeForm::rate_tangent_entries(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                                         std::vector<Eigen::Triplet<double>>& Me, std::vector<Eigen::Triplet<double>>& Ke,
                                         std::vector<Eigen::Triplet<double>>& Ce) const {
  const Parameters& p = mech_.params();
  const int N = p.N;
  mech_.unpack_into(y, state_);
  const Mat3& R = state_.R;
  const Vec3& Omega = state_.Omega;
  const Vec3 Wd = vdot.head<3>(), vN = vdot.segment<3>(3 + 3 * (N - 1));
  // Mechanics block b (node b + 2 for b < N, Omega for b = N) is rate block b + 1, Omega rate block 0.
  auto rate_block = [N](int b) { return b == N ? 0 : b + 1; };
  auto put = [](std::vector<Eigen::Triplet<double>>& e, int rb, int cb, const Mat3& B) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (B(i, j) != 0.0) e.emplace_back(3 * rb + i, 3 * cb + j, B(i, j));
  };
  BlockTridiagonal3& A = mass_;
  mech_.assemble_mass_matrix(R, A);
  for (int b = 0; b <= N; ++b) {
    put(Me, rate_block(b), rate_block(b), A.diag(b));
    if (b > 0) put(Me, rate_block(b), rate_block(b - 1), A.lower(b));
    if (b < N) put(Me, rate_block(b), rate_block(b + 1), A.upper(b));
  }
  // Elastic stiffness: -df/dr, element j (j = 1..N) between r[j-1] and r[j] (r[0] the pivot).
  for (int j = 1; j <= N; ++j) {
    const Mat3 Kj = mech_.element_stiffness(state_.r[j] - state_.r[j - 1]);
    // Node r[j] is rate block j (j >= 1), node r[j-1] is rate block j-1 (the pivot when j = 1).
    put(Ke, j, j, Kj);
    if (j >= 2) {
      put(Ke, j - 1, j - 1, Kj);
      put(Ke, j, j - 1, -Kj);
      put(Ke, j - 1, j, -Kj);
    }
  }
  // The body's R-coupling (columns 0-2: the rotation's algebra) and its centripetal and
  // gyroscopic terms (mechanics/end_body_rates.hpp); the attachment node is rate block N.
  body_.rate_tangent_entries(R, Omega, vN, Wd, 3 * N, 0, Ke, Ce);
}

bool StringOdeForm::project(Eigen::VectorXd& y) const {
  manifold::project_rotation(y, 6 * mech_.params().N);
  return true;
}

lie::HomogeneousProduct StringOdeForm::manifold() const {
  const int N = mech_.params().N;
  return lie::HomogeneousProduct(state_size(), {{6 * N, 6 * N + 9}}, {}, {{0, 3 * N, 3 * N}});  // [r, v, R, Omega]
}

Observation StringOdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return mech_.observe(mech_.unpack(y));
}

}  // namespace tb::string_pendulum
