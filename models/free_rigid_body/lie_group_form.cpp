// The free rigid body's Lie group variational integrator in position-momentum form: the
// discrete rigid body of Moser-Veselov in the form of Lee, Leok and McClamroch. From the
// discrete Lagrangian L_d(R_k, F_k) = (1/h) tr((I - F_k) Jd), Jd = 1/2 tr(J) I - J (the
// rotational part of seed 000 (17)-(19) with no potential), the discrete Legendre transforms
// (the rotational lines of models/string_pendulum/lie_group_form.cpp with D_R L_d = 0) are
//   h hat(Pi_k) = F_k Jd - Jd F_k^T,       Pi_{k+1} = F_k^T Pi_k,       R_{k+1} = R_k F_k.
// (Check: F = I + h hat(Omega) + O(h^2) gives hat(Omega) Jd + Jd hat(Omega) = hat(J Omega).)
// The implicit equation is solved for the Cayley parameter c of F_k = cay(c):
//   G(c) = (1/h) vee(F(c) Jd - Jd F(c)^T) - Pi_k = 0.
// For the Cayley map this has a closed vector form (Lee, Leok & McClamroch 2007, the Cayley
// form of their discrete rigid body; Kobilarov, Crane & Desbrun 2009): with
// cay(c) = I + 2/(1+|c|^2) (hat(c) + hat(c)^2), vee(hat(c) Jd + Jd hat(c)) = (tr(Jd) I - Jd) c = J c
// and vee(hat(c)^2 Jd - Jd hat(c)^2) = vee(c (Jd c)^T - (Jd c) c^T) = Jd c x c = c x J c, so
//   G(c) = 2/(h s) r(c) - Pi_k,   r(c) = J c + c x J c,   s = 1 + |c|^2,
//   dG/dc = 2/(h s) (J + hat(c) J - hat(J c) - (2/s) r c^T),
// a few dozen flops instead of forming cay(c) and two 3x3 products per evaluation: the step
// costs what the method costs (issue 12); so3::cayley_momentum holds it, shared with Model C's
// multirotors. The matrix form is the test's independent check.
// Since F_k is orthogonal, R stays on SO(3) and |Pi| is kept to round-off,
// and the spatial momentum R_{k+1} Pi_{k+1} = R_k F_k F_k^T Pi_k = R_k Pi_k exactly (Noether).
//
// The update is in increment form (the rotational lines of seed 000 (34) and (27)-(28), seed 003
// Algorithm 1's "propagate momentum"): F_k = I + O(h), so R_k F_k and F_k^T Pi_k formed from F
// would round the O(h) change relative to |R| = 1 and |Pi|, i.e. keep only its leading digits
// after an O(1) - O(1) difference with the old value. Instead
//   R_{k+1} = R_k + R_k (F - I),   Pi_{k+1} = Pi_k + (F - I)^T Pi_k,
// with F - I = 2 (hat(c) + hat(c)^2) / (1 + |c|^2) formed from c (so3::times_cayley,
// so3::cayley_transpose_increment): the same products, rounded relative to the increments.
// The residual row is the O(1) momentum balance itself (no cancellation to remove); its terms'
// magnitudes (so3::cayley_momentum_magnitude and |Pi_k|) are its round-off floor.

#include <vector>

#include "models/free_rigid_body/forms.hpp"

namespace tb::free_rigid_body {
namespace {

class FreeRigidBodyStep final : public DiscreteLieGroupStep {
 public:
  explicit FreeRigidBodyStep(const Mechanics& mech) : mech_(mech), J_(mech.params().J) {}
  int unknowns() const override { return 3; }

  void begin(const Eigen::VectorXd& y, double h) override {
    h_ = h;
    R_ = read_attitude(y);
    Pi_ = y.tail<3>();
  }

  // F ~ exp(h hat(Omega)), a rotation by h|Omega|; cay(c) rotates by 2 atan|c|, so c ~ h Omega / 2.
  void initial_guess(Eigen::VectorXd& c) const override { c = 0.5 * h_ * mech_.inverse_inertia() * Pi_; }

  // The momentum of the discrete Legendre transform, (1/h) vee(F Jd - Jd F^T) at F = cay(c), in
  // its closed vector form (so3::cayley_momentum): no 3x3 products per evaluation.
  void residual(const Eigen::VectorXd& c, Eigen::VectorXd& G) override {
    G = so3::cayley_momentum(J_, c.head<3>(), h_) - Pi_;
    S_ = so3::cayley_momentum_magnitude(J_, c.head<3>(), h_) + Pi_.cwiseAbs();
  }

  // (2/(|h| s)) (|J| |c| + |c x J c| by its products) + |Pi_k|, component-wise.
  void residual_magnitudes(Eigen::VectorXd& S) const override { S = S_; }

  // The three Cayley parameters are one group.
  void unknown_groups(std::vector<int>& group) const override { group.assign(3, 0); }

  bool newton_correction(const Eigen::VectorXd& c, const Eigen::VectorXd& G, Eigen::VectorXd& dc) override {
    Vec3 correction;
    if (!so3::cayley_momentum_correction(J_, c.head<3>(), h_, G.head<3>(), correction)) return false;
    dc = correction;
    return true;
  }

  void complete(const Eigen::VectorXd& c, Eigen::VectorXd& y_next) override {
    const Vec3 cc = c.head<3>();
    y_next.resize(12);
    write_attitude(so3::times_cayley(R_, cc), y_next);                // R_{k+1} = R_k + R_k (F - I)
    y_next.tail<3>() = Pi_ + so3::cayley_transpose_increment(cc, Pi_);  // Pi_{k+1} = Pi_k + (F - I)^T Pi_k
  }

 private:
  const Mechanics& mech_;
  const Mat3 J_;
  double h_ = 0.0;
  Mat3 R_ = Mat3::Identity();
  Vec3 Pi_ = Vec3::Zero();
  Vec3 S_ = Vec3::Zero();  // the residual's term magnitudes, set by residual()
};

}  // namespace

Eigen::VectorXd LieGroupForm::initial_state() const {
  Eigen::VectorXd y(12);
  write_attitude(ic_.R0, y);
  y.tail<3>() = mech_.params().J * ic_.Omega0;  // continuous Legendre transform
  return y;
}

Eigen::VectorXd LieGroupForm::physical_state(const Eigen::VectorXd& y) const {
  return mech_.pack(read_attitude(y), mech_.inverse_inertia() * y.tail<3>());
}

Observation LieGroupForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return mech_.observe(read_attitude(y), mech_.inverse_inertia() * y.tail<3>());
}

std::unique_ptr<DiscreteLieGroupStep> LieGroupForm::make_step() const { return std::make_unique<FreeRigidBodyStep>(mech_); }

}  // namespace tb::free_rigid_body
