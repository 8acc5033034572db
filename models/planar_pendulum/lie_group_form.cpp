// The Lie group variational integrator of the planar pendulum on S^1 = SO(2), in position-momentum
// form (seed 003 Algorithm 1): the configuration is the rod's unit direction q in S^1 (a unit
// vector of the e1-e3 plane, q = (sin theta, cos theta)), moved by a planar rotation
// q_{k+1} = F_k q_k, F_k in SO(2) by the angle phi_k.
//
// Discrete Lagrangian: seed 003's for a cable link on S^2 (the kinetic term after (21),
// 1/(2h) (q_{k+1} - q_k)^T m l^2 (q_{k+1} - q_k) with q_{k+1} = F q_k; Lee, Leok & McClamroch 2009,
// "Lagrangian mechanics and variational integrators on two-spheres", IJNME 79) restricted to a
// great circle, which is also seed 003 (21)'s SO(3) term (1/h) Tr[(I - F_k) J_d] on SO(2):
//   L_d(q_k, F_k) = (J / h)(1 - cos phi_k) - h/2 (V(q_k) + V(F_k q_k)),   J = m l^2,
//   V(q) = -m g l q_z,  so dV/dtheta = m g l q_x.
// The kinetic term is the chord's, m |r_{k+1} - r_k|^2 / (2h) with r = l q; why this and not the
// angle's (J / 2h) phi^2: that one is Stoermer-Verlet in theta, the vector-space method on the
// cover R that exp = addition of angles makes of any method in the angle, whereas this one is the
// group construction of the LGVI (the configuration on the group's orbit, the update by the
// group's action, the discrete kinetic energy a class function of F_k), the same as Model C's
// links on S^2 and the rigid bodies' on SO(3) specialised to the plane; a referee reads it as
// "the LGVI on S^1". Both are second order; they differ at O(h^2) in the phase. On the circle the
// chord term is also what RATTLE's trapezoidal L_d in Cartesian coordinates restricted to |r| = l
// is, so this LGVI and RATTLE on the constrained form are one discrete map computed two ways (as
// on Model C; tests/test_planar_pendulum_lgvi.cpp measures them 4e-15 apart after 2000 steps).
//
// SO(2) is abelian: the left-trivialised derivative along F exp(e hat) is d/dphi. The discrete
// Legendre transforms (seed 003 (22)-(24) with no forcing, in position-momentum form):
//   pi_k     = -D_{q_k} L_d = (J / h) sin phi_k + h/2 V'(q_k),
//   pi_{k+1} =  D_{q_{k+1}} L_d = (J / h) sin phi_k - h/2 V'(q_{k+1}),
// so the step's unknown is s = sin phi_k (a chart of SO(2) about I, |phi| < pi/2), and its
// equation G(s) = (J / h) s + h/2 V'(q_k) - pi_k = 0 is linear (Newton matrix J / h: the initial
// guess is its solution). It has a rotation near I only while |s| <= 1, i.e. h |pi_k - h/2 V'_k| <= J,
// roughly h |theta'| <= 1: the LGVI's known existence limit (on SO(3), the Cayley equation's
// fold); beyond it the update is not finite and the run fails there (a stability result).
//
// Increment form (issue 23): F - I = [[c - 1, s], [-s, c - 1]] in the (x, z) basis with
// c - 1 = cos phi - 1 = -s^2 / (1 + sqrt(1 - s^2)), O(h^2) and formed from s, never as
// sqrt(1 - s^2) - 1; q_{k+1} = q_k + (F - I) q_k; and subtracting the two transforms,
//   pi_{k+1} = pi_k - h/2 (V'(q_k) + V'(q_{k+1})),
// the O(1) momentum plus the step's O(h) impulse.
// Symmetry: L_d(q_{k+1}, F_k^T, -h) = -L_d(q_k, F_k, h), and the step of size -h from
// (q_{k+1}, pi_{k+1}) gives s' = -s (so F' = F^T) and returns (q_k, pi_k): lgvi4 composes it.

#include <cmath>

#include "models/planar_pendulum/forms.hpp"

namespace tb::planar_pendulum {
namespace {

class PlanarPendulumStep final : public DiscreteLieGroupStep {
 public:
  explicit PlanarPendulumStep(const Parameters& p) : J_(p.m * p.l * p.l), weight_(p.m * p.g * p.l) {}
  int unknowns() const override { return 1; }

  void begin(const Eigen::VectorXd& y, double h) override {
    h_ = h;
    q_ = y.head<2>();
    pi_ = y(2);
    torque_k_ = weight_ * q_(0);  // V'(q_k) = m g l q_x
    S_fixed_ = std::abs(pi_) + 0.5 * std::abs(h) * std::abs(torque_k_);
  }

  void initial_guess(Eigen::VectorXd& s) const override {
    s.resize(1);
    s(0) = h_ / J_ * (pi_ - 0.5 * h_ * torque_k_);  // the solution of the linear equation
  }

  void residual(const Eigen::VectorXd& s, Eigen::VectorXd& G) override {
    G.resize(1);
    G(0) = J_ / h_ * s(0) + 0.5 * h_ * torque_k_ - pi_;
    S_ = J_ / std::abs(h_) * std::abs(s(0)) + S_fixed_;
  }

  // |J s / h| + h/2 |V'(q_k)| + |pi_k|.
  void residual_magnitudes(Eigen::VectorXd& S) const override { S = Eigen::VectorXd::Constant(1, S_); }
  void unknown_groups(std::vector<int>& group) const override { group.assign(1, 0); }

  bool newton_correction(const Eigen::VectorXd& /*s*/, const Eigen::VectorXd& G, Eigen::VectorXd& ds) override {
    ds = -h_ / J_ * G;  // dG/ds = J / h
    return true;
  }

  void complete(const Eigen::VectorXd& x, Eigen::VectorXd& y_next) override {
    const double s = x(0);
    // cos phi - 1 from s (header); NaN when |s| > 1: no rotation solves the step.
    const double c_minus_1 = -s * s / (1.0 + std::sqrt(1.0 - s * s));
    y_next.resize(3);
    y_next(0) = q_(0) + (c_minus_1 * q_(0) + s * q_(1));
    y_next(1) = q_(1) + (c_minus_1 * q_(1) - s * q_(0));
    y_next(2) = pi_ - 0.5 * h_ * (torque_k_ + weight_ * y_next(0));
  }

 private:
  const double J_, weight_;  // m l^2, m g l
  double h_ = 0.0, pi_ = 0.0, torque_k_ = 0.0, S_fixed_ = 0.0, S_ = 0.0;
  Eigen::Vector2d q_ = Eigen::Vector2d::Zero();
};

}  // namespace

Eigen::VectorXd LieGroupForm::initial_state() const {
  // q_0 = (sin theta_0, cos theta_0), pi_0 = m l^2 omega_0 (the continuous Legendre transform).
  return Eigen::Vector3d(std::sin(ic_.theta), std::cos(ic_.theta), p_.m * p_.l * p_.l * ic_.omega);
}

Eigen::VectorXd LieGroupForm::physical_state(const Eigen::VectorXd& y) const {
  const double omega = y(2) / (p_.m * p_.l * p_.l);
  return Eigen::Vector4d(p_.l * y(0), p_.l * y(1), p_.l * omega * y(1), -p_.l * omega * y(0));
}

Observation LieGroupForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  // Tension from the radial equation, as the polar form reports it: m (l omega^2 + g cos theta).
  const double omega = y(2) / (p_.m * p_.l * p_.l);
  const double tension = p_.m * (p_.l * omega * omega + p_.g * y(1));
  return planar_pendulum::observe(p_, physical_state(y), tension);
}

std::unique_ptr<DiscreteLieGroupStep> LieGroupForm::make_step() const { return std::make_unique<PlanarPendulumStep>(p_); }

}  // namespace tb::planar_pendulum
