#pragma once
// The formulations Model C offers (SPEC "Formulations"): the embedded ODE of seed 003 §3.1 /
// §4.1 (q_i as 3-vectors, R as 9 numbers) for RK4/RK45, the Lie group variational
// integrator's position-momentum step (seed 003 Algorithm 1, eqs. (22)-(28), (35)-(38)), and
// the Baumgarte-stabilised index-1 DAE in natural coordinates (seed 004 §§2-4) for IDA.
// All solve their cable linear algebra with CableTreeKkt in O(m n).

#include <memory>

#include "models/multirotor_payload/cable_tree_kkt.hpp"
#include "mechanics/natural_rigid_body.hpp"
#include "models/multirotor_payload/mechanics.hpp"
#include "models/multirotor_payload/natural_coordinates.hpp"

namespace tb::multirotor_payload {

// The Lie group form stores the cable's momenta as joint momenta z (lie_group_form.cpp): z_j^a
// in link j's velocity slot, and in the payload's the total linear momentum P_V = sum of every
// z (seed 003's P_V), so that the discrete Noether identity keeps it exactly; the payload
// joint's own z_0 is P_V less the cable joints' (payload and multirotor masses are alike, so
// this difference keeps z_0's digits). These move them between a State's velocity slots and
// the CableTreeKkt layout (the tau slots zero).
void read_joint_momenta(const Mechanics& mech, const State& s, Eigen::VectorXd& z);
void write_joint_momenta(const Mechanics& mech, const Eigen::VectorXd& z, State& s);

// Generalised momenta from joint momenta z_j (joint-coordinate covectors): p_X = sum of all
// z_j, P_omega_i = q_i x (l sum_{j >= i} z_j) — B^T followed by the S^2 pairing.
void joint_to_momentum(const Mechanics& mech, const Eigen::VectorXd& z, const std::vector<std::vector<Vec3>>& q,
                       Vec3& pX, std::vector<std::vector<Vec3>>& P_omega);

// (M_J x) for x in the CableTreeKkt layout (the tau slots are ignored), into the same layout.
void joint_mass_times(const Mechanics& mech, const Eigen::VectorXd& x, Eigen::VectorXd& Mx);
// The same and M_J |x| (the magnitudes of its terms, for a round-off floor) in one pass.
void joint_mass_times(const Mechanics& mech, const Eigen::VectorXd& x, Eigen::VectorXd& Mx, Eigen::VectorXd& M_abs_x);

class OdeForm final : public OdeFormulation {
 public:
  // |q_i| = 1 drifts (q_i stored as 3-vectors); its rate does not: q_i' = omega_i x q_i keeps d|q_i|/dt = 0 identically.
  IntegratedConstraints integrated_constraints() const override { return {true, false}; }
  OdeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return mech_.physical_size(); }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  bool project(Eigen::VectorXd& y) const override;  // each R onto SO(3); each (q_i, omega_i) onto |q_i| = 1, q_i . omega_i = 0
  lie::HomogeneousProduct manifold() const override;  // each R in SO(3), each q_i in S^2, X_p a position, each with its rate
  // The rate rows in mass-matrix form for the Lie group form (LieGroupOdeOf), bordered with one
  // multiplier per link (the KKT's tau), so that they stay local along each cable: derivation,
  // row transform and layout in rate_rows.cpp. Rate layout [Omega_a (3 m), omega_i^a (3 m n),
  // V_p (3)], then the multipliers tau_i^a (m n).
  int rate_multipliers() const { return mech_.params().multirotors * mech_.params().links; }
  void rate_multiplier_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& tau) const;
  void rate_residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                     Eigen::VectorXd& S) const;
  void rate_tangent_entries(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                            std::vector<Eigen::Triplet<double>>& M, std::vector<Eigen::Triplet<double>>& K,
                            std::vector<Eigen::Triplet<double>>& C) const;
  Observation observe(double, const Eigen::VectorXd& y) const override { return mech_.observe(mech_.unpack(y)); }
  std::vector<std::string> extra_column_names() const override { return mech_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
  mutable CableTreeKkt kkt_;  // rhs() workspace (one formulation object per run)
  mutable std::vector<std::vector<Vec3>> q_;
  mutable std::vector<Mat3> top_;        // with the attachment offset: joint n's extra mass block per multirotor
  mutable std::vector<Vec3> torque_rhs_;  // and the attitude row's right-hand side (ode_form.cpp)
  mutable Eigen::VectorXd kkt_rhs_, kkt_sol_;
};

// State layout: the physical layout with velocities replaced by momenta:
// [X_p, P_V, {R (9), Pi = J_Q Omega, {q_i, P_omega_i}}_a].
class LieGroupForm final : public DiscreteLieGroupFormulation {
 public:
  // |q_i| = 1 kept by q_{k+1} = F q_k to round-off, which the metric measures; the state holds momenta, no rate of |q_i|.
  IntegratedConstraints integrated_constraints() const override { return {true, false}; }
  LieGroupForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return mech_.physical_size(); }
  Eigen::VectorXd initial_state() const override;
  Observation observe(double, const Eigen::VectorXd& y) const override { return mech_.observe(to_physical(y)); }
  std::vector<std::string> extra_column_names() const override { return mech_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;
  std::unique_ptr<DiscreteLieGroupStep> make_step() const override;

  const Mechanics& mechanics() const { return mech_; }
  // Continuous Legendre transform (seed 003 (19)-(20)) and its O(m n) inverse.
  State to_physical(const Eigen::VectorXd& y) const;
  Eigen::VectorXd from_physical(const State& s) const;
  // The state in the seed's coordinates (X_p, P_V, R, Pi, q_i, P_omega_i; seed 003 (19)-(20)):
  // p = B^T z, the same for every representative z, each momentum rounded relative to its own size.
  Eigen::VectorXd canonical_state(const Eigen::VectorXd& y) const override;

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

// The same mechanical system as a Baumgarte-stabilised index-1 DAE in natural coordinates
// (seed 004 "Pendulum in Cartesian Coordinates", §3 "Baumgarte Stabilisation", §4 "Full
// model" of a tether): every cable joint is a point in R^3 with its velocity, each link a
// constraint C = (|J_j - J_{j-1}|^2 - l^2)/2 with its multiplier, each multirotor R as 9
// numbers and Omega. Equations, state ordering and bandwidths: dae_form.cpp.
class DaeForm final : public DaeFormulation {
 public:
  // The link lengths and their rates, kept by Baumgarte stabilisation only.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  DaeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return 6 + 7 * m_ * n_ + 12 * m_; }
  Eigen::VectorXd initial_state() const override { return consistent_initial_state({}); }
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return mech_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;

  Eigen::VectorXd differential_components() const override;
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters& b) const override;
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters& b) const override;
  void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                Eigen::VectorXd& F) const override;
  void jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& entries) const override;
  int lower_bandwidth() const override;
  int upper_bandwidth() const override;

  const Mechanics& mechanics() const { return mech_; }
  // Where each variable sits in y (and each equation in F). joint_index(a, 0) is the payload
  // for every cable a; multiplier_index needs j >= 1.
  int joint_index(int a, int j) const { return j == 0 ? 0 : 6 + 7 * (m_ * (j - 1) + a) + 1; }
  int velocity_index(int a, int j) const { return joint_index(a, j) + 3; }
  int multiplier_index(int a, int j) const { return 6 + 7 * (m_ * (j - 1) + a); }
  int angular_velocity_index(int a) const { return 6 + 7 * m_ * n_ + 12 * a; }
  int rotation_index(int a) const { return angular_velocity_index(a) + 3; }  // 9 entries, row-major

  // The index-1 system solved at the differential part of y (joints, velocities, R, Omega):
  // overwrites the multipliers in y and returns y' (accelerations, and the multipliers' rates
  // along the motion, so that IDA's first predictor is exact to first order too). With `released`
  // ([cable][link - 1], issue 48's unilateral links gone slack), those links carry no multiplier and
  // their rows leave the system (HybridDaeForm).
  Eigen::VectorXd solve_index_one(Eigen::VectorXd& y, const BaumgarteParameters& b,
                                  const std::vector<std::vector<bool>>* released = nullptr) const;
  // The DAE state of a physical state (multipliers zero, to be completed by solve_index_one).
  Eigen::VectorXd from_physical(const State& s) const;
  // The physical state of a DAE state: q_i = (J_i - J_{i-1})/l, NOT normalised, so that the
  // link-length drift shows in |q_i| - 1; omega_i = q_i x qdot_i with qdot_i = (V_i - V_{i-1})/l.
  State to_physical(const Eigen::VectorXd& y) const;

 private:
  Joints joints(const Eigen::VectorXd& y) const;
  Mechanics mech_;
  InitialCondition ic_;
  int m_, n_;
};

// The constrained mechanical system in natural coordinates (RATTLE): every cable joint a point
// in R^3, every multirotor's R as 9 numbers, with the constant mass matrix M = M_J (joints,
// block-tridiagonal along each cable, Mechanics) (+) I3 (x) J_d (each multirotor), the constant
// joint forces phi (gravity and thrust; no torque), the link constraints
// C_j = (|d_j|^2 - l^2)/2 and each multirotor's R^T R - I = 0. Ordering:
//   q = [J_0 | for a, for j = 1..n: J_j^a | for a: R_a (9)],  v alike,  y = [q, v];
//   g = [for a, for j: C_j^a | for a: the 6 of R_a^T R_a - I].
// The saddle-point system decouples into the cable tree (CableTreeKkt, O(m n)) and one 6x6
// Schur complement per multirotor (NaturalRigidBody). With the attachment offset M gains a
// constant coupling of joint n and R', the body block J_A and the force a constant term on R
// (constrained_form.cpp); the constraints are unchanged.
class ConstrainedForm final : public ConstrainedMechanicalFormulation {
 public:
  // The link lengths and their rates, solved to the scheme's tolerance each step.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  ConstrainedForm(const Parameters& p, const InitialCondition& ic);
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return mech_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;

  int positions() const override { return 3 + 3 * m_ * n_ + 9 * m_; }
  int constraints() const override { return m_ * n_ + 6 * m_; }
  void mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const override;
  void mass_entries(std::vector<Eigen::Triplet<double>>& entries) const override;
  void force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const override;
  void constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  Eigen::VectorXd constraint_scale() const override;
  void constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const override;
  void constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Gv) const override;
  void constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                           Eigen::VectorXd& GTlambda) const override;
  std::unique_ptr<ConstrainedMechanicalSolver> make_solver() const override;
  // Tangents: the joint forces are constant (K_f = C_f = 0); K_g of the link constraints
  // (lambda_j I on the link's two joints, -lambda_j I between them) and of each R^T R - I.
  std::string why_not_tangents() const override { return ""; }
  void constraint_force_jacobian_entries(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                         std::vector<Eigen::Triplet<double>>& entries) const override;
  // Every constraint is a homogeneous quadratic in q (|d_j|^2 / 2 - const, R^T R - I), so
  // d^2 g/dq^2 [v, v] = G(v) v: |DV_j|^2 on a link, the rate terms of R'^T R' on a body.
  bool constraint_curvature(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Hvv) const override;

  // Issue 48, with Parameters::unilateral: the links are one-sided (|d_j| <= l, a tension only),
  // the bodies' R^T R = I rows stay equalities; the impacts' loss W rides after [q, v]. The solver's
  // factor_active releases links (CableTreeKkt) and keeps every body row.
  bool unilateral() const override { return mech_.params().unilateral; }
  bool one_sided(int row) const override { return mech_.params().unilateral && row < m_ * n_; }
  double restitution() const override { return mech_.params().restitution; }
  int work_terms() const override { return mech_.params().unilateral ? 1 : 0; }
  void power(double, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& P) const override {
    P = Eigen::VectorXd::Zero(work_terms());  // the loss accrues only at impacts, from the integrator
  }

  const Mechanics& mechanics() const { return mech_; }
  // [q, v] (and W = 0 where unilateral) of a physical state.
  Eigen::VectorXd natural_state(const State& s) const;
  // Each link's tension (N) at the natural state y, from the acceleration-level saddle point with
  // the links at their length (within kLinkAtLength) held and the others slack; a slack link's
  // entry is what it would carry if it held too (every link held), so that its sign says which way
  // it goes. [a n + j - 1]. Empty where the system is singular.
  // With `acceleration`, the held solve's accelerations v' there too.
  std::vector<double> link_tensions(const Eigen::VectorXd& y, Eigen::VectorXd* acceleration = nullptr) const;
  int joint_index(int a, int j) const { return j == 0 ? 0 : 3 + 3 * (a * n_ + j - 1); }
  int rotation_index(int a) const { return 3 + 3 * m_ * n_ + 9 * a; }
  int link_row(int a, int j) const { return a * n_ + j - 1; }
  int rotation_row(int a) const { return m_ * n_ + 6 * a; }
  Joints joints(const Eigen::VectorXd& y) const;
  State to_physical(const Eigen::VectorXd& y) const;

 private:
  Mechanics mech_;
  InitialCondition ic_;
  int m_, n_;
  NaturalRigidBody body_;
};

}  // namespace tb::multirotor_payload
