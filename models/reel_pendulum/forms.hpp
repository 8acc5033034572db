#pragma once
// The formulations Model B offers: the embedded ODE (RK4/RK45 cross-validation of the LGVI,
// which the paper does not have), the discrete Lie group form (the paper's LGVI) and the
// Baumgarte-stabilised index-1 DAE (IDA).

#include "mechanics/attached_body_dae.hpp"
#include "mechanics/end_body_rates.hpp"
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
