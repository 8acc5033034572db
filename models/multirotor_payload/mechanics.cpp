// Model C's energies, momenta and state layout (seed 003 §3.1 eqs. (9)-(11), §4.1), computed
// from joint positions and velocities, so every formulation is observed by the same code.

#include "models/multirotor_payload/mechanics.hpp"
#include "numerics/lie_group.hpp"  // e3

#include <cmath>

namespace tb::multirotor_payload {

namespace {
}

Vec3 Parameters::thrust() const {
  return -(multirotor_mass + links * link_mass + payload_mass / multirotors) * g * e3;
}

Mat3 Parameters::attachment_inertia() const {
  if (attachment_offset.isZero(0.0)) return J_Q;
  return J_Q + multirotor_mass * (attachment_offset.squaredNorm() * Mat3::Identity() -
                                  attachment_offset * attachment_offset.transpose());
}

double Parameters::body_force() const { return multirotor_mass * g + thrust().dot(e3); }

double Parameters::total_mass() const { return multirotors * (multirotor_mass + links * link_mass) + payload_mass; }

Mechanics::Mechanics(const Parameters& p) : p_(p), J_Q_inverse_(p.J_Q.inverse()) {
  // The attachment offset (mechanics.hpp): rho_c = -rho, J_A = J_Q + m_Q (|rho|^2 I - rho rho^T).
  offset_ = !p.attachment_offset.isZero(0.0);
  rho_c_ = -p.attachment_offset;
  J_A_ = p.attachment_inertia();
  J_A_inverse_ = J_A_.inverse();
  F_Q_ = p.body_force();
  const int n = p.links;
  const double m = p.link_mass;
  // T = 1/2 m_p |J0'|^2 + sum_i 1/2 m_i |(J'_{i-1} + J'_i)/2|^2 + 1/2 m_Q |J'_n|^2 per cable.
  joint_mass_.assign(n + 1, 0.0);
  joint_coupling_.assign(n + 1, 0.0);
  for (int j = 1; j <= n; ++j) {
    joint_mass_[j] = (j < n ? 0.5 * m : 0.25 * m + p.multirotor_mass);
    joint_coupling_[j] = 0.25 * m;  // between joints j-1 and j, from link j's centre mass
  }
  payload_joint_mass_ = p.payload_mass + p.multirotors * 0.25 * m;
  // Gravity of each link's centre mass splits half to each of its joints; thrust at joint n.
  phi_payload_ = p.g * (p.payload_mass + p.multirotors * 0.5 * m) * e3;
  phi_.assign(n + 1, Vec3::Zero());
  for (int j = 1; j <= n; ++j) phi_[j] = p.g * (j < n ? m : 0.5 * m + p.multirotor_mass) * e3;
  phi_[n] += p.thrust();
}

AttachedBody Mechanics::attached_body() const {
  AttachedBody body;
  body.M = p_.multirotor_mass;
  body.J = J_A_;
  body.rho_c = rho_c_;
  body.g = F_Q_ / p_.multirotor_mass;
  return body;
}

Mat3 Mechanics::top_block(const Mat3& R) const {
  const double mQ = p_.multirotor_mass;
  const Mat3 A = R * so3::hat(rho_c_);
  return (mQ * mQ) * (A * J_A_inverse_ * A.transpose()) * -1.0;  // hat(rho_c)^T = -hat(rho_c)
}

State Mechanics::initial_state(const InitialCondition& ic) const {
  State s;
  const int M = p_.multirotors;
  s.Vp = ic.payload_velocity;
  s.R.assign(M, ic.R0);
  s.Omega.assign(M, ic.Omega0);
  s.q.assign(M, std::vector<Vec3>(p_.links));
  s.omega.assign(M, std::vector<Vec3>(p_.links, Vec3::Zero()));
  for (int a = 0; a < M; ++a) {
    // Multirotors 360/m degrees apart in azimuth, the first in the e1-e3 plane (SPEC).
    const double psi = 2.0 * M_PI * a / M;
    const Vec3 dir(std::cos(ic.cable_elevation) * std::cos(psi), std::cos(ic.cable_elevation) * std::sin(psi),
                   -std::sin(ic.cable_elevation));
    for (auto& q : s.q[a]) q = ic.cable_span * dir;
  }
  return s;
}

State Mechanics::unpack(const Eigen::VectorXd& y) const {
  State s;
  unpack(y, s);
  return s;
}

void Mechanics::unpack(const Eigen::VectorXd& y, State& s) const {
  const int M = p_.multirotors, n = p_.links;
  s.Xp = y.segment<3>(0);
  s.Vp = y.segment<3>(3);
  s.R.resize(M);
  s.Omega.resize(M);
  s.q.resize(M);
  s.omega.resize(M);
  for (int a = 0; a < M; ++a) s.q[a].resize(n), s.omega[a].resize(n);
  int k = 6;
  for (int a = 0; a < M; ++a) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) s.R[a](r, c) = y(k++);
    s.Omega[a] = y.segment<3>(k);
    k += 3;
    for (int i = 0; i < n; ++i) {
      s.q[a][i] = y.segment<3>(k);
      s.omega[a][i] = y.segment<3>(k + 3);
      k += 6;
    }
  }
}

void Mechanics::pack(const State& s, Eigen::VectorXd& y) const {
  const int M = p_.multirotors, n = p_.links;
  y.resize(physical_size());
  y.segment<3>(0) = s.Xp;
  y.segment<3>(3) = s.Vp;
  int k = 6;
  for (int a = 0; a < M; ++a) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) y(k++) = s.R[a](r, c);
    y.segment<3>(k) = s.Omega[a];
    k += 3;
    for (int i = 0; i < n; ++i) {
      y.segment<3>(k) = s.q[a][i];
      y.segment<3>(k + 3) = s.omega[a][i];
      k += 6;
    }
  }
}

void Mechanics::joints(const Vec3& Xp, const std::vector<Vec3>& q, std::vector<Vec3>& J) const {
  const double l = p_.link_length();
  J.resize(p_.links + 1);
  J[0] = Xp;
  for (int j = 1; j <= p_.links; ++j) J[j] = J[j - 1] + l * q[j - 1];
}

namespace {
// Positions and velocities of every point mass: payload, link centres, multirotors.
template <class Visit>
void for_each_point_mass(const Mechanics& mech, const State& s, Visit&& visit) {
  const Parameters& p = mech.params();
  const double l = p.link_length();
  visit(p.payload_mass, s.Xp, s.Vp);
  for (int a = 0; a < p.multirotors; ++a) {
    Vec3 J = s.Xp, Jdot = s.Vp;
    for (int i = 0; i < p.links; ++i) {
      const Vec3 qdot = mech.link_rate(s.q[a][i], s.omega[a][i]);
      visit(p.link_mass, J + 0.5 * l * s.q[a][i], Jdot + 0.5 * l * qdot);
      J += l * s.q[a][i];
      Jdot += l * qdot;
    }
    // The multirotor's centre of mass, J_n + R rho_c (mechanics.hpp).
    visit(p.multirotor_mass, mech.centre_of_mass(J, s.R[a]), mech.centre_of_mass_velocity(Jdot, s.R[a], s.Omega[a]));
  }
}
}  // namespace

double Mechanics::kinetic_energy(const State& s) const {
  double T = 0.0;
  for_each_point_mass(*this, s, [&](double m, const Vec3&, const Vec3& v) { T += 0.5 * m * v.squaredNorm(); });
  for (int a = 0; a < p_.multirotors; ++a) T += 0.5 * s.Omega[a].dot(p_.J_Q * s.Omega[a]);
  return T;
}

double Mechanics::potential_energy(const State& s) const {
  // U = -sum m g x . e3 (seed 003 (10)) plus the thrust potential -f . X_Q (SPEC).
  double U = 0.0;
  for_each_point_mass(*this, s, [&](double m, const Vec3& x, const Vec3&) { U -= m * p_.g * x.dot(e3); });
  const double l = p_.link_length();
  for (int a = 0; a < p_.multirotors; ++a) {
    Vec3 XQ = s.Xp;
    for (const Vec3& q : s.q[a]) XQ += l * q;
    U -= p_.thrust().dot(centre_of_mass(XQ, s.R[a]));  // the thrust acts at the centre of mass
  }
  return U;
}

Vec3 Mechanics::linear_momentum(const State& s) const {
  Vec3 P = Vec3::Zero();
  for_each_point_mass(*this, s, [&](double m, const Vec3&, const Vec3& v) { P += m * v; });
  return P;
}

double Mechanics::angular_momentum_e3(const State& s) const {
  // Gravity and thrust are vertical, so their moments about the e3 axis vanish; the
  // multirotors' spin R J Omega adds its e3 component.
  double H = 0.0;
  for_each_point_mass(*this, s, [&](double m, const Vec3& x, const Vec3& v) { H += m * x.cross(v).dot(e3); });
  for (int a = 0; a < p_.multirotors; ++a) H += (s.R[a] * (p_.J_Q * s.Omega[a])).dot(e3);
  return H;
}

std::vector<std::string> Mechanics::extra_column_names() const {
  std::vector<std::string> names = {"payload_x", "payload_y", "payload_z", "P_x", "P_y", "P_z"};
  for (int a = 1; a <= p_.multirotors; ++a) {
    const std::string Q = p_.multirotors == 1 ? "multirotor" : "multirotor" + std::to_string(a);
    for (const char* c : {"_x", "_y", "_z"}) names.push_back(Q + c);
    for (int i = 1; i <= p_.links; ++i) names.push_back(Q + "_link" + std::to_string(i) + "_ang_mom");
    // With the attachment offset the multirotor's own angular momentum about its centre of mass,
    // R J_Q Omega, is exchanged with the cable (the tension's moment): its e3 component (its share
    // of pi3) and its body-frame component along b3 ((J_Q Omega)_3, constant for an axisymmetric
    // J_Q with rho on the axis: the Lagrange top).
    if (offset_) names.insert(names.end(), {Q + "_spin_ang_mom_e3", Q + "_spin_ang_mom_b3"});
  }
  return names;
}

Observation Mechanics::observe(const State& s) const {
  Observation o;
  o.kinetic = kinetic_energy(s);
  o.energy = o.kinetic + potential_energy(s);
  o.momentum = angular_momentum_e3(s);
  o.linear_momentum = linear_momentum(s);
  o.total_mass = 0.0;
  o.centre_of_mass.setZero();
  for_each_point_mass(*this, s, [&](double m, const Vec3& x, const Vec3&) {
    o.total_mass += m;
    o.centre_of_mass += m * x;
  });
  o.centre_of_mass /= o.total_mass;
  const double l = p_.link_length();
  o.extra.reserve(6 + p_.multirotors * (3 + p_.links + (offset_ ? 2 : 0)));  // extra_column_names()
  for (int k = 0; k < 3; ++k) o.extra.push_back(s.Xp(k));
  for (int k = 0; k < 3; ++k) o.extra.push_back(o.linear_momentum(k));
  std::vector<Vec3> J;
  for (int a = 0; a < p_.multirotors; ++a) {
    o.orthogonality_err = std::max(o.orthogonality_err, so3::orthogonality_error(s.R[a]));
    // A unilateral link may be shorter than l: only its overstretch |q_i| - 1 > 0 violates it.
    for (const Vec3& q : s.q[a])
      o.constraint_err = std::max(o.constraint_err, p_.unilateral ? q.norm() - 1.0 : s2::unit_length_error(q));
    joints(s.Xp, s.q[a], J);
    const Vec3 XQ = centre_of_mass(J[p_.links], s.R[a]);
    for (int k = 0; k < 3; ++k) o.extra.push_back(XQ(k));
    // Link angular momentum |P_omega_i| = |q_i x D_qdot_i L| (seed 003 (20)), where
    // D_qdot_i L = l sum_{j >= i} (M_J Jdot)_j (the transpose of the cumulative map J = B q), and
    // with the offset joint n's momentum gains m_Q R (Omega x rho_c) (mechanics.hpp).
    std::vector<Vec3> Jdot(p_.links + 1);
    Jdot[0] = s.Vp;
    for (int j = 1; j <= p_.links; ++j) Jdot[j] = Jdot[j - 1] + l * link_rate(s.q[a][j - 1], s.omega[a][j - 1]);
    Vec3 suffix = Vec3::Zero();
    std::vector<double> norms(p_.links);
    for (int j = p_.links; j >= 1; --j) {
      Vec3 pj = joint_mass_[j] * Jdot[j] + joint_coupling_[j] * Jdot[j - 1];
      if (j < p_.links) pj += joint_coupling_[j + 1] * Jdot[j + 1];
      else if (offset_) pj += p_.multirotor_mass * (s.R[a] * s.Omega[a].cross(rho_c_));
      suffix += pj;
      norms[j - 1] = s.q[a][j - 1].cross(l * suffix).norm();
    }
    for (double v : norms) o.extra.push_back(v);
    if (offset_) {
      const Vec3 spin = p_.J_Q * s.Omega[a];
      o.extra.push_back((s.R[a] * spin).dot(e3));
      o.extra.push_back(spin(2));
    }
  }
  return o;
}

}  // namespace tb::multirotor_payload
