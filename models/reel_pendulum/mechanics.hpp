#pragma once
// Model B, the string pendulum with a reel mechanism (seeds 001/002; SPEC "Model B"): the
// semi-discrete system every formulation of this model integrates. The deployed string has
// N elements of unstretched length l = (L - s_p)/N that change as the reel turns; the kinetic
// energy is the paper's (29)-(31) with the inertia terms of Appendix A.1 (the paper's M3, which
// treats the sliding kinetic energy as unstretched: SPEC decision), the potential (33), the
// Carnot loss (21) and the control moment u on the drum.
//
// Coordinates: s = s_p (unstretched arc length from the drum anchor to the guide way entrance),
// nodes q_1 = 0 (guide way entrance, r_p = 0), q_2 ... q_{N+1} (attachment point), R, Omega.
// Node vectors are indexed from 0: q[a-1] is node a. When the reel is locked, s is constant and
// the model is Model A with a string of length L - s_p.

#include <Eigen/Dense>
#include <vector>

#include "numerics/bordered_block_tridiagonal.hpp"
#include "mechanics/elastic_element.hpp"
#include "core/formulation.hpp"
#include "numerics/lie_group.hpp"

namespace tb::reel_pendulum {

struct Parameters {
  int N = 20;                 // elements of the deployed string
  double mu = 0.0;            // string mass per unstretched length (kg/m)
  double L = 0.0;             // total unstretched string length (m)
  double EA = 0.0;            // axial stiffness (N)
  double M = 0.0;             // rigid body mass (kg)
  Vec3 rho_c = Vec3::Zero();  // attachment point -> centre of mass, body frame (m)
  Mat3 J = Mat3::Zero();      // body inertia about the attachment point (kg m^2)
  double g = 9.81;
  double b = 0.0;             // drum to guide way (m); r_d . e3 = -b (SPEC geometry decision)
  double d = 0.0;             // drum radius (m)
  double kappa_d = 0.0;       // drum inertia I_d = kappa_d d^2 (kg)
  double u = 0.0;             // control moment on the drum (N m)
  bool reel_locked = false;   // case 1: s_p fixed, the reel equation dropped
  // Elements that cannot push ([model] cable = "tension_only", issue 47): each element is the
  // shared law of mechanics/elastic_element.hpp with u = l(s_p) and kappa = EA/l, so a slack
  // element (|x| < l) has no force, no stiffness and no strain energy, and, l moving with s_p, no
  // dV/ds either. The seed's string (false) pushes when shorter than l. Model B has no axial damper.
  bool tension_only = false;
  // The LGVI's discrete Lagrangian and forcing. Paper: seed 002 (34), (37), (38) as printed —
  // kinetic energy with the mass matrix at g_k, forcing evaluated at step k and applied at k
  // (f- = f, f+ = 0). Both are one-sided quadratures, so when the reel moves (the mass matrix
  // depends on s_p and the nodes) the scheme is first order. Midpoint (default): the same
  // terms at the step's midpoint configuration and the forcing split f- = f+ = f/2 — a
  // symmetric discrete Lagrangian, second order, still variational. With the reel locked the
  // two coincide (constant mass matrix, no forcing). Decision recorded in cases/README.md.
  enum class Discretization { Midpoint, Paper };
  Discretization discretization = Discretization::Midpoint;
  double kinetic_weight() const { return discretization == Discretization::Midpoint ? 0.5 : 0.0; }
};

struct State {
  double s = 0.0, sdot = 0.0;  // s_p and its rate
  std::vector<Vec3> q, v;      // N+1 nodes; q[0] = v[0] = 0
  Mat3 R = Mat3::Identity();
  Vec3 Omega = Vec3::Zero();
  double carnot_work = 0.0;    // integral of Q sdot dt (J), <= 0 when retrieving
  double control_work = 0.0;   // integral of (u/d) sdot dt (J)
};

struct InitialCondition {
  double s0 = 0.0;
  Vec3 string_direction = Vec3::UnitX();  // straight, unstretched deployed string
  Vec3 body_velocity = Vec3::Zero();      // velocity of the attachment point; string nodes at rest
  Mat3 R0 = Mat3::Identity();
  Vec3 Omega0 = Vec3::Zero();
};

class Mechanics {
 public:
  explicit Mechanics(const Parameters& p);
  const Parameters& params() const { return p_; }
  int nodes() const { return p_.N + 1; }
  double element_length(double s) const { return (p_.L - s) / p_.N; }

  State initial_state(const InitialCondition& ic) const;

  // Appendix A.1 coefficients: M3_a = mu l m3(a), M23_a = mu c23(a) (q_a - q_{a+1}),
  // M31_a = mu c31(a) (q_a - q_{a+1}), a = 1..N.
  double m3(int a) const { return m3_[a - 1]; }
  double c23(int a) const { return c23_[a - 1]; }
  double c31(int a) const { return c31_[a - 1]; }
  double m3_sum() const { return m3_sum_; }

  // Mass matrix over (qdot_2..qdot_{N+1}, Omega | sdot): block-tridiagonal core (Model A's,
  // with element mass mu l) bordered by the reel coordinate. The border is left zero when the
  // reel is locked.
  void assemble_mass_matrix(const State& s, BorderedBlockTridiagonal3& A) const;
  // The string-and-reel part of it alone, over (qdot_2..qdot_{N+1} | sdot): N node blocks (the
  // attachment node with its element's mass mu l/3 only) and the same border and corner. The
  // DAE form, whose body is a separate rigid body, uses it; assemble_mass_matrix adds the body.
  void assemble_string_reel_mass_matrix(const State& s, BorderedBlockTridiagonal3& A) const;
  // Generalised momenta (p_2..p_{N+1}, Pi | p_s) = A v.
  Eigen::VectorXd momenta(const State& s) const;
  void set_velocities_from_momenta(const Eigen::VectorXd& momenta, State& s) const;

  double kinetic_energy(const State& s) const;
  double potential_energy(const State& s) const;
  // dV/ds and dV/dq_a (a = 1..N+1, index a-1), the gradient used by every formulation.
  double potential_gradient(double s, const std::vector<Vec3>& q, std::vector<Vec3>& dV_dq) const;
  // The same without the body's weight (string and reel potential only).
  double string_reel_potential_gradient(double s, const std::vector<Vec3>& q, std::vector<Vec3>& dV_dq) const;
  // Carnot loss term Q = -1/2 (mu sdot^2 + EA) eps+^2, eps+ = (|q_2| - l)/l (paper (21)).
  double carnot_force(const State& s) const;
  // eps+, the strain the element at the guide way carries: 0 while it is slack (tension-only), so
  // that Q, its derivatives and the tension_guide column follow the element law (mechanics.cpp).
  double guide_way_strain(const State& s) const;
  // Element a (joining q_a and q_{a+1}) at element length l is slack: mechanics/elastic_element.hpp.
  bool element_slack_at(double l, const Vec3& x) const { return element_slack(l, x, p_.tension_only); }

  // Accelerations (qddot_2..qddot_{N+1}, Omegadot | sddot): the Euler-Lagrange equations of
  // the semi-discrete Lagrangian with the generalised force Q + u/d on s (sddot = 0 when locked).
  void accelerations(const State& s, Eigen::VectorXd& acc) const;
  // Right-hand sides of the string-and-reel part of those equations, without the body
  // (3N + 1 entries: nodes 2..N+1, then s): -dV/dq, the velocity terms of the configuration-
  // dependent mass matrix, and on s the forces Q + u/d, dT/ds - dV/ds and the momentum rates.
  // accelerations() adds the body's terms; the DAE form applies them to its own body.
  void string_reel_forces(const State& s, Eigen::VectorXd& h) const;
  // h split as the variational schemes need it (h = applied + dT/dq - (dA/dq v) v, same layout):
  // the configuration gradient of the string-and-reel kinetic energy at fixed velocities
  // (dT/dq_j, dT/ds: zero with the reel locked), and the applied forces alone (-dV/dq on the
  // nodes, Q + u/d - dV/ds on s).
  void string_reel_kinetic_gradient(const State& s, Eigen::VectorXd& dT) const;
  void string_reel_applied_forces(const State& s, Eigen::VectorXd& f) const;

  double angular_momentum_e3(const State& s) const;  // e3 . (sum q_a x p_a + R Pi)
  double stretched_length(const State& s) const;

  Observation observe(const State& s) const;
  static std::vector<std::string> extra_column_names();

  // Physical layout shared by every formulation:
  // [s, sdot, q_2..q_{N+1}, v_2..v_{N+1}, R (row-major), Omega, carnot_work, control_work].
  int physical_size() const { return 6 * p_.N + 16; }
  Eigen::VectorXd pack(const State& s) const;
  void unpack_into(const Eigen::VectorXd& y, State& s) const;
  State unpack(const Eigen::VectorXd& y) const;

 private:
  Parameters p_;
  std::vector<double> m3_, c23_, c31_;
  double m3_sum_ = 0.0;
  mutable BorderedBlockTridiagonal3 mass_, string_reel_mass_;  // workspaces (one formulation per run)
  mutable std::vector<Vec3> dV_dq_;
  mutable Eigen::VectorXd forces_;
};

}  // namespace tb::reel_pendulum
