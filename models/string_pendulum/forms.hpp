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
#include "mechanics/string_pendulum/string_constrained_form.hpp"
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

// The constrained mechanical form (RATTLE, generalized-alpha): the string pendulum's, shared with
// Model B's locked reel (mechanics/string_pendulum/string_constrained_form.hpp).
using ConstrainedForm = StringConstrainedForm;

}  // namespace tb::string_pendulum
