// The elastic pendulum's variational integrator in position-momentum form (seed 003
// Algorithm 1 with no group component): the trapezoidal discrete Lagrangian
//   L_d(x_k, x_{k+1}) = m/(2h) |x_{k+1} - x_k|^2 - h/2 (V(x_k) + V(x_{k+1}))
// gives the discrete Legendre transforms
//   p_k     = -D_1 L_d = m/h dx + h/2 grad V(x_k),     dx = x_{k+1} - x_k,
//   p_{k+1} =  D_2 L_d = m/h dx - h/2 grad V(x_{k+1}),
// i.e. Stoermer-Verlet: the shared step on a vector space (mechanics/trapezoidal_vector_space_step.hpp)
// with M = m I3 and no damping. The implicit equation G(dx) = m/h dx + h/2 grad V(x_k) - p_k = 0
// is linear with Jacobian (m/h) I, so its solution is the step's initial guess.
// L_d is invariant under rotations about e3 (gravity is along e3, the spring central), so the
// discrete momentum map e3 . (x_k × p_k) is conserved exactly (discrete Noether theorem).
//
// The new momentum is formed in increment form: subtracting the two transforms (seed 003 (7),
// (8), Algorithm 1's "propagate momentum") at the solution,
//   p_{k+1} = p_k - h/2 (grad V(x_k) + grad V(x_{k+1})),
// the O(1) momentum plus the step's O(h) impulse, rounded relative to |p_k| and the impulse.
// Re-forming it as m/h dx - h/2 grad V(x_{k+1}) is the same at the exact solution but carries
// the residual G the Newton iteration stopped at into p_{k+1}, and with it e3 . (x_k × G) into
// the momentum map; the increment form carries only e3 . (dx × G), O(h) smaller (with
// G = m/h dx + h/2 grad V_k - p_k, x_{k+1} × (p_k - h/2 grad V_k - h/2 grad V_{k+1}) has e3 part
// e3 . (x_k × p_k) - e3 . (dx × G) since grad V is central-plus-vertical).

#include <cmath>

#include "mechanics/trapezoidal_vector_space_step.hpp"
#include "models/elastic_pendulum/forms.hpp"

namespace tb::elastic_pendulum {
namespace {

// The point mass on R^3 for the shared trapezoidal step (mechanics/trapezoidal_vector_space_step.hpp):
// M = m I3, no damping, no work term.
class PointMassLagrangian final : public VectorSpaceLagrangian {
 public:
  explicit PointMassLagrangian(const Mechanics& mech) : mech_(mech) {}
  int size() const override { return 3; }
  void mass_times(const Eigen::VectorXd& a, Eigen::VectorXd& Ma) const override { Ma = mech_.params().m * a; }
  void mass_solve_in_place(Eigen::VectorXd& b) const override { b /= mech_.params().m; }
  void potential_gradient(double /*t*/, const Eigen::VectorXd& x, Eigen::VectorXd& grad,
                          Eigen::VectorXd& magnitude) const override {
    const Vec3 position = x.head<3>();
    grad = mech_.potential_gradient(position);
    // The spring's k (|x| - l0)/|x| x counted by the operands of |x| - l0, i.e. k (1 + l0/|x|) |x|, and gravity.
    const Parameters& p = mech_.params();
    if (mech_.slack(position)) {  // a slack tension-only spring: gravity alone
      magnitude = p.m * p.g * Vec3::UnitZ();
      return;
    }
    magnitude = (p.k * (1.0 + p.l0 / position.norm())) * position.cwiseAbs() + p.m * p.g * Vec3::UnitZ();
  }

 private:
  const Mechanics& mech_;
};

}  // namespace

Eigen::VectorXd LieGroupForm::initial_state() const {
  Eigen::VectorXd y(6);
  y << ic_.position, mech_.params().m * ic_.velocity;  // p_0 = m v_0 (continuous Legendre transform)
  return y;
}

Eigen::VectorXd LieGroupForm::physical_state(const Eigen::VectorXd& y) const {
  Eigen::VectorXd s(6);
  s << y.head<3>(), y.tail<3>() / mech_.params().m;
  return s;
}

Observation LieGroupForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  // H(x_k, p_k) and e3 . (x_k × p_k): the discrete momentum map, since v = p/m exactly.
  return mech_.observe(y.head<3>(), y.tail<3>() / mech_.params().m);
}

std::unique_ptr<DiscreteLieGroupStep> LieGroupForm::make_step() const {
  return std::make_unique<TrapezoidalVectorSpaceStep>(std::make_shared<PointMassLagrangian>(mech_));
}

}  // namespace tb::elastic_pendulum
