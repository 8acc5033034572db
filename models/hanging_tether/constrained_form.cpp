// The hanging tether as a constrained mechanical system without constraints (forms.hpp): RATTLE
// on it is Stoermer-Verlet (HLW I.1.4, VII.1 with g empty), with the viscous damping -zeta M v
// evaluated at v_k and v_{k+1} (integrators/rattle_step.cpp) and its work advanced by the
// trapezoidal rule on the dissipated power; generalized-alpha uses the tangents below. The mass matrix is the ODE form's (consistent or lumped,
// block-tridiagonal, factored once), so every solve is O(N).

#include "models/hanging_tether/forms.hpp"

namespace tb::hanging_tether {

namespace {

class MassSolver final : public ConstrainedMechanicalSolver {
 public:
  explicit MassSolver(const BlockTridiagonal3& mass) : mass_(mass) {}
  bool factor(const Eigen::VectorXd& /*q_a*/, const Eigen::VectorXd& /*q_b*/) override { return mass_.factored(); }
  void solve(const Eigen::VectorXd& r, const Eigen::VectorXd& /*s*/, Eigen::VectorXd& x, Eigen::VectorXd& lambda) override {
    x = r;
    mass_.solve_in_place(x);
    lambda.resize(0);
  }

 private:
  const BlockTridiagonal3& mass_;  // factored by Mechanics at construction
};

}  // namespace

ConstrainedTetherForm::ConstrainedTetherForm(const Parameters& p, InitialShape shape) : mech_(p), shape_(shape) {}

void ConstrainedTetherForm::mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const {
  Mv = mech_.mass_matrix().multiply(v);
}

namespace {

// factor * B as (row, column, value) entries, appended (zero entries left out).
void append_entries(const BlockTridiagonal3& B, double factor, std::vector<Eigen::Triplet<double>>& entries) {
  auto block = [&](int row, int col, const Mat3& K) {
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        if (K(a, b) != 0.0) entries.emplace_back(3 * row + a, 3 * col + b, factor * K(a, b));
  };
  for (int i = 0; i < B.blocks(); ++i) {
    block(i, i, B.diag(i));
    if (i > 0) block(i, i - 1, B.lower(i));
    if (i + 1 < B.blocks()) block(i, i + 1, B.upper(i));
  }
}

}  // namespace

void ConstrainedTetherForm::mass_entries(std::vector<Eigen::Triplet<double>>& entries) const {
  entries.clear();
  append_entries(mech_.mass_matrix(), 1.0, entries);
}

void ConstrainedTetherForm::force_jacobian_entries(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& /*v*/,
                                                   std::vector<Eigen::Triplet<double>>& dfdq,
                                                   std::vector<Eigen::Triplet<double>>& dfdv) const {
  nodes_ = mech_.nodes_from_free(t, q);
  BlockTridiagonal3 S;
  mech_.assemble_tangent_stiffness(nodes_, S);
  append_entries(S, -1.0, dfdq);  // static_forces' derivative is -S (mechanics.hpp)
  const double zeta = mech_.params().damping_rate;
  if (zeta > 0.0) append_entries(mech_.mass_matrix(), -zeta, dfdv);
}

void ConstrainedTetherForm::force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  Eigen::VectorXd& f) const {
  nodes_ = mech_.nodes_from_free(t, q);
  mech_.static_forces(nodes_, f);
  const double zeta = mech_.params().damping_rate;
  if (zeta > 0.0) f -= zeta * mech_.mass_matrix().multiply(v);
  if (mech_.driven()) {
    const AnchorDrive& d = mech_.params().drive;
    // -M_10 (a_0 + zeta v_0) on node 1 (mechanics.hpp).
    f.head<3>() -= mech_.anchor_momentum_on_node1((d.acceleration(t) + zeta * d.velocity(t)) * e3);
  }
}

void ConstrainedTetherForm::power(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  Eigen::VectorXd& P) const {
  const double zeta = mech_.params().damping_rate;
  P.resize(work_terms());
  if (!mech_.driven()) {
    P(0) = zeta * v.dot(mech_.mass_matrix().multiply(v));
    return;
  }
  // zeta v_f.(M v)_f with the anchor's share M_10 v_0 on node 1, and P~.
  const Vec3 v0 = mech_.params().drive.velocity(t) * e3;
  P(0) = zeta * (v.dot(mech_.mass_matrix().multiply(v)) + v.head<3>().dot(mech_.anchor_momentum_on_node1(v0)));
  P(1) = mech_.drive_power(t, q.head<3>(), v.head<3>());
}

void ConstrainedTetherForm::dissipative_force(double t, const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& v,
                                              Eigen::VectorXd& fd) const {
  fd = -mech_.params().damping_rate * mech_.mass_matrix().multiply(v);
  if (mech_.driven())
    fd.head<3>() -= mech_.params().damping_rate * mech_.anchor_momentum_on_node1(mech_.params().drive.velocity(t) * e3);
}

void ConstrainedTetherForm::drive_node_powers(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                              Eigen::VectorXd& P) const {
  P.setZero(mech_.free_nodes());
  P(0) = mech_.drive_power(t, q.head<3>(), v.head<3>());
}

void ConstrainedTetherForm::drive_node_power_jacobian_entries(double t, const Eigen::VectorXd& q,
                                                              const Eigen::VectorXd& /*v*/,
                                                              std::vector<Eigen::Triplet<double>>& dPdq,
                                                              std::vector<Eigen::Triplet<double>>& dPdv) const {
  const Parameters& p = mech_.params();
  const Vec3 A = mech_.anchor_position(t), v0 = p.drive.velocity(t) * e3, a0 = p.drive.acceleration(t) * e3;
  const Vec3 x = q.head<3>() - A;
  const Vec3 dq = -element_stiffness(p.kappa(), p.u(), x, p.tension_only).transpose() * v0;
  const Vec3 dv = -mech_.anchor_momentum_on_node1(a0);  // M_10 is symmetric (a multiple of I)
  for (int a = 0; a < 3; ++a) {  // written even where 0, so the pattern is the same at every step
    dPdq.emplace_back(0, a, dq(a));
    dPdv.emplace_back(0, a, dv(a));
  }
}

void ConstrainedTetherForm::dissipative_force_jacobian_entries(double /*t*/, const Eigen::VectorXd& /*q*/,
                                                               const Eigen::VectorXd& /*v*/,
                                                               std::vector<Eigen::Triplet<double>>& /*dfdq*/,
                                                               std::vector<Eigen::Triplet<double>>& dfdv) const {
  const double zeta = mech_.params().damping_rate;
  if (zeta > 0.0) append_entries(mech_.mass_matrix(), -zeta, dfdv);
}

std::unique_ptr<ConstrainedMechanicalSolver> ConstrainedTetherForm::make_solver() const {
  return std::make_unique<MassSolver>(mech_.mass_matrix());
}

}  // namespace tb::hanging_tether
