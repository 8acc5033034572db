#pragma once
// The formulations Model C offers (SPEC "Formulations"): the embedded ODE of seed 003 §3.1 /
// §4.1 (q_i as 3-vectors, R as 9 numbers) for RK4/RK45, and the Lie group variational
// integrator's position-momentum step (seed 003 Algorithm 1, eqs. (22)-(28), (35)-(38)).
// Both solve their cable linear algebra with CableTreeKkt in O(m n).

#include <memory>

#include "models/multirotor_payload/cable_tree_kkt.hpp"
#include "models/multirotor_payload/mechanics.hpp"

namespace tb::multirotor_payload {

// Joint-coordinate right-hand side of the link-multiplier system for generalised momenta
// (p_{X_p}, P_omega_i): b_0 = p_X - sum_a (P_omega_1^a x q_1^a)/l, b_j = (w_j - w_{j+1})/l with
// w_i = P_omega_i x q_i, i.e. B^{-T} applied to the momenta with the unknown components
// along q_i left to the multipliers (seed 003 (19)-(20) inverted).
void momentum_to_joint_rhs(const Mechanics& mech, const Vec3& pX, const std::vector<std::vector<Vec3>>& q,
                           const std::vector<std::vector<Vec3>>& P_omega, Eigen::VectorXd& rhs);

// Generalised momenta from joint momenta z_j (joint-coordinate covectors): p_X = sum of all
// z_j, P_omega_i = q_i x (l sum_{j >= i} z_j) — B^T followed by the S^2 pairing.
void joint_to_momentum(const Mechanics& mech, const Eigen::VectorXd& z, const std::vector<std::vector<Vec3>>& q,
                       Vec3& pX, std::vector<std::vector<Vec3>>& P_omega);

// (M_J x) for x in the CableTreeKkt layout (the tau slots are ignored), into the same layout.
void joint_mass_times(const Mechanics& mech, const Eigen::VectorXd& x, Eigen::VectorXd& Mx);

class OdeForm final : public OdeFormulation {
 public:
  OdeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return mech_.physical_size(); }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double, const Eigen::VectorXd& y) const override { return mech_.observe(mech_.unpack(y)); }
  std::vector<std::string> extra_column_names() const override { return mech_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;
  InitialCondition ic_;
  mutable CableTreeKkt kkt_;  // rhs() workspace (one formulation object per run)
  mutable std::vector<std::vector<Vec3>> q_;
  mutable Eigen::VectorXd kkt_rhs_, kkt_sol_;
};

// State layout: the physical layout with velocities replaced by momenta:
// [X_p, P_V, {R (9), Pi = J_Q Omega, {q_i, P_omega_i}}_a].
class LieGroupForm final : public DiscreteLieGroupFormulation {
 public:
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

 private:
  Mechanics mech_;
  InitialCondition ic_;
};

}  // namespace tb::multirotor_payload
