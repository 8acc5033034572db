#pragma once
// The formulations Model A offers (SPEC "Formulations"): the embedded ODE, the discrete
// Lie group (LGVI) form and the index-1 DAE, which wrap the same (consistent-mass) Mechanics
// and so integrate the same system; and the ODE form of the lumped-mass string (the papers'
// baseline, diagonal mass), a different discretisation computed and observed by the same
// Mechanics code.

#include "mechanics/attached_body_dae.hpp"
#include "mechanics/natural_rigid_body.hpp"
#include "models/string_pendulum/discrete_lagrangian.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"
#include "mechanics/string_pendulum/string_ode_form.hpp"

namespace tb::string_pendulum {

// The ODE form of either discretisation (consistent or lumped string mass).
using OdeForm = StringOdeForm;

// Baumgarte-stabilised index-1 DAE in natural coordinates (SPEC "Formulations", seed 004
// §§2-3): the string nodes as in OdeForm, the rigid body by its centre of mass x_c, its
// velocity w, R (9 numbers) and Omega, the attachment constraint
// C = r_{N+1} - (x_c - R rho_c) = 0 with multipliers lambda as algebraic components.
// State, ordered so that dF/dy + cj dF/dy' is banded (half-bandwidths 14, independent of N):
//   [r_2, v_2, r_3, v_3, ..., r_{N+1}, v_{N+1}, x_c, w, lambda, R (row-major), Omega],
//   size 6N + 21. The equations are in dae_form.cpp.
class DaeForm final : public DaeFormulation {
 public:
  // The attachment C = r_{N+1} - (x_c - R rho_c) = 0 and its rate, kept by Baumgarte stabilisation only.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  DaeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return 6 * mech_.params().N + dae::AttachedBody::size; }
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
  int lower_bandwidth() const override { return 14; }
  int upper_bandwidth() const override { return 14; }

  const Mechanics& mechanics() const { return mech_; }
  const dae::AttachedBody& body() const { return body_; }
  int node_offset(int a) const { return 6 * (a - 2); }      // r_a; v_a at +3 (a = 2..N+1)
  int body_offset() const { return 6 * mech_.params().N; }  // see dae::AttachedBody
  // The physical state (Mechanics layout) of a DAE state: the attachment point and its
  // velocity from the body, the other nodes as they are.
  State to_physical(const Eigen::VectorXd& y) const;

 private:
  void initial_values(const BaumgarteParameters& b, Eigen::VectorXd& y, Eigen::VectorXd& yp) const;

  Mechanics mech_;
  InitialCondition ic_;
  dae::AttachedBody body_;
  BlockTridiagonal3 string_mass_;  // the string's own consistent mass matrix (constant)
  mutable std::vector<Vec3> r_;    // residual/jacobian workspaces (one formulation per run)
  mutable Eigen::VectorXd f_;
};

// State layout: [r_2..r_{N+1} (3N), R (9, row-major), p_2..p_{N+1} (3N), Pi (3)] — the
// configuration g_k and the discrete momenta (mu_k) of the position-momentum form.
class LieGroupForm final : public DiscreteLieGroupFormulation {
 public:
  // The body rides on the end node by construction: no constraint among the coordinates.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  LieGroupForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return 6 * mech_.params().N + 12; }
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;
  std::unique_ptr<DiscreteLieGroupStep> make_step() const override;

  const Mechanics& mechanics() const { return mech_; }
  // Configuration + momenta <-> physical state (momenta to velocities through the O(N)
  // inverse of the continuous Legendre transform).
  State to_physical(const Eigen::VectorXd& y) const;
  Eigen::VectorXd from_physical(const State& s) const;

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

// The constrained mechanical system in natural coordinates (RATTLE): the string nodes as in the
// DAE form (Mechanics: consistent string mass, elastic and gravity forces), the body by its
// centre of mass x_c and R as 9 numbers with M = M I3 (+) I3 (x) J_d(J_cm), its weight at x_c,
// and the constraints C = r_{N+1} - x_c + R rho_c = 0 (3, linear in q, the DAE's attachment)
// and R^T R - I = 0 (6). Ordering q = [r_2..r_{N+1} (3N), x_c (3), R (9)], y = [q, v],
// g = [C (3), R^T R - I (6)]. The saddle-point solve is O(N): the constant string mass is
// factored once (block-tridiagonal), the body's block in closed form, and the attachment's
// three multipliers by a 3x3 Schur complement (constrained_form.cpp).
class ConstrainedForm final : public ConstrainedMechanicalFormulation {
 public:
  // The attachment and its rate (g's first rows; R^T R = I is orthogonality_err), solved each step.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  ConstrainedForm(const Parameters& p, const InitialCondition& ic);
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return mech_.pack(to_physical(y)); }

  int positions() const override { return 3 * mech_.params().N + 12; }
  int constraints() const override { return 9; }
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
  // Tangents: K_f the string's elastic stiffness (block-tridiagonal, Mechanics::element_stiffness),
  // no velocity dependence; K_g of R^T R - I (the attachment constraint is linear in q).
  std::string why_not_tangents() const override { return ""; }
  void force_jacobian_entries(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              std::vector<Eigen::Triplet<double>>& dfdq,
                              std::vector<Eigen::Triplet<double>>& dfdv) const override;
  void constraint_force_jacobian_entries(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                         std::vector<Eigen::Triplet<double>>& entries) const override;

  const Mechanics& mechanics() const { return mech_; }
  const BlockTridiagonal3& string_mass() const { return string_mass_; }
  const NaturalRigidBody& body() const { return body_; }
  const Vec3& rho_c() const { return mech_.params().rho_c; }
  int end_node() const { return 3 * (mech_.params().N - 1); }  // r_{N+1}
  int centre() const { return 3 * mech_.params().N; }          // x_c
  int rotation() const { return 3 * mech_.params().N + 3; }    // R
  State to_physical(const Eigen::VectorXd& y) const;

 private:
  Mechanics mech_;
  InitialCondition ic_;
  NaturalRigidBody body_;
  BlockTridiagonal3 string_mass_;  // constant
  mutable std::vector<Vec3> r_;    // force() workspace (one formulation per run)
};

}  // namespace tb::string_pendulum
