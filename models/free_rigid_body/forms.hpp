#pragma once
// The formulations the free rigid body offers: the embedded ODE (rk4, rk45), the discrete Lie
// group form (the LGVI: Moser-Veselov / Lee-Leok-McClamroch discrete rigid body) and the
// index-1 DAE in natural coordinates with the orthonormality correction of seed 004 §3 (ida).
// All three share Mechanics, so they are observed by the same code; each maps its state to
// the physical layout [R (9, row-major), Omega].

#include "mechanics/natural_rigid_body.hpp"
#include "models/free_rigid_body/mechanics.hpp"

namespace tb::free_rigid_body {

// State [R (9), Omega] (the physical-state layout); R' = R hat(Omega), Omega' from Euler.
class OdeForm final : public OdeFormulation {
 public:
  // One free body: no holonomic constraint besides R^T R = I (orthogonality_err).
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  OdeForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}
  int state_size() const override { return 12; }
  Eigen::VectorXd initial_state() const override { return mech_.pack(ic_.R0, ic_.Omega0); }
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  bool project(Eigen::VectorXd& y) const override;  // R onto SO(3) (Omega is free)
  lie::HomogeneousProduct manifold() const override { return lie::HomogeneousProduct(12, {{0, 9}}, {}); }  // R, Omega
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }
  // The rate rows in mass-matrix form for the Lie group form (LieGroupOdeFormulation, forwarded
  // by LieGroupOdeOf): r = J Omega' - (J Omega) x Omega; M = J, no dependence on R (K = 0),
  // C = dr/dOmega = hat(Omega) J - hat(J Omega).
  void rate_residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                     Eigen::VectorXd& S) const;
  void rate_tangent_entries(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                            std::vector<Eigen::Triplet<double>>& M, std::vector<Eigen::Triplet<double>>& K,
                            std::vector<Eigen::Triplet<double>>& C) const;

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

// State [R_k (9), Pi_k]: attitude and body angular momentum of the position-momentum form.
class LieGroupForm final : public DiscreteLieGroupFormulation {
 public:
  // One free body: no holonomic constraint besides R^T R = I (orthogonality_err).
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  LieGroupForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}
  int state_size() const override { return 12; }
  Eigen::VectorXd initial_state() const override;  // Pi_0 = J Omega_0
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;  // [R, J^{-1} Pi]
  std::unique_ptr<DiscreteLieGroupStep> make_step() const override;
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

// F(y, y') = 0 with y = [R (9), Omega] (no algebraic components):
//   F_R     = R' - R (hat(Omega) + Xi),  Xi = gamma/2 ((R^T R)^{-1} - I)   (seed 004 §3)
//   F_Omega = J Omega' - (J Omega) × Omega
// Xi makes d/dt (R^T R - I) = (R^T R) hat(Omega) - hat(Omega) (R^T R) - gamma (R^T R - I): the
// defect is rotated by the first two terms (which keep its Frobenius norm) and damped at rate
// gamma by the last; gamma = 0 leaves the drift of the discretisation uncorrected.
class DaeForm final : public DaeFormulation {
 public:
  // One free body: no holonomic constraint besides R^T R = I (orthogonality_err).
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  DaeForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic) {}
  int state_size() const override { return 12; }
  Eigen::VectorXd initial_state() const override { return mech_.pack(ic_.R0, ic_.Omega0); }
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }

  Eigen::VectorXd differential_components() const override { return Eigen::VectorXd::Ones(12); }
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters& b) const override;
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters& b) const override;
  void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                Eigen::VectorXd& F) const override;
  void jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj, const BaumgarteParameters& b,
                std::vector<Eigen::Triplet<double>>& entries) const override;
  // Size 12: a dense solve is the right one.
  int lower_bandwidth() const override { return 11; }
  int upper_bandwidth() const override { return 11; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

// The constrained mechanical system in natural coordinates (RATTLE): q = R (9, row-major),
// v = R' (9), M = I3 (x) J_d, no applied force, the 6 constraints R^T R - I = 0
// (mechanics/natural_rigid_body.hpp). y = [R, R']; the physical state is [R, Omega] with
// Omega = vee(skew(R^T R')). J_d may be singular (a flat body, J3 = J1 + J2): M is positive
// definite on the tangent space of SO(3), which is all the saddle-point solve needs.
class ConstrainedForm final : public ConstrainedMechanicalFormulation {
 public:
  // Its constraints are R^T R = I, measured as orthogonality_err, not constraint_err.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  ConstrainedForm(const Parameters& p, const InitialCondition& ic) : mech_(p), ic_(ic), body_(p.J) {}
  Eigen::VectorXd initial_state() const override;  // [R0, R0 hat(Omega0)]
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;

  int positions() const override { return 9; }
  int constraints() const override { return 6; }
  void mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const override;
  void mass_entries(std::vector<Eigen::Triplet<double>>& entries) const override { body_.mass_entries(0, entries); }
  void force(double, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& f) const override {
    f.setZero(9);
  }
  void constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  Eigen::VectorXd constraint_scale() const override { return Eigen::VectorXd::Ones(6); }
  void constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const override;
  void constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Gv) const override;
  void constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                           Eigen::VectorXd& GTlambda) const override;
  std::unique_ptr<ConstrainedMechanicalSolver> make_solver() const override;
  // Tangents: f = 0 (no torque), K_g of the orthonormality constraints.
  std::string why_not_tangents() const override { return ""; }
  void constraint_force_jacobian_entries(const Eigen::VectorXd&, const Eigen::VectorXd& lambda,
                                         std::vector<Eigen::Triplet<double>>& entries) const override {
    NaturalRigidBody::constraint_force_jacobian_entries(Vec6(lambda.head<6>()), 0, entries);
  }

 private:
  Mechanics mech_;
  InitialCondition ic_;
  NaturalRigidBody body_;
};

}  // namespace tb::free_rigid_body
