#pragma once
// Model C (SPEC "Model C", seed 003 §§3-4): m >= 1 multirotors, each carrying a common
// point-mass payload through its own cable of n rigid massless links of length l with a point
// mass at each link's centre. Configuration R^3 x (SO(3) x (S^2)^n)^m.
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
  double link_length() const { return cable_length / links; }
  // Constant inertial thrust of multirotor a (SPEC): its share of the total weight, its own
  // mass and cable plus 1/m of the payload, upward: f = -(m_Q + n m_i + m_p/m) g e3.
  Vec3 thrust() const;
  double total_mass() const;
};

struct InitialCondition {
  double cable_elevation = 30.0 * 3.14159265358979323846 / 180.0;  // straight cables, angle above horizontal (rad)
  Vec3 payload_velocity = Vec3::Zero();
  Mat3 R0 = Mat3::Identity();       // every multirotor
  Vec3 Omega0 = Vec3::Zero();       // every multirotor, body frame (rad/s)
};

// The physical state, shared by every formulation: payload, then per multirotor its attitude
// and body angular velocity and per link the unit direction q_i (payload -> multirotor) and
// the link angular velocity omega_i (qdot_i = omega_i x q_i, omega_i . q_i = 0).
// Packed as [X_p, V_p, {R (9, row-major), Omega, {q_i, omega_i}_{i=1..n}}_{a=1..m}].
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

  double kinetic_energy(const State& s) const;
  double potential_energy(const State& s) const;  // gravity plus the thrust potential -f . X_Q
  Vec3 linear_momentum(const State& s) const;      // sum of m v = P_V of seed 003 (19)
  double angular_momentum_e3(const State& s) const;
  Observation observe(const State& s) const;
  std::vector<std::string> extra_column_names() const;

 private:
  Parameters p_;
  Mat3 J_Q_inverse_;
  std::vector<double> joint_mass_, joint_coupling_;  // index j = 0..n (joint_mass_[0] unused)
  double payload_joint_mass_ = 0.0;
  Vec3 phi_payload_;
  std::vector<Vec3> phi_;
};

}  // namespace tb::multirotor_payload
