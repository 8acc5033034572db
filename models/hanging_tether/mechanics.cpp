#include "models/hanging_tether/mechanics.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/format.hpp"
#include "mechanics/elastic_element.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::hanging_tether {

std::string to_string(Discretisation d) { return d == Discretisation::Lumped ? "lumped" : "full"; }

std::string parameter_problem(const Parameters& p) {
  if (p.N < 2) return "at least 2 elements (one free node), got " + std::to_string(p.N);
  if (!(p.mu > 0.0) || !(p.length > 0.0) || !(p.EA > 0.0) || !(p.g > 0.0))
    return "positive mass per length, length, EA and gravity";
  if (!(p.damping_rate >= 0.0)) return "a non-negative damping rate";
  const Vec3 chord = p.B - p.A;
  const Vec3 horizontal = chord - chord.dot(e3) * e3;
  if (!(horizontal.norm() > 1e-9 * p.length))
    return "anchors A and B with a horizontal span (B - A is vertical: the catenary degenerates)";
  if (!(chord.norm() < p.length))
    return "a chord |B - A| = " + format_g(chord.norm(), 6) + " m shorter than the tether length L = " +
           format_g(p.length, 6) + " m (a hanging tether, not a taut one)";
  if (p.drive.active()) {
    if (!(p.drive.duration > 0.0) || !std::isfinite(p.drive.drop)) return "a driven anchor with a finite drop and a positive duration";
    // |B - A(t)| is convex in the drop d, so its largest value is at one end of the drive.
    const Vec3 end_chord = chord - p.drive.drop * e3;
    if (!(end_chord.norm() < p.length))
      return "a chord shorter than the tether at the end of the anchor's drop too: |B - A(T)| = " + format_g(end_chord.norm(), 6) +
             " m against L = " + format_g(p.length, 6) + " m";
  }
  return "";
}

Mat3 element_stiffness(double kappa, double u, const Vec3& x, bool tension_only) {
  if (element_slack(u, x, tension_only)) return Mat3::Zero();
  const double len = x.norm();
  const Vec3 xhat = x / len;
  return kappa * ((1.0 - u / len) * Mat3::Identity() + (u / len) * xhat * xhat.transpose());
}

Mechanics::Mechanics(const Parameters& p) : p_(p) {
  const std::string problem = parameter_problem(p_);
  if (!problem.empty()) throw std::invalid_argument("hanging_tether: parameters need " + problem);
  const int n = free_nodes();
  const Mat3 I = Mat3::Identity();
  mass_.resize(n);
  if (p_.discretisation == Discretisation::Full) {
    // Consistent mass (slide "Full model"; SPEC Model A): m/6 (r''_{j-1} + 4 r''_j + r''_{j+1})
    // on every free node; the fixed ends' accelerations are zero.
    const double m = p_.element_mass();
    for (int i = 0; i < n; ++i) {
      mass_.diag(i) = (4.0 * m / 6.0) * I;
      if (i > 0) mass_.lower(i) = (m / 6.0) * I;
      if (i + 1 < n) mass_.upper(i) = (m / 6.0) * I;
    }
  } else {
    for (int i = 0; i < n; ++i) mass_.diag(i) = p_.lumped_node_mass() * I;  // slide "Lumped mass model"
  }
  if (!mass_.factor()) throw std::logic_error("hanging_tether: mass matrix not factorable");
}

double Mechanics::free_node_gravity_mass() const {
  // -dU/dr_j: full U = -sum_e m/2 g (z_e + z_{e+1}) loads every free node with m g e3 (two
  // halves); lumped U = -sum_j mu L/(N+1) g z_j with mu L/(N+1) g e3.
  return p_.discretisation == Discretisation::Full ? p_.element_mass() : p_.lumped_node_mass();
}

void Mechanics::static_forces(const std::vector<Vec3>& r, Eigen::VectorXd& f) const {
  const int N = p_.N;
  const double kappa = p_.kappa(), u = p_.u();
  const Vec3 weight = free_node_gravity_mass() * p_.g * e3;
  f.resize(3 * (N - 1));
  const bool tension_only = p_.tension_only;
  Vec3 force_prev = element_force(kappa, u, r[1] - r[0], tension_only);  // element 0
  for (int j = 1; j < N; ++j) {
    const Vec3 force_next = element_force(kappa, u, r[j + 1] - r[j], tension_only);  // element j
    f.segment<3>(3 * (j - 1)) = force_next - force_prev + weight;
    force_prev = force_next;
  }
}

void Mechanics::assemble_tangent_stiffness(const std::vector<Vec3>& r, BlockTridiagonal3& S) const {
  const int N = p_.N;
  const double kappa = p_.kappa(), u = p_.u();
  S.resize(N - 1);
  for (int e = 0; e < N; ++e) {
    // Element e joins nodes e and e+1 (free node j sits in block j-1).
    const Mat3 K = element_stiffness(kappa, u, r[e + 1] - r[e], p_.tension_only);
    if (e >= 1) S.diag(e - 1) += K;
    if (e + 1 <= N - 1) S.diag(e) += K;
    if (e >= 1 && e + 1 <= N - 1) {
      S.upper(e - 1) = -K;
      S.lower(e) = -K;
    }
  }
}

Vec3 Mechanics::anchor_momentum_on_node1(const Vec3& v0) const {
  return p_.discretisation == Discretisation::Full ? Vec3(p_.element_mass() / 6.0 * v0) : Vec3::Zero();
}

Vec3 Mechanics::anchor_inertia_force(const State& s) const {
  return -anchor_momentum_on_node1(s.a0 + p_.damping_rate * s.v[0]);
}

void Mechanics::accelerations(const State& s, Eigen::VectorXd& acc) const {
  static_forces(s.r, acc);
  if (driven()) acc.head<3>() += anchor_inertia_force(s);
  mass_.solve_in_place(acc);
  for (int j = 1; j < p_.N; ++j) acc.segment<3>(3 * (j - 1)) -= p_.damping_rate * s.v[j];
}

double Mechanics::kinetic_energy(const State& s) const {
  double T = 0.0;
  if (p_.discretisation == Discretisation::Full) {
    const double m = p_.element_mass();
    for (int e = 0; e < p_.N; ++e) {
      const Vec3 &va = s.v[e], &vb = s.v[e + 1];
      T += m / 6.0 * (va.dot(va) + va.dot(vb) + vb.dot(vb));
    }
  } else {
    for (int j = 0; j <= p_.N; ++j) T += 0.5 * p_.lumped_node_mass() * s.v[j].squaredNorm();
  }
  return T;
}

double Mechanics::dissipation_power(const State& s) const {
  const double all = 2.0 * p_.damping_rate * kinetic_energy(s);
  if (!driven()) return all;
  // Node 0's row of M v: M_00 v_0 + M_01 v_1.
  const double m00 = p_.discretisation == Discretisation::Full ? p_.element_mass() / 3.0 : p_.lumped_node_mass();
  return all - p_.damping_rate * s.v[0].dot(m00 * s.v[0] + anchor_momentum_on_node1(s.v[1]));
}

double Mechanics::drive_power(double t, const Vec3& r1, const Vec3& v1) const {
  const Vec3 F0 = element_force(p_.kappa(), p_.u(), r1 - anchor_position(t), p_.tension_only);  // element 0 on node 0
  const Vec3 a0 = p_.drive.acceleration(t) * e3, v0 = p_.drive.velocity(t) * e3;
  return -a0.dot(anchor_momentum_on_node1(v1)) - F0.dot(v0);
}

double Mechanics::drive_work(const State& s) const {
  const double m00 = p_.discretisation == Discretisation::Full ? p_.element_mass() / 3.0 : p_.lumped_node_mass();
  const double m0_weight = p_.discretisation == Discretisation::Full ? 0.5 * p_.element_mass() : p_.lumped_node_mass();
  const double boundary = s.v[0].dot(anchor_momentum_on_node1(s.v[1])) + 0.5 * m00 * s.v[0].squaredNorm() -
                          m0_weight * p_.g * p_.drive.displacement(s.t);
  return boundary + s.drive_work_integral;
}

double Mechanics::elastic_energy(const State& s) const {
  double V = 0.0;
  for (int e = 0; e < p_.N; ++e) V += element_strain_energy(p_.kappa(), p_.u(), s.r[e + 1] - s.r[e], p_.tension_only);
  return V;
}

double Mechanics::gravity_energy(const State& s) const {
  // Over every node, fixed ones included (a constant), as the slides write U_k.
  double V = 0.0;
  if (p_.discretisation == Discretisation::Full) {
    for (int e = 0; e < p_.N; ++e) V -= 0.5 * p_.element_mass() * p_.g * (s.r[e] + s.r[e + 1]).dot(e3);
  } else {
    for (int j = 0; j <= p_.N; ++j) V -= p_.lumped_node_mass() * p_.g * s.r[j].dot(e3);
  }
  return V;
}

double Mechanics::stretched_length(const State& s) const {
  double len = 0.0;
  for (int e = 0; e < p_.N; ++e) len += (s.r[e + 1] - s.r[e]).norm();
  return len;
}

Observation Mechanics::observe(const State& s) const {
  Observation o;
  o.kinetic = kinetic_energy(s);
  o.energy = o.kinetic + potential_energy(s);
  o.momentum = 0.0;  // fixed supports: no conserved momentum
  o.external_work = -s.dissipated_work + (driven() ? drive_work(s) : 0.0);
  double lowest = -std::numeric_limits<double>::infinity(), fastest = 0.0;
  for (int j = 0; j <= p_.N; ++j) {
    lowest = std::max(lowest, s.r[j].dot(e3));
    fastest = std::max(fastest, s.v[j].norm());
  }
  int slack = 0;  // elements shorter than their rest length: slack where tension-only, pushing otherwise
  for (int e = 0; e < p_.N; ++e) slack += (s.r[e + 1] - s.r[e]).norm() < p_.u() ? 1 : 0;
  o.extra = {stretched_length(s), lowest, fastest, s.dissipated_work, double(slack)};
  if (driven()) o.extra.push_back(drive_work(s));
  return o;
}

std::vector<std::string> Mechanics::extra_column_names() const {
  std::vector<std::string> names{"stretched_length", "lowest_z", "max_node_speed", "dissipated_work", "short_elements"};
  if (driven()) names.push_back("anchor_work");
  return names;
}

Eigen::VectorXd Mechanics::pack(const State& s) const {
  const int n = free_nodes();
  Eigen::VectorXd y(state_size());
  for (int j = 1; j <= n; ++j) {
    y.segment<3>(3 * (j - 1)) = s.r[j];
    y.segment<3>(3 * n + 3 * (j - 1)) = s.v[j];
  }
  y(6 * n) = s.dissipated_work;
  if (driven()) y(6 * n + 1) = s.drive_work_integral;
  return y;
}

void Mechanics::unpack_into(double t, const Eigen::VectorXd& y, State& s) const {
  const int n = free_nodes();
  s.t = t;
  s.r.resize(p_.N + 1);
  s.v.resize(p_.N + 1);
  s.r[0] = anchor_position(t);
  s.r[p_.N] = p_.B;
  s.v[0] = p_.drive.velocity(t) * e3;
  s.a0 = p_.drive.acceleration(t) * e3;
  s.v[p_.N].setZero();
  for (int j = 1; j <= n; ++j) {
    s.r[j] = y.segment<3>(3 * (j - 1));
    s.v[j] = y.segment<3>(3 * n + 3 * (j - 1));
  }
  s.dissipated_work = y(6 * n);
  s.drive_work_integral = driven() ? y(6 * n + 1) : 0.0;
}

State Mechanics::unpack(double t, const Eigen::VectorXd& y) const {
  State s;
  unpack_into(t, y, s);
  return s;
}

std::vector<Vec3> Mechanics::nodes_from_free(double t, const Eigen::VectorXd& free_positions) const {
  std::vector<Vec3> r(p_.N + 1);
  r[0] = anchor_position(t);
  r[p_.N] = p_.B;
  for (int j = 1; j < p_.N; ++j) r[j] = free_positions.segment<3>(3 * (j - 1));
  return r;
}

}  // namespace tb::hanging_tether
