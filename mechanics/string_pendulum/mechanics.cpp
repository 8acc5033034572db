#include "mechanics/string_pendulum/mechanics.hpp"

#include <cmath>
#include <limits>

#include "mechanics/string_body_observation.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::string_pendulum {

using so3::hat;

namespace {
}

Mechanics::Mechanics(const Parameters& p, StringMass string_mass) : p_(p), string_mass_(string_mass) {}

State Mechanics::initial_state(const InitialCondition& ic) const {
  State s;
  const int n = nodes();
  s.r.resize(n);
  s.v.assign(n, Vec3::Zero());
  const Vec3 dir = ic.string_direction.normalized();
  for (int a = 1; a <= n; ++a) s.r[a - 1] = double(a - 1) * p_.u() * dir;  // r_a = (a-1) u dir
  s.v[n - 1] = ic.body_velocity;
  s.R = ic.R0;
  s.Omega = ic.Omega0;
  return s;
}

Vec3 Mechanics::element_force(const Vec3& x) const { return tb::element_force(p_.kappa(), p_.u(), x, p_.tension_only); }

Mat3 Mechanics::element_stiffness(const Vec3& x) const {
  if (element_slack(p_.u(), x, p_.tension_only)) return Mat3::Zero();  // a slack element: no stiffness
  // d/dx [kappa (1 - u/|x|) x] = kappa (1 - u/|x|) I + kappa u/|x|^3 x x^T.
  const double len = x.norm();
  return p_.kappa() * ((1.0 - p_.u() / len) * Mat3::Identity() + (p_.u() / (len * len * len)) * x * x.transpose());
}

void Mechanics::string_forces(const std::vector<Vec3>& r, Eigen::VectorXd& f) const {
  const int N = p_.N;
  const double m = p_.m();
  f.resize(3 * N);
  // -dV/dr_a of V = sum_a [1/2 kappa (|r_{a+1} - r_a| - u)^2 - 1/2 m g (r_a + r_{a+1}).e3].
  Vec3 force_prev = element_force(r[1] - r[0]);  // element 1
  for (int a = 2; a <= N; ++a) {
    const Vec3 force_next = element_force(r[a] - r[a - 1]);  // element a
    f.segment<3>(3 * (a - 2)) = m * p_.g * e3 + force_next - force_prev;
    force_prev = force_next;
  }
  f.segment<3>(3 * (N - 1)) = (m / 2.0) * p_.g * e3 - force_prev;
}

void Mechanics::assemble_string_mass_matrix(BlockTridiagonal3& A) const {
  const int N = p_.N;
  const double m = p_.m();
  const Mat3 I = Mat3::Identity();
  A.resize(N);  // every block zero; block i: node i + 2
  if (string_mass_ == StringMass::Consistent) {
    // Consistent mass m/6 (1 4 1); attachment node: m/3 from its one element.
    for (int i = 0; i < N; ++i) {
      A.diag(i) = (4.0 * m / 6.0) * I;
      if (i > 0) A.lower(i) = (m / 6.0) * I;
      if (i + 1 < N) A.upper(i) = (m / 6.0) * I;
    }
    A.diag(N - 1) = (m / 3.0) * I;
  } else {
    // Lumped mass: m on every interior node (half of each neighbouring element), no coupling
    // between nodes; attachment node: half an element.
    for (int i = 0; i < N; ++i) A.diag(i) = m * I;
    A.diag(N - 1) = (m / 2.0) * I;
  }
}

void Mechanics::assemble_mass_matrix(const Mat3& R, BlockTridiagonal3& A) const {
  const int N = p_.N;
  BlockTridiagonal3& S = string_mass_work_;
  assemble_string_mass_matrix(S);
  A.resize(N + 1);  // every block zero
  // Blocks 0..N-1: nodes 2..N+1 (the string's own mass); block N: Omega.
  for (int i = 0; i < N; ++i) {
    A.diag(i) = S.diag(i);
    if (i > 0) A.lower(i) = S.lower(i);
    if (i + 1 < N) A.upper(i) = S.upper(i);
  }
  // The body's translational mass sits on the attachment node; the coupling (the same for both
  // string mass models) comes from T containing M rdot_{N+1}.R(Omega x rho_c).
  A.diag(N - 1) += p_.M * Mat3::Identity();
  A.upper(N - 1) = -p_.M * R * hat(p_.rho_c);
  A.lower(N) = p_.M * hat(p_.rho_c) * R.transpose();
  A.diag(N) = p_.J;
}

Eigen::VectorXd Mechanics::momenta(const State& s) const {
  BlockTridiagonal3& A = mass_;
  assemble_mass_matrix(s.R, A);
  Eigen::VectorXd v(3 * (p_.N + 1));
  for (int a = 2; a <= p_.N + 1; ++a) v.segment<3>(3 * (a - 2)) = s.v[a - 1];
  v.segment<3>(3 * p_.N) = s.Omega;
  return A.multiply(v);
}

void Mechanics::set_velocities_from_momenta(const Eigen::VectorXd& momenta, State& s) const {
  BlockTridiagonal3& A = mass_;
  assemble_mass_matrix(s.R, A);
  Eigen::VectorXd v = momenta;
  if (!A.factor()) v.setConstant(std::numeric_limits<double>::quiet_NaN());
  else A.solve_in_place(v);
  s.v.assign(nodes(), Vec3::Zero());
  for (int a = 2; a <= p_.N + 1; ++a) s.v[a - 1] = v.segment<3>(3 * (a - 2));
  s.Omega = v.segment<3>(3 * p_.N);
}

// Equations of motion, from L = T - V (same V for both string mass models):
//   consistent (SPEC): m/6 (rddot_{a-1} + 4 rddot_a + rddot_{a+1}) = m g e3 + F_a - F_{a-1}      a = 2..N
//                      (M + m/3) rddot_{N+1} + m/6 rddot_N - M R hat(rho_c) Omegadot = rhs_{N+1}
//   lumped:            m rddot_a = m g e3 + F_a - F_{a-1}                                          a = 2..N
//                      (M + m/2) rddot_{N+1} - M R hat(rho_c) Omegadot = rhs_{N+1}
//     (d/dt of p_{N+1} = (M + m/2) v_{N+1} + M R (Omega x rho_c) is (M + m/2) rddot_{N+1}
//      - M R hat(rho_c) Omegadot + M R hat(Omega)^2 rho_c; -dV/dr_{N+1} = (M + m/2) g e3 - F_N)
//   both:              rhs_{N+1} = (M + m/2) g e3 - F_N - M R hat(Omega)^2 rho_c
//                      J Omegadot + M hat(rho_c) R^T rddot_{N+1} = -Omega x J Omega + M g hat(rho_c) R^T e3
// The string mass matrix is constant in both models, so the right-hand sides are identical and
// only the mass matrix (assemble_mass_matrix) differs.
void Mechanics::accelerations(const State& s, Eigen::VectorXd& acc) const {
  const int N = p_.N;
  acc.resize(3 * (N + 1));
  // Right-hand sides of the equations of motion: the string's forces, then the body's.
  Eigen::VectorXd& f = forces_;
  string_forces(s.r, f);
  acc.segment(0, 3 * N) = f;
  const Vec3 Wrho = s.Omega.cross(p_.rho_c);
  acc.segment<3>(3 * (N - 1)) += p_.M * p_.g * e3 - p_.M * s.R * s.Omega.cross(Wrho);
  acc.segment<3>(3 * N) =
      -s.Omega.cross(p_.J * s.Omega) + p_.M * p_.g * p_.rho_c.cross(s.R.transpose() * e3);
  BlockTridiagonal3& A = mass_;
  assemble_mass_matrix(s.R, A);
  if (!A.factor()) {
    acc.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  A.solve_in_place(acc);
}

double Mechanics::kinetic_energy(const State& s) const {
  const double m = p_.m();
  double T = 0.0;
  if (string_mass_ == StringMass::Consistent) {
    for (int a = 1; a <= p_.N; ++a) {
      const Vec3& va = s.v[a - 1];
      const Vec3& vb = s.v[a];
      T += m / 6.0 * (va.dot(va) + va.dot(vb) + vb.dot(vb));
    }
  } else {
    // Each element contributes m/4 (|v_a|^2 + |v_{a+1}|^2): m/2 on each of its two nodes.
    for (int a = 1; a <= p_.N; ++a) T += m / 4.0 * (s.v[a - 1].squaredNorm() + s.v[a].squaredNorm());
  }
  const Vec3& v = s.v[p_.N];
  T += 0.5 * p_.M * v.dot(v) + 0.5 * s.Omega.dot(p_.J * s.Omega) +
       p_.M * v.dot(s.R * s.Omega.cross(p_.rho_c));
  return T;
}

double Mechanics::potential_energy(const State& s) const {
  const double m = p_.m();
  double V = 0.0;
  for (int a = 1; a <= p_.N; ++a) {
    V += element_strain_energy(p_.kappa(), p_.u(), s.r[a] - s.r[a - 1], p_.tension_only) -
         0.5 * m * p_.g * (s.r[a - 1] + s.r[a]).dot(e3);
  }
  V -= p_.M * p_.g * (s.r[p_.N] + s.R * p_.rho_c).dot(e3);
  return V;
}

double Mechanics::angular_momentum_e3(const State& s) const {
  const double m = p_.m();
  Vec3 L = Vec3::Zero();
  if (string_mass_ == StringMass::Consistent) {
    for (int a = 1; a <= p_.N; ++a) {
      const Vec3 &ra = s.r[a - 1], &rb = s.r[a], &va = s.v[a - 1], &vb = s.v[a];
      L += m / 6.0 * (2.0 * ra.cross(va) + ra.cross(vb) + rb.cross(va) + 2.0 * rb.cross(vb));
    }
  } else {
    // sum_a m_a r_a x v_a with m_a = m/2 from each element touching node a.
    for (int a = 1; a <= p_.N; ++a) {
      const Vec3 &ra = s.r[a - 1], &rb = s.r[a], &va = s.v[a - 1], &vb = s.v[a];
      L += m / 2.0 * (ra.cross(va) + rb.cross(vb));
    }
  }
  const Vec3& r = s.r[p_.N];
  const Vec3& v = s.v[p_.N];
  L += p_.M * r.cross(v + s.R * s.Omega.cross(p_.rho_c)) - p_.M * v.cross(s.R * p_.rho_c) +
       s.R * p_.J * s.Omega;
  return L.dot(e3);
}

double Mechanics::stretched_length(const State& s) const { return tb::stretched_length(s.r, p_.N); }

Observation Mechanics::observe(const State& s) const {
  Observation o = string_body_observation(kinetic_energy(s), potential_energy(s), angular_momentum_e3(s), s.R);
  o.constraint_err = 0.0;  // no holonomic constraints in this model's ODE and Lie group forms
  const Vec3& x = s.r[p_.N];
  const Vec3& v = s.v[p_.N];
  o.extra = {x.x(), x.y(), x.z(), v.x(), v.y(), v.z(), s.Omega.x(), s.Omega.y(), s.Omega.z(), stretched_length(s),
             body_tilt_deg(s.R, p_.rho_c, s.r[p_.N] - s.r[p_.N - 1])};
  return o;
}

std::vector<std::string> Mechanics::extra_column_names() {
  return {"x", "y", "z", "vx", "vy", "vz", "Omega_x", "Omega_y", "Omega_z", "stretched_length", "body_tilt_deg"};
}

Eigen::VectorXd Mechanics::pack(const State& s) const {
  const int N = p_.N;
  Eigen::VectorXd y(6 * N + 12);
  for (int a = 2; a <= N + 1; ++a) {
    y.segment<3>(3 * (a - 2)) = s.r[a - 1];
    y.segment<3>(3 * N + 3 * (a - 2)) = s.v[a - 1];
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) y(6 * N + 3 * i + j) = s.R(i, j);
  y.segment<3>(6 * N + 9) = s.Omega;
  return y;
}

State Mechanics::unpack(const Eigen::VectorXd& y) const {
  State s;
  unpack_into(y, s);
  return s;
}

void Mechanics::unpack_into(const Eigen::VectorXd& y, State& s) const {
  const int N = p_.N;
  s.r.resize(N + 1);
  s.v.resize(N + 1);
  s.r[0].setZero();
  s.v[0].setZero();
  for (int a = 2; a <= N + 1; ++a) {
    s.r[a - 1] = y.segment<3>(3 * (a - 2));
    s.v[a - 1] = y.segment<3>(3 * N + 3 * (a - 2));
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s.R(i, j) = y(6 * N + 3 * i + j);
  s.Omega = y.segment<3>(6 * N + 9);
}

}  // namespace tb::string_pendulum
