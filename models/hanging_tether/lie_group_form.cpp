// The hanging tether's variational integrator (lgvi, and lgvi4 composing it), in positions and
// momenta (seed 003 Algorithm 1 with no group component): its configuration space (R^3)^{N-1}
// of free nodes is a vector space, so the Lie group variational integrator is the variational
// integrator of a discrete Lagrangian in the node positions, with group updates by translation.
//
// Discrete Lagrangian: the trapezoidal rule of L = 1/2 v^T M v - V(r) (M the consistent or the
// lumped mass, V the springs' and gravity's potential, mechanics.hpp),
//   L_d(r_k, r_{k+1}) = 1/(2h) dr^T M dr - h/2 (V(r_k) + V(r_{k+1})),
// the quadrature seed 000 (17) uses for Model A's string (whose string part this is, without
// the pendulum body and with both ends fixed). Chosen over the midpoint rule h L((r_k + r_{k+1})/2, dr/h):
// with a constant M the trapezoidal step equation is linear in dr with the Newton matrix
// (1/h + zeta/2) M, one O(N) block-tridiagonal solve with the mass matrix factored once, where the
// midpoint rule's is nonlinear, with the springs' tangent stiffness re-assembled every iteration;
// both are second order and symmetric.
// Damping -zeta M v: the discrete Lagrange-d'Alembert principle (Marsden & West 2001, Acta
// Numerica 10, §3.2; Kane, Marsden, Ortiz & West 2000, IJNME 49) with f_d^- = f_d^+ =
// h/2 F(r_mid, dr/h) = -(zeta/2) M dr, which keeps the step symmetric for lgvi4, and the work those
// forces dissipate carried in the state as the other forms carry theirs
// (Observation::external_work = -W). The step and its derivation are shared with every model on a
// vector space: mechanics/trapezoidal_vector_space_step.hpp. With zeta = 0 it is Stoermer-Verlet,
// i.e. RATTLE on ConstrainedTetherForm; with zeta > 0 the two differ in the damping's quadrature
// (RATTLE evaluates -zeta M v at v_k and v_{k+1}).
// A driven anchor (mechanics.hpp): node 0 is the step's driven point, a(t) = A(t), with M_qa the
// consistent mass's m/6 I between node 0 and free node 1 (0 for the lumped mass), and P~ its
// integrated work; the shared step takes both (trapezoidal_vector_space_step.hpp).

#include <cmath>

#include "mechanics/trapezoidal_vector_space_step.hpp"
#include "models/hanging_tether/forms.hpp"

namespace tb::hanging_tether {
namespace {

// The free nodes for the shared trapezoidal step: M the factored block-tridiagonal mass,
// grad V = -static_forces, the damping rate zeta and the dissipated work as the trailing entry.
class TetherLagrangian final : public VectorSpaceLagrangian {
 public:
  explicit TetherLagrangian(const Mechanics& mech) : mech_(mech) {}
  int size() const override { return 3 * mech_.free_nodes(); }
  void mass_times(const Eigen::VectorXd& a, Eigen::VectorXd& Ma) const override { Ma = mech_.mass_matrix().multiply(a); }
  void mass_solve_in_place(Eigen::VectorXd& b) const override { mech_.mass_matrix().solve_in_place(b); }
  void potential_gradient(double t, const Eigen::VectorXd& q, Eigen::VectorXd& grad,
                          Eigen::VectorXd& magnitude) const override {
    const Parameters& p = mech_.params();
    nodes_ = mech_.nodes_from_free(t, q);
    mech_.static_forces(nodes_, grad);
    grad = -grad;
    // Each element's force kappa (|x| - u)/|x| x counted by the operands of |x| - u, i.e.
    // kappa (1 + u/|x|) |x|, on both of its nodes, and each free node's weight.
    magnitude = (mech_.free_node_gravity_mass() * p.g * Vec3::UnitZ()).replicate(mech_.free_nodes(), 1);
    for (int e = 0; e < p.N; ++e) {
      const Vec3 x = nodes_[e + 1] - nodes_[e];
      if (element_slack(p.u(), x, p.tension_only)) continue;  // a slack element adds no force and no round-off
      const Vec3 element = (p.kappa() * (1.0 + p.u() / x.norm())) * x.cwiseAbs();
      if (e >= 1) magnitude.segment<3>(3 * (e - 1)) += element;
      if (e + 1 <= p.N - 1) magnitude.segment<3>(3 * e) += element;
    }
  }
  double damping_rate() const override { return mech_.params().damping_rate; }
  bool carries_work() const override { return true; }
  bool driven() const override { return mech_.driven(); }
  void driven_inertia(double t0, double t1, Eigen::VectorXd& displacement, Eigen::VectorXd& velocity_change,
                      Eigen::VectorXd& start_velocity) const override {
    const AnchorDrive& d = mech_.params().drive;
    displacement.setZero(size());
    velocity_change.setZero(size());
    start_velocity.setZero(size());
    displacement.head<3>() = mech_.anchor_momentum_on_node1(d.displacement_between(t0, t1) * e3);
    velocity_change.head<3>() = mech_.anchor_momentum_on_node1(d.velocity_change_between(t0, t1) * e3);
    start_velocity.head<3>() = mech_.anchor_momentum_on_node1(d.velocity(t0) * e3);
  }
  double drive_power(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override {
    return mech_.drive_power(t, q.head<3>(), v.head<3>());
  }

 private:
  const Mechanics& mech_;
  mutable std::vector<Vec3> nodes_;  // workspace (one system per step object)
};

}  // namespace

LieGroupTetherForm::LieGroupTetherForm(const Parameters& p, InitialShape shape) : mech_(p), shape_(shape) {}

Eigen::VectorXd LieGroupTetherForm::initial_state() const {
  // p_0 = M v_0, the continuous Legendre transform of TetherForm's initial state.
  Eigen::VectorXd y = initial_tether_state(mech_, shape_);
  const int n = 3 * mech_.free_nodes();
  y.segment(n, n) = mech_.mass_matrix().multiply(y.segment(n, n));
  return y;
}

Eigen::VectorXd LieGroupTetherForm::physical_state(const Eigen::VectorXd& y) const {
  const int n = 3 * mech_.free_nodes();
  Eigen::VectorXd s = y;
  Eigen::VectorXd v = y.segment(n, n);
  mech_.mass_matrix().solve_in_place(v);
  s.segment(n, n) = v;
  return s;
}

Observation LieGroupTetherForm::observe(double t, const Eigen::VectorXd& y) const {
  return mech_.observe(mech_.unpack(t, physical_state(y)));
}

std::unique_ptr<DiscreteLieGroupStep> LieGroupTetherForm::make_step() const {
  return std::make_unique<TrapezoidalVectorSpaceStep>(std::make_shared<TetherLagrangian>(mech_));
}

}  // namespace tb::hanging_tether
