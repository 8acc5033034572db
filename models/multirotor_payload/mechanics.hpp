#pragma once
// Model C (SPEC "Model C", seed 003 §§3-4): m >= 1 multirotors, each carrying a common
// point-mass payload through its own cable of n rigid massless links of length l with a point
// mass at each link's centre. Configuration R^3 x (SO(3) x (S^2)^n)^m.
//
// The attachment offset rho (Parameters::attachment_offset): cable a's top joint J_n^a is the
// multirotor's attachment point X_Q + R rho, so its centre of mass is X_Q = J_n + R rho_c with
// rho_c = -rho (attachment -> centre of mass, Model A's rho_c of seed 000 §IV). The multirotor
// is then seed 000's body hanging from the string's end, upside down: its kinetic energy is
//   1/2 m_Q |J_n' + R hat(Omega) rho_c|^2 + 1/2 Omega.J_Q Omega
//   = 1/2 m_Q |J_n'|^2 + m_Q J_n'.R (Omega x rho_c) + 1/2 Omega.J_A Omega,
//   J_A = J_Q + m_Q (|rho|^2 I - rho rho^T) (the inertia about the attachment point),
// and the vertical force at its centre of mass, F_Q e3 = m_Q g e3 + f (its weight and thrust),
// has the potential -F_Q e3.(J_n + R rho_c): the joint force phi_n (already at J_n) plus the
// attitude potential -F_Q e3.R rho_c, whose moment rho_c x R^T F_Q e3 is the cable tension's
// moment about the centre of mass (in equilibrium the tension balances F_Q). m_Q stays lumped in
// joint n's mass; the terms in rho_c couple joint n's translation to the attitude. With rho = 0
// every term vanishes and the forms run their uncoupled code, bit for bit.
//
// The cables are handled in JOINT coordinates: joint 0 is the payload X_p, joint j of cable a
// is X_p + l (q_1^a + ... + q_j^a), joint n is the multirotor X_Q^a. Link i's mass sits at
// (J_{i-1} + J_i)/2. In these coordinates the kinetic energy is block-tridiagonal along each
// cable (the seed's dense mass terms M_0i, M_ij of §3.1 are B^T M_J B for the cumulative map
// J = B (X_p, q), whose inverse is bidiagonal), so every linear solve on a cable is O(n):
// see cable_tree_kkt.hpp.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "core/formulation.hpp"
#include "mechanics/attached_body_lgvi.hpp"
#include "numerics/lie_group.hpp"

namespace tb::multirotor_payload {

struct Parameters {
  int multirotors = 1;          // m
  int links = 10;               // n, per cable
  double cable_length = 1.0;    // n l (m)
  double link_mass = 0.005;     // m_i, every link (kg)
  double payload_mass = 0.5;    // m_p (kg)
  double multirotor_mass = 1.2; // m_Q (kg)
  Mat3 J_Q = Mat3::Identity();  // multirotor inertia about its centre of mass, body frame (kg m^2)
  Vec3 attachment_offset = Vec3::Zero();  // cable attachment point from the multirotor's centre of mass, body frame (m)
  double g = 9.81;
  // Issue 48: each link a unilateral constraint |J_j - J_{j-1}| <= l (an inextensible cable that
  // goes slack and snaps taut), with Newton's impact law of restitution e at a link that closes.
  // The physical state then carries each link's stretching rate too (State below).
  bool unilateral = false;
  double restitution = 0.0;
  // The "no events" baseline's links (discretisation "penalty", penalty_links.hpp): each link's contact
  // frequency against the rest of the cable held rigid (rad/s); 0: no penalty discretisation (it is opt-in).
  double penalty_frequency = 0.0;
  // The hybrid forms' closing rules (core/hybrid_constrained_ode.hpp: HybridClosingRules), relative to the
  // link length: where a closing is located beyond the length, and the inward flights held instead of
  // integrated. Case keys so that the snap study can measure their share of its reference.
  double closing_offset = 1e-10;
  double held_flight_depth = 1e-8;
  double link_length() const { return cable_length / links; }
  // Constant inertial thrust of multirotor a (SPEC): its share of the total weight, its own
  // mass and cable plus 1/m of the payload, upward: f = -(m_Q + n m_i + m_p/m) g e3.
  Vec3 thrust() const;
  double total_mass() const;
  // With the attachment offset rho (below): the inertia about the attachment point, J_A = J_Q +
  // m_Q (|rho|^2 I - rho rho^T) (J_Q itself for rho = 0), and the net vertical force at the
  // centre of mass F_Q = m_Q g + f.e3 (its weight and thrust; along e3).
  Mat3 attachment_inertia() const;
  double body_force() const;
};

struct InitialCondition {
  double cable_elevation = 30.0 * 3.14159265358979323846 / 180.0;  // straight cables, angle above horizontal (rad)
  Vec3 payload_velocity = Vec3::Zero();
  Mat3 R0 = Mat3::Identity();       // every multirotor
  Vec3 Omega0 = Vec3::Zero();       // every multirotor, body frame (rad/s)
  // Each cable's chord over its length n l: 1 straight and taut; below 1 (unilateral links only)
  // every link shortened alike along the chord, a slack cable (|q_i| = cable_span).
  double cable_span = 1.0;
};

// The physical state, shared by every formulation: payload, then per multirotor its attitude
// and body angular velocity and per link the unit direction q_i (payload -> multirotor) and
// the link angular velocity omega_i (qdot_i = omega_i x q_i, omega_i . q_i = 0).
// Packed as [X_p, V_p, {R (9, row-major), Omega, {q_i, omega_i}_{i=1..n}}_{a=1..m}].
// With unilateral links q_i = d_i / l is no longer a unit vector, and its rate has a part along
// itself (the link's stretching rate) that q_i' = omega_i x q_i cannot carry: omega_i's component
// along q_i carries it, q_i' = omega_i x q_i + (omega_i . q_i / |q_i|^2) q_i (Mechanics::link_rate),
// a one-to-one map for q_i != 0 that is the usual one where omega_i . q_i = 0.
struct State {
  Vec3 Xp = Vec3::Zero(), Vp = Vec3::Zero();
  std::vector<Mat3> R;
  std::vector<Vec3> Omega;
  std::vector<std::vector<Vec3>> q, omega;  // [a][i], i = 0..n-1 is link i+1
};

class Mechanics {
 public:
  explicit Mechanics(const Parameters& p);
  const Parameters& params() const { return p_; }
  const Mat3& inverse_inertia() const { return J_Q_inverse_; }  // J_Q^{-1}, factored once
  int physical_size() const { return 6 + p_.multirotors * (12 + 6 * p_.links); }

  State initial_state(const InitialCondition& ic) const;
  State unpack(const Eigen::VectorXd& y) const;
  void unpack(const Eigen::VectorXd& y, State& s) const;  // into s, reusing its storage
  void pack(const State& s, Eigen::VectorXd& y) const;

  // Joint-coordinate mass matrix of one cable (scalar multiples of I3): diag(j) for joints
  // j = 1..n, coupling(j) between joints j-1 and j (j = 1..n); the payload joint's diagonal
  // collects every cable's first half-link.
  double joint_mass(int j) const { return joint_mass_[j]; }
  double joint_coupling(int j) const { return joint_coupling_[j]; }
  double payload_joint_mass() const { return payload_joint_mass_; }
  // Constant joint forces: gravity of the masses lumped to the joints plus the thrust at the
  // multirotor joint; phi_payload at joint 0 and phi(j) at joint j of every cable.
  const Vec3& payload_joint_force() const { return phi_payload_; }
  const Vec3& joint_force(int j) const { return phi_[j]; }

  // Joints J_j^a (j = 1..n) of cable a from X_p and its directions.
  void joints(const Vec3& Xp, const std::vector<Vec3>& q, std::vector<Vec3>& J) const;
  // q_i' from (q_i, omega_i), and omega_i from (q_i, q_i') (State): omega x q and q x q' with
  // bilateral links, and with unilateral ones the stretching rate along q_i as well.
  Vec3 link_rate(const Vec3& q, const Vec3& omega) const {
    return p_.unilateral ? Vec3(omega.cross(q) + (omega.dot(q) / q.squaredNorm()) * q) : Vec3(omega.cross(q));
  }
  Vec3 link_angular_velocity(const Vec3& q, const Vec3& qdot) const {
    return p_.unilateral ? Vec3((q.cross(qdot) + q.dot(qdot) * q) / q.squaredNorm()) : Vec3(q.cross(qdot));
  }

  // The attachment offset (header): whether rho != 0, and the pieces of the coupling.
  bool attachment_offset() const { return offset_; }
  const Vec3& centre_offset() const { return rho_c_; }                     // rho_c = -rho, body frame
  const Mat3& attachment_inertia() const { return J_A_; }                  // J_A, about the attachment point
  const Mat3& attachment_inertia_inverse() const { return J_A_inverse_; }  // J_A^{-1}, factored once
  double body_force() const { return F_Q_; }  // F_Q: the vertical force at the centre of mass, m_Q g + f.e3
  // The multirotor as seed 000's attached body (mechanics/attached_body_lgvi.hpp): M = m_Q,
  // J = J_A, rho_c, and g = F_Q / m_Q (the vertical force per unit mass at its centre of mass).
  AttachedBody attached_body() const;
  // Centre of mass X_Q = J_n + R rho_c and its velocity J_n' + R (Omega x rho_c).
  Vec3 centre_of_mass(const Vec3& Jn, const Mat3& R) const { return offset_ ? Vec3(Jn + R * rho_c_) : Jn; }
  Vec3 centre_of_mass_velocity(const Vec3& Vn, const Mat3& R, const Vec3& Omega) const {
    return offset_ ? Vec3(Vn + R * Omega.cross(rho_c_)) : Vn;
  }
  // Eliminating Omega' (or Omega) from the rotational row J_A w + m_Q rho_c x R^T a_n = b leaves
  // joint n's row with the 3x3 mass block m_Q^2 R hat(rho_c) J_A^{-1} hat(rho_c) R^T (negative
  // semi-definite; M_J's joint-n block plus it is the Schur complement of the positive definite
  // mass matrix, so positive definite) and the right-hand side + m_Q R hat(rho_c) J_A^{-1} b.
  Mat3 top_block(const Mat3& R) const;
  Vec3 top_rhs(const Mat3& R, const Vec3& b) const { return p_.multirotor_mass * (R * rho_c_.cross(J_A_inverse_ * b)); }
  // The rotational unknown from the row: J_A^{-1} (b - m_Q rho_c x R^T a_n).
  Vec3 rotational_solution(const Mat3& R, const Vec3& b, const Vec3& an) const {
    return J_A_inverse_ * (b - p_.multirotor_mass * rho_c_.cross(R.transpose() * an));
  }

  double kinetic_energy(const State& s) const;
  double potential_energy(const State& s) const;  // gravity plus the thrust potential -f . X_Q
  Vec3 linear_momentum(const State& s) const;      // sum of m v = P_V of seed 003 (19)
  double angular_momentum_e3(const State& s) const;
  Observation observe(const State& s) const;
  std::vector<std::string> extra_column_names() const;

 private:
  Parameters p_;
  Mat3 J_Q_inverse_;
  bool offset_ = false;
  Vec3 rho_c_ = Vec3::Zero();
  Mat3 J_A_, J_A_inverse_;
  double F_Q_ = 0.0;
  std::vector<double> joint_mass_, joint_coupling_;  // index j = 0..n (joint_mass_[0] unused)
  double payload_joint_mass_ = 0.0;
  Vec3 phi_payload_;
  std::vector<Vec3> phi_;
};

}  // namespace tb::multirotor_payload
