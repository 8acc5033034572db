#pragma once
// The formulations Model B offers: the embedded ODE (RK4/RK45 cross-validation of the LGVI,
// which the paper does not have), the discrete Lie group form (the paper's LGVI), the
// Baumgarte-stabilised index-1 DAE (IDA) and, with the reel moving, the constrained mechanical
// form with a configuration-dependent mass matrix (RATTLE, generalized-alpha).

#include "mechanics/attached_body_dae.hpp"
#include "mechanics/end_body_rates.hpp"
#include "mechanics/attachment_constraint.hpp"
#include "mechanics/natural_rigid_body.hpp"
#include "models/reel_pendulum/discrete_lagrangian.hpp"
#include "models/reel_pendulum/mechanics.hpp"

namespace tb::reel_pendulum {

// State: the physical layout of Mechanics::pack, with the work integrals as quadratures
// (carnot_work' = Q sdot, control_work' = (u/d) sdot) integrated to the method's accuracy.
class OdeForm final : public OdeFormulation {
 public:
  // The body rides on the end node by construction: no constraint among the coordinates.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  OdeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return mech_.physical_size(); }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  bool project(Eigen::VectorXd& y) const override;  // R onto SO(3); s, the nodes and the works are free
  lie::HomogeneousProduct manifold() const override;  // R in SO(3); s and the nodes positions; the works free
  // The rate rows in mass-matrix form for the Lie group form (LieGroupOdeFormulation, forwarded
  // by LieGroupOdeOf), in its rate layout [Omega, v_2..v_{N+1}, sdot] (the reel's rate last, and
  // only when the reel is free: locked, s and sdot are constants outside the configuration):
  // r = A(s, q, R) [v'; Omega'; sddot] - f with the bordered mass matrix and right-hand sides of
  // Mechanics::accelerations, and its tangents K (in R, the nodes, s) and C (in Omega, the node
  // velocities, sdot): block-tridiagonal bordered by the reel's row and column, O(N) entries.
  // Derivation in ode_rate_rows.cpp.
  void rate_residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                     Eigen::VectorXd& S) const;
  void rate_tangent_entries(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                            std::vector<Eigen::Triplet<double>>& M, std::vector<Eigen::Triplet<double>>& K,
                            std::vector<Eigen::Triplet<double>>& C) const;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }

 private:
  // The rate rows' pieces: vdot in Mechanics' order (nodes, Omega, sddot) and back.
  void to_mechanics_order(const Eigen::VectorXd& vdot, Eigen::VectorXd& x) const;
  bool free_reel() const { return !mech_.params().reel_locked; }

  Mechanics mech_;
  InitialCondition ic_;
  EndBody body_;  // the body's terms in the rate rows (shared with Model A)
  mutable State state_;
  mutable Eigen::VectorXd acc_;
  mutable BorderedBlockTridiagonal3 mass_, mass_abs_;  // rate_residual() workspace
  mutable Eigen::VectorXd x_, xa_, h_, Sh_, z_;
  mutable std::vector<Eigen::Triplet<double>> dAz_, dh_dx_, dh_dxdot_;  // rate_tangent_entries() workspace
};

// Index-1 DAE in natural coordinates (SPEC "Formulations", seed 004 §§2-3): the string and
// reel of the same semi-discrete Lagrangian (Mechanics), the body as a free rigid body tied to
// the end node by C = q_{N+1} - (x_c - R rho_c) = 0 (dae::AttachedBody). State:
//   [q_2, v_2, ..., q_{N+1}, v_{N+1}, x_c, w, lambda, R (9), Omega | s, sdot, carnot_work, control_work]
// with the reel block only when the reel is free (locked: s = s_p0 is a parameter and the state
// is Model A's shape). Equations in dae_form.cpp.
class DaeForm final : public DaeFormulation {
 public:
  // The attachment C = q_{N+1} - (x_c - R rho_c) = 0 and its rate, kept by Baumgarte stabilisation only.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  DaeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return reel_offset() + (free_reel() ? 4 : 0); }
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;

  Eigen::VectorXd differential_components() const override;
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters& b) const override;
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters& b) const override;
  void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                Eigen::VectorXd& F) const override;
  void jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj, const BaumgarteParameters& b,
                std::vector<Eigen::Triplet<double>>& entries) const override;
  int lower_bandwidth() const override;
  int upper_bandwidth() const override;

  const Mechanics& mechanics() const { return mech_; }
  const dae::AttachedBody& body() const { return body_; }
  bool free_reel() const { return !mech_.params().reel_locked; }
  int node_offset(int j) const { return 6 * (j - 2); }      // q_j; v_j at +3 (j = 2..N+1)
  int body_offset() const { return 6 * mech_.params().N; }  // see dae::AttachedBody
  int reel_offset() const { return body_offset() + dae::AttachedBody::size; }  // s; sdot +1, works +2, +3
  State to_physical(const Eigen::VectorXd& y) const;

 private:
  void initial_values(const BaumgarteParameters& b, Eigen::VectorXd& y, Eigen::VectorXd& yp) const;
  // Loads s, sdot and the nodes of y into the workspace state (s = s_p0, sdot = 0 when locked).
  void load(const Eigen::VectorXd& y) const;

  Mechanics mech_;
  InitialCondition ic_;
  dae::AttachedBody body_;
  mutable State state_;  // workspaces (one formulation per run)
  mutable Eigen::VectorXd h_, z_;
  mutable BorderedBlockTridiagonal3 mass_;
  mutable std::vector<Eigen::Triplet<double>> tangent_x_, tangent_v_;
};

// The moving reel as a constrained mechanical system in natural coordinates with the
// configuration-dependent mass matrix M(q) = A(s, q) (+) M I3 (+) I3 (x) J_d (rattle, rattle4,
// generalized_alpha; constrained_form.cpp has the equations). Positions
// q = [q_2..q_{N+1} (3N), s (1), x_c (3), R (9)] (the string-and-reel block first, in the layout
// of Mechanics and StringReelTangents), y = [q, v, carnot_work, control_work], constraints
// g = [q_{N+1} - x_c + R rho_c (3), R^T R - I (6)]. For the free reel only.
class MovingReelConstrainedForm final : public ConstrainedMechanicalFormulation {
 public:
  // The attachment and its rate (g's first rows; R^T R = I is orthogonality_err), solved each step.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  MovingReelConstrainedForm(const Parameters& p, const InitialCondition& ic);
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return mech_.pack(to_physical(y)); }

  int positions() const override { return 3 * mech_.params().N + 13; }
  int constraints() const override { return 9; }
  // M at the initial configuration (checks that need one M); the schemes use the _at forms.
  void mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const override;
  void mass_entries(std::vector<Eigen::Triplet<double>>& entries) const override;
  bool mass_depends_on_configuration() const override { return true; }
  void mass_times_at(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const override;
  void mass_entries_at(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const override;
  void mass_change_times(const Eigen::VectorXd& q, const Eigen::VectorXd& dq, const Eigen::VectorXd& v,
                         Eigen::VectorXd& out) const override;
  void mass_times_jacobian_entries(const Eigen::VectorXd& q, const Eigen::VectorXd& a,
                                   std::vector<Eigen::Triplet<double>>& entries) const override;
  void kinetic_gradient(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& dT) const override;
  void applied_force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const override;
  void force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const override;
  bool force_depends_on_velocity() const override { return true; }
  int work_terms() const override { return 2; }  // carnot_work, control_work
  void power(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& P) const override;
  std::string why_not_admissible(const Eigen::VectorXd& q) const override;
  void constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  Eigen::VectorXd constraint_scale() const override;
  void constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const override;
  void constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Gv) const override;
  void constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                           Eigen::VectorXd& GTlambda) const override;
  std::unique_ptr<ConstrainedMechanicalSolver> make_solver() const override;
  // Tangents: f's string-and-reel rows are Mechanics' h (StringReelTangents); K_g of R^T R - I.
  std::string why_not_tangents() const override { return ""; }
  void force_jacobian_entries(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              std::vector<Eigen::Triplet<double>>& dfdq,
                              std::vector<Eigen::Triplet<double>>& dfdv) const override;
  void constraint_force_jacobian_entries(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                         std::vector<Eigen::Triplet<double>>& entries) const override;

  // V(q) in these coordinates (string, reel, the body's weight at x_c): tests of f_a = -grad V + (Q + u/d) e_s.
  double potential_energy(const Eigen::VectorXd& q) const;
  const Mechanics& mechanics() const { return mech_; }
  const NaturalRigidBody& body() const { return body_; }
  const Vec3& rho_c() const { return mech_.params().rho_c; }
  AttachmentConstraint attachment() const;  // the body on the string's end: its 9 constraint rows
  int end_node() const { return 3 * (mech_.params().N - 1); }  // q_{N+1}
  int reel() const { return 3 * mech_.params().N; }            // s
  int centre() const { return 3 * mech_.params().N + 1; }      // x_c
  int rotation() const { return 3 * mech_.params().N + 4; }    // R
  State to_physical(const Eigen::VectorXd& y) const;
  // The string-and-reel part of (q, v) (v may be null: at rest) into st.
  void load(const Eigen::VectorXd& q, const Eigen::VectorXd* v, State& st) const;

 private:
  Mechanics mech_;
  InitialCondition ic_;
  NaturalRigidBody body_;
  Eigen::VectorXd q0_;  // the initial configuration (mass_times, mass_entries)
  mutable State state_;  // workspaces (one formulation per run)
  mutable BorderedBlockTridiagonal3 mass_;
  mutable Eigen::VectorXd h_, z_;
  mutable std::vector<Eigen::Triplet<double>> tangent_;
};

// State: [s, q_2..q_{N+1}, R (9), p_2..p_{N+1}, Pi, p_s, carnot_work, control_work] —
// configuration, discrete momenta, and the discrete work of the forcing (37)-(38).
class LieGroupForm final : public DiscreteLieGroupFormulation {
 public:
  // The body rides on the end node by construction: no constraint among the coordinates.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  LieGroupForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return mech_.physical_size(); }
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;
  std::unique_ptr<DiscreteLieGroupStep> make_step() const override;
  // The midpoint rule is symmetric (kinetic energy and forcing at the step's midpoint, f split
  // evenly: the adjoint's L*_d(g0, g1, h) = -L_d(g1, g0, -h) and f*± = -f∓(g1, g0, -h) are the
  // same scheme); the paper's printed rule is not once the reel moves.
  std::string why_not_time_symmetric() const override;

  const Mechanics& mechanics() const { return mech_; }
  State to_physical(const Eigen::VectorXd& y) const;
  Eigen::VectorXd from_physical(const State& s) const;

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

}  // namespace tb::reel_pendulum
