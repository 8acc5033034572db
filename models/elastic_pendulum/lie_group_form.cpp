// The elastic pendulum's variational integrator in position-momentum form (seed 003
// Algorithm 1 with no group component): the trapezoidal discrete Lagrangian
//   L_d(x_k, x_{k+1}) = m/(2h) |x_{k+1} - x_k|^2 - h/2 (V(x_k) + V(x_{k+1}))
// gives the discrete Legendre transforms
//   p_k     = -D_1 L_d = m/h dx + h/2 grad V(x_k),     dx = x_{k+1} - x_k,
//   p_{k+1} =  D_2 L_d = m/h dx - h/2 grad V(x_{k+1}),
// i.e. Stoermer-Verlet. The implicit equation G(dx) = m/h dx + h/2 grad V(x_k) - p_k = 0 is
// linear with Jacobian (m/h) I, so the LGVI's Newton iteration converges in one correction.
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
#include <vector>

#include "models/elastic_pendulum/forms.hpp"

namespace tb::elastic_pendulum {
namespace {

class ElasticPendulumStep final : public DiscreteLieGroupStep {
 public:
  explicit ElasticPendulumStep(const Mechanics& mech) : mech_(mech) {}
  int unknowns() const override { return 3; }

  void begin(const Eigen::VectorXd& y, double h) override {
    h_ = h;
    x_ = y.head<3>();
    p_ = y.tail<3>();
    grad_k_ = mech_.potential_gradient(x_);  // does not depend on dx
    // The residual's terms that do not depend on dx: |p_k| and h/2 |grad V(x_k)|, the spring's
    // k (|x| - l0)/|x| x counted by the operands of |x| - l0, i.e. k (1 + l0/|x|) |x|.
    const Parameters& p = mech_.params();
    const double r = x_.norm();
    const Vec3 grad_magnitude = (p.k * (1.0 + p.l0 / r)) * x_.cwiseAbs() + p.m * p.g * Vec3::UnitZ();
    S_fixed_ = p_.cwiseAbs() + (0.5 * std::abs(h)) * grad_magnitude;
  }

  void initial_guess(Eigen::VectorXd& dx) const override { dx = h_ / mech_.params().m * p_; }

  void residual(const Eigen::VectorXd& dx, Eigen::VectorXd& G) override {
    G = mech_.params().m / h_ * dx + 0.5 * h_ * grad_k_ - p_;
    S_ = (mech_.params().m / std::abs(h_)) * dx.head<3>().cwiseAbs() + S_fixed_;
  }

  // Component-wise |m dx / h| + h/2 |grad V(x_k)| (by operands) + |p_k|.
  void residual_magnitudes(Eigen::VectorXd& S) const override { S = S_; }

  // The three position increments are one group.
  void unknown_groups(std::vector<int>& group) const override { group.assign(3, 0); }

  bool newton_correction(const Eigen::VectorXd& /*dx*/, const Eigen::VectorXd& G, Eigen::VectorXd& correction) override {
    correction = -h_ / mech_.params().m * G;  // dG/d(dx) = (m/h) I
    return true;
  }

  void complete(const Eigen::VectorXd& dx, Eigen::VectorXd& y_next) override {
    const Vec3 x_next = x_ + dx.head<3>();
    y_next.resize(6);
    y_next.head<3>() = x_next;
    // p_{k+1} = p_k - h/2 (grad V_k + grad V_{k+1}): the increment form of the header.
    y_next.tail<3>() = p_ - 0.5 * h_ * (grad_k_ + mech_.potential_gradient(x_next));
  }

 private:
  const Mechanics& mech_;
  double h_ = 0.0;
  Vec3 x_ = Vec3::Zero(), p_ = Vec3::Zero(), grad_k_ = Vec3::Zero();
  Vec3 S_fixed_ = Vec3::Zero(), S_ = Vec3::Zero();  // residual term magnitudes: dx-independent part, total
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
  return std::make_unique<ElasticPendulumStep>(mech_);
}

}  // namespace tb::elastic_pendulum
