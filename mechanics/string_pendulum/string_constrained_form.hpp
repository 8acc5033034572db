#pragma once
// Model A's semi-discrete system (the string pendulum, consistent string mass) as a constrained
// mechanical system in natural coordinates, for RATTLE and the alpha methods. Model A offers it
// as its constrained mechanical form; Model B offers it for the locked reel, where the system is
// Model A's (models/reel_pendulum/locked_constrained_form.hpp).

#include <memory>
#include <string>
#include <vector>

#include "core/formulation.hpp"
#include "mechanics/attachment_constraint.hpp"
#include "mechanics/natural_rigid_body.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"
#include "numerics/block_tridiagonal.hpp"

namespace tb::string_pendulum {

// The constrained mechanical system in natural coordinates (RATTLE): the string nodes as in the
// DAE form (Mechanics: consistent string mass, elastic and gravity forces), the body by its
// centre of mass x_c and R as 9 numbers with M = M I3 (+) I3 (x) J_d(J_cm), its weight at x_c,
// and the constraints C = r_{N+1} - x_c + R rho_c = 0 (3, linear in q, the DAE's attachment)
// and R^T R - I = 0 (6). Ordering q = [r_2..r_{N+1} (3N), x_c (3), R (9)], y = [q, v],
// g = [C (3), R^T R - I (6)]. The saddle-point solve is O(N): the constant string mass is
// factored once (block-tridiagonal), the body's block in closed form, and the attachment's
// three multipliers by a 3x3 Schur complement (string_constrained_form.cpp).
class StringConstrainedForm final : public ConstrainedMechanicalFormulation {
 public:
  // The attachment and its rate (g's first rows; R^T R = I is orthogonality_err), solved each step.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  StringConstrainedForm(const Parameters& p, const InitialCondition& ic);
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
  AttachmentConstraint attachment() const;  // the body on the string's end: its 9 constraint rows
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
