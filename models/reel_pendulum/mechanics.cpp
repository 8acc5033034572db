#include "models/reel_pendulum/mechanics.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "mechanics/string_body_observation.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::reel_pendulum {

using so3::hat;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

Mechanics::Mechanics(const Parameters& p) : p_(p) {
  const double N = p.N;
  for (int a = 1; a <= p.N; ++a) {
    // Appendix A.1, from integrating the shape functions against the sliding velocity weight
    // (L - s)/(L - s_p) = (N - a + 1 - zeta)/N over element a.
    m3_.push_back((3 * N * N + 3 * N + 1 - 6 * N * a - 3 * a + 3.0 * a * a) / (3 * N * N));
    c23_.push_back((1 + 3 * N - 3 * a) / (6 * N));
    c31_.push_back((2 + 3 * N - 3 * a) / (6 * N));
    m3_sum_ += m3_.back();
  }
}

State Mechanics::initial_state(const InitialCondition& ic) const {
  State s;
  s.s = ic.s0;
  const double l = element_length(ic.s0);
  const int n = nodes();
  s.q.resize(n);
  s.v.assign(n, Vec3::Zero());
  for (int a = 1; a <= n; ++a) s.q[a - 1] = double(a - 1) * l * ic.string_direction.normalized();
  s.v[n - 1] = ic.body_velocity;
  s.R = ic.R0;
  s.Omega = ic.Omega0;
  return s;
}

void Mechanics::assemble_string_reel_mass_matrix(const State& s, BorderedBlockTridiagonal3& A) const {
  const int N = p_.N;
  const double ml = p_.mu * element_length(s.s);  // element mass
  const Mat3 I = Mat3::Identity();
  A.resize(N);
  BlockTridiagonal3& T = A.core();
  for (int i = 0; i < N; ++i) {  // block i: node i + 2
    T.diag(i) = (4.0 * ml / 6.0) * I;
    if (i > 0) T.lower(i) = (ml / 6.0) * I;
    if (i + 1 < N) T.upper(i) = (ml / 6.0) * I;
  }
  T.diag(N - 1) = (ml / 3.0) * I;
  Eigen::VectorXd& b = A.border_column();
  if (p_.reel_locked) {
    A.corner() = 1.0;  // decoupled placeholder equation sddot = rhs_s (set to 0 by the callers)
    return;
  }
  // Border: node j couples to sdot through M23_{j-1} (as node a+1 of element j-1) and M31_j.
  for (int j = 2; j <= N + 1; ++j) {
    Vec3 coupling = p_.mu * c23(j - 1) * (s.q[j - 2] - s.q[j - 1]);
    if (j <= N) coupling += p_.mu * c31(j) * (s.q[j - 1] - s.q[j]);
    b.segment<3>(3 * (j - 2)) = coupling;
  }
  A.border_row() = b;
  A.corner() = p_.mu * s.s + p_.kappa_d + ml * m3_sum_;
}

void Mechanics::assemble_mass_matrix(const State& s, BorderedBlockTridiagonal3& A) const {
  const int N = p_.N;
  BorderedBlockTridiagonal3& S = string_reel_mass_;
  assemble_string_reel_mass_matrix(s, S);
  A.resize(N + 1);
  BlockTridiagonal3& T = A.core();
  const BlockTridiagonal3& St = std::as_const(S).core();
  for (int i = 0; i < N; ++i) {  // block i: node i + 2; block N: Omega
    T.diag(i) = St.diag(i);
    if (i > 0) T.lower(i) = St.lower(i);
    if (i + 1 < N) T.upper(i) = St.upper(i);
  }
  // The rigid body as in Model A: its mass on the attachment node and the rotational coupling.
  T.diag(N - 1) += p_.M * Mat3::Identity();
  T.upper(N - 1) = -p_.M * s.R * hat(p_.rho_c);
  T.lower(N) = p_.M * hat(p_.rho_c) * s.R.transpose();
  T.diag(N) = p_.J;
  // The body does not couple to sdot: the border's Omega entries stay zero.
  A.border_column().head(3 * N) = std::as_const(S).border_column();
  A.border_row().head(3 * N) = std::as_const(S).border_row();
  A.corner() = std::as_const(S).corner();
}

Eigen::VectorXd Mechanics::momenta(const State& s) const {
  assemble_mass_matrix(s, mass_);
  const int N = p_.N;
  Eigen::VectorXd v(3 * N + 4);
  for (int j = 2; j <= N + 1; ++j) v.segment<3>(3 * (j - 2)) = s.v[j - 1];
  v.segment<3>(3 * N) = s.Omega;
  v(3 * N + 3) = p_.reel_locked ? 0.0 : s.sdot;
  Eigen::VectorXd p = mass_.multiply(v);
  if (p_.reel_locked) p(3 * N + 3) = 0.0;
  return p;
}

void Mechanics::set_velocities_from_momenta(const Eigen::VectorXd& momenta, State& s) const {
  assemble_mass_matrix(s, mass_);
  const int N = p_.N;
  Eigen::VectorXd v = momenta;
  if (p_.reel_locked) v(3 * N + 3) = 0.0;
  if (!mass_.factor()) v.setConstant(kNaN);
  else mass_.solve_in_place(v);
  s.v.assign(nodes(), Vec3::Zero());
  for (int j = 2; j <= N + 1; ++j) s.v[j - 1] = v.segment<3>(3 * (j - 2));
  s.Omega = v.segment<3>(3 * N);
  s.sdot = p_.reel_locked ? 0.0 : v(3 * N + 3);
}

double Mechanics::kinetic_energy(const State& s) const {
  const double l = element_length(s.s), mu = p_.mu;
  double T = 0.5 * (mu * s.s + p_.kappa_d) * s.sdot * s.sdot;  // reel and string on it, (29)
  for (int a = 1; a <= p_.N; ++a) {                             // (30)
    const Vec3 &va = s.v[a - 1], &vb = s.v[a];
    const Vec3 e = s.q[a - 1] - s.q[a];
    T += mu * l / 6.0 * (va.dot(va) + va.dot(vb) + vb.dot(vb)) + 0.5 * mu * l * m3(a) * s.sdot * s.sdot +
         s.sdot * mu * (c23(a) * e.dot(vb) + c31(a) * e.dot(va));
  }
  const Vec3& v = s.v[p_.N];  // rigid body, (31)
  T += 0.5 * p_.M * v.dot(v) + 0.5 * s.Omega.dot(p_.J * s.Omega) + p_.M * v.dot(s.R * s.Omega.cross(p_.rho_c));
  return T;
}

double Mechanics::string_reel_potential_gradient(double s, const std::vector<Vec3>& q, std::vector<Vec3>& dV_dq) const {
  const int N = p_.N;
  const double l = element_length(s), mu = p_.mu, g = p_.g, EA = p_.EA;
  dV_dq.assign(N + 1, Vec3::Zero());
  // Reel: V_r = -mu g [(s - b) r_d.e3 + d^2 (cos((s - b)/d) - 1)], r_d.e3 = -b.
  double dV_ds = -mu * g * (-p_.b - p_.d * std::sin((s - p_.b) / p_.d));
  for (int a = 1; a <= N; ++a) {
    const Vec3 x = q[a] - q[a - 1];
    const double len = x.norm();
    // A slack tension-only element (mechanics/elastic_element.hpp, u = l) has no strain energy, so
    // neither its tension nor its d/dl term; |x| is taken once, as the force needs it anyway.
    const bool slack = element_slack_length(l, len, p_.tension_only);
    const Vec3 F = slack ? Vec3::Zero() : Vec3(EA / l * (len - l) / len * x);  // tension (42)
    dV_dq[a - 1] += -0.5 * mu * g * l * e3 - F;
    dV_dq[a] += -0.5 * mu * g * l * e3 + F;
    // dl/ds = -1/N: gravity of the element and d/dl [EA (|x| - l)^2 / (2 l)] = EA/2 (1 - |x|^2/l^2)
    // (0 while slack: the kink is C^1 in l as in x, both sides 0 at |x| = l).
    dV_ds += (0.5 * mu * g / N) * e3.dot(q[a - 1] + q[a]) +
             (slack ? 0.0 : (EA / (2.0 * N)) * (len * len / (l * l) - 1.0));
  }
  return dV_ds;
}

double Mechanics::potential_gradient(double s, const std::vector<Vec3>& q, std::vector<Vec3>& dV_dq) const {
  const double dV_ds = string_reel_potential_gradient(s, q, dV_dq);
  dV_dq[p_.N] += -p_.M * p_.g * e3;  // the body's weight, -M g e3.(q_{N+1} + R rho_c)
  return dV_ds;
}

double Mechanics::potential_energy(const State& s) const {
  const double l = element_length(s.s), mu = p_.mu, g = p_.g;
  double V = -mu * g * ((s.s - p_.b) * (-p_.b) + p_.d * p_.d * (std::cos((s.s - p_.b) / p_.d) - 1.0));
  for (int a = 1; a <= p_.N; ++a)  // (33); the strain energy 1/2 (EA/l) (|x| - l)^2, 0 while slack (tension-only)
    V += -0.5 * mu * g * l * e3.dot(s.q[a - 1] + s.q[a]) +
         element_strain_energy(p_.EA / l, l, s.q[a] - s.q[a - 1], p_.tension_only);
  V -= p_.M * g * e3.dot(s.q[p_.N] + s.R * p_.rho_c);
  return V;
}

double Mechanics::guide_way_strain(const State& s) const {
  const double l = element_length(s.s), len = s.q[1].norm();
  // Tension-only: a slack element at the guide way carries no strain (its strain energy is 0,
  // mechanics/elastic_element.hpp), so eps+ = 0 there and the string meets the drum with no jump.
  if (element_slack_length(l, len, p_.tension_only)) return 0.0;
  return (len - l) / l;
}

// Tension-only and the element at the guide way slack: Q = 0. The Carnot loss (seed 001 §2.3,
// (20)-(21); seed 002 (21)) is the energy lost where the strain jumps from eps+ outside the guide
// way to 0 on the drum: the strain energy EA eps+^2/2 per length and the kinetic energy of the
// velocity jump sdot eps+, mu sdot^2 eps+^2/2 per length, both passing at the rate sdot. A slack
// element carries no strain, so the string crossing the guide way carries none in or out and
// neither jump exists. Q = -1/2 (mu sdot^2 + EA) max(0, eps+)^2 is C^1 in (s, q_2) like the strain
// energy, its gradient (StringReelTangents::carnot_gradient) 0 on the slack side. The energy
// balance stays an invariant: every form integrates the work of the same Q(s, q_2, sdot) that acts
// on s (W_c' = Q sdot; the LGVI's discrete forcing and work take the same eps), so E - E0 - W
// remains the method's error (tests/test_reel_tension_only.cpp measures it).
double Mechanics::carnot_force(const State& s) const {
  const double eps = guide_way_strain(s);
  return -0.5 * (p_.mu * s.sdot * s.sdot + p_.EA) * eps * eps;
}

void Mechanics::string_reel_forces(const State& s, Eigen::VectorXd& h) const {
  const int N = p_.N;
  const double mu = p_.mu, sd = s.sdot;
  const bool free_reel = !p_.reel_locked;
  h.setZero(3 * N + 1);
  std::vector<Vec3>& dV_dq = dV_dq_;
  const double dV_ds = string_reel_potential_gradient(s.s, s.q, dV_dq);
  auto rhs_node = [&](int j) { return h.segment<3>(3 * (j - 2)); };
  for (int j = 2; j <= N + 1; ++j) rhs_node(j) = -dV_dq[j - 1];
  if (!free_reel) return;
  // Terms from the s-dependence (l) and q-dependence (M23, M31) of the mass matrix:
  // dT/dq - (dA/dt) v for the nodes. dl/dt = -sdot/N scales the consistent string mass.
  for (int j = 2; j <= N + 1; ++j) {
    const Vec3 prev = s.v[j - 2], cur = s.v[j - 1];
    const Vec3 next = j <= N ? s.v[j] : Vec3::Zero();
    const double w_next = j <= N ? 1.0 : 0.0;
    const double diag = j <= N ? 4.0 : 2.0;
    rhs_node(j) += mu * sd / (6.0 * N) * (prev + diag * cur + w_next * next);
    // dT/dq_j: element j-1 (e = q_{j-1} - q_j) and element j (e = q_j - q_{j+1}).
    Vec3 dT_dq = -sd * mu * (c23(j - 1) * cur + c31(j - 1) * prev);
    // d/dt of the border entry, times sdot: mu (c23_{j-1} edot_{j-1} + c31_j edot_j) sdot.
    Vec3 border_rate = mu * c23(j - 1) * (prev - cur);
    if (j <= N) {
      dT_dq += sd * mu * (c23(j) * next + c31(j) * cur);
      border_rate += mu * c31(j) * (cur - next);
    }
    rhs_node(j) += dT_dq - border_rate * sd;
  }
  // Reel equation: generalised force Q + u/d, dT/ds, minus d/dt of the momentum's
  // configuration-dependent coefficients.
  double dT_ds = 0.5 * mu * sd * sd;
  double coupling_rate = 0.0;
  for (int a = 1; a <= N; ++a) {
    const Vec3 &va = s.v[a - 1], &vb = s.v[a];
    dT_ds -= (1.0 / N) * (mu / 6.0 * (va.dot(va) + va.dot(vb) + vb.dot(vb)) + 0.5 * mu * m3(a) * sd * sd);
    const Vec3 edot = va - vb;
    coupling_rate += mu * (c23(a) * edot.dot(vb) + c31(a) * edot.dot(va));
  }
  const double corner_rate = mu * sd - mu * sd / N * m3_sum_;  // d/dt (mu s + kappa_d + mu l sum m3)
  h(3 * N) = carnot_force(s) + p_.u / p_.d + dT_ds - dV_ds - corner_rate * sd - coupling_rate;
}

void Mechanics::string_reel_kinetic_gradient(const State& s, Eigen::VectorXd& dT) const {
  const int N = p_.N;
  const double mu = p_.mu, sd = s.sdot;
  dT.setZero(3 * N + 1);
  if (p_.reel_locked) return;  // the string mass is constant and the border is dropped
  // The sliding coupling sdot mu (c23(a) e_a . v_{a+1} + c31(a) e_a . v_a), e_a = q_a - q_{a+1}:
  // node j sits in e_j (+) and e_{j-1} (-).
  for (int j = 2; j <= N + 1; ++j) {
    Vec3 g = -sd * mu * (c23(j - 1) * s.v[j - 1] + c31(j - 1) * s.v[j - 2]);
    if (j <= N) g += sd * mu * (c23(j) * s.v[j] + c31(j) * s.v[j - 1]);
    dT.segment<3>(3 * (j - 2)) = g;
  }
  // s: the string on the reel mu s sdot^2/2, and the deployed elements' masses mu l (dl/ds = -1/N).
  double dT_ds = 0.5 * mu * sd * sd;
  for (int a = 1; a <= N; ++a) {
    const Vec3 &va = s.v[a - 1], &vb = s.v[a];
    dT_ds -= (1.0 / N) * (mu / 6.0 * (va.dot(va) + va.dot(vb) + vb.dot(vb)) + 0.5 * mu * m3(a) * sd * sd);
  }
  dT(3 * N) = dT_ds;
}

void Mechanics::string_reel_applied_forces(const State& s, Eigen::VectorXd& f) const {
  const int N = p_.N;
  f.setZero(3 * N + 1);
  const double dV_ds = string_reel_potential_gradient(s.s, s.q, dV_dq_);
  for (int j = 2; j <= N + 1; ++j) f.segment<3>(3 * (j - 2)) = -dV_dq_[j - 1];
  if (!p_.reel_locked) f(3 * N) = carnot_force(s) + p_.u / p_.d - dV_ds;
}

void Mechanics::accelerations(const State& s, Eigen::VectorXd& acc) const {
  const int N = p_.N;
  Eigen::VectorXd& h = forces_;
  string_reel_forces(s, h);
  acc.resize(3 * N + 4);
  acc.head(3 * N) = h.head(3 * N);
  // Rigid body, as in Model A: its weight and the centripetal term on the attachment node, and
  // the rotational equation about the attachment point.
  const Vec3 Wrho = s.Omega.cross(p_.rho_c);
  acc.segment<3>(3 * (N - 1)) += p_.M * p_.g * e3 - p_.M * s.R * s.Omega.cross(Wrho);
  acc.segment<3>(3 * N) = -s.Omega.cross(p_.J * s.Omega) + p_.M * p_.g * p_.rho_c.cross(s.R.transpose() * e3);
  acc(3 * N + 3) = h(3 * N);
  assemble_mass_matrix(s, mass_);
  if (!mass_.factor()) {
    acc.setConstant(kNaN);
    return;
  }
  mass_.solve_in_place(acc);
  if (p_.reel_locked) acc(3 * N + 3) = 0.0;
}

double Mechanics::angular_momentum_e3(const State& s) const {
  const Eigen::VectorXd p = momenta(s);
  const int N = p_.N;
  Vec3 L = s.R * p.segment<3>(3 * N);
  for (int j = 2; j <= N + 1; ++j) L += s.q[j - 1].cross(Vec3(p.segment<3>(3 * (j - 2))));
  return L.dot(e3);
}

double Mechanics::stretched_length(const State& s) const { return tb::stretched_length(s.q, p_.N); }

Observation Mechanics::observe(const State& s) const {
  Observation o = string_body_observation(kinetic_energy(s), potential_energy(s), angular_momentum_e3(s), s.R);
  o.external_work = s.carnot_work + s.control_work;
  const Vec3& x = s.q[p_.N];
  o.extra = {s.s,
             s.sdot,
             p_.L - s.s,
             stretched_length(s),
             p_.EA * guide_way_strain(s),
             s.carnot_work,
             s.control_work,
             o.energy - o.external_work,
             x.x(), x.y(), x.z(),
             s.Omega.x(), s.Omega.y(), s.Omega.z(),
             body_tilt_deg(s.R, p_.rho_c, s.q[p_.N] - s.q[p_.N - 1])};
  return o;
}

std::vector<std::string> Mechanics::extra_column_names() {
  return {"s_p", "sdot_p", "deployed_length", "stretched_length", "tension_guide", "carnot_work", "control_work",
          "energy_balance", "x", "y", "z", "Omega_x", "Omega_y", "Omega_z", "body_tilt_deg"};
}

Eigen::VectorXd Mechanics::pack(const State& s) const {
  const int N = p_.N;
  Eigen::VectorXd y(physical_size());
  y(0) = s.s;
  y(1) = s.sdot;
  for (int j = 2; j <= N + 1; ++j) {
    y.segment<3>(2 + 3 * (j - 2)) = s.q[j - 1];
    y.segment<3>(2 + 3 * N + 3 * (j - 2)) = s.v[j - 1];
  }
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) y(2 + 6 * N + 3 * i + k) = s.R(i, k);
  y.segment<3>(6 * N + 11) = s.Omega;
  y(6 * N + 14) = s.carnot_work;
  y(6 * N + 15) = s.control_work;
  return y;
}

void Mechanics::unpack_into(const Eigen::VectorXd& y, State& s) const {
  const int N = p_.N;
  s.s = y(0);
  s.sdot = y(1);
  s.q.resize(N + 1);
  s.v.resize(N + 1);
  s.q[0].setZero();
  s.v[0].setZero();
  for (int j = 2; j <= N + 1; ++j) {
    s.q[j - 1] = y.segment<3>(2 + 3 * (j - 2));
    s.v[j - 1] = y.segment<3>(2 + 3 * N + 3 * (j - 2));
  }
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) s.R(i, k) = y(2 + 6 * N + 3 * i + k);
  s.Omega = y.segment<3>(6 * N + 11);
  s.carnot_work = y(6 * N + 14);
  s.control_work = y(6 * N + 15);
}

State Mechanics::unpack(const Eigen::VectorXd& y) const {
  State s;
  unpack_into(y, s);
  return s;
}

}  // namespace tb::reel_pendulum
