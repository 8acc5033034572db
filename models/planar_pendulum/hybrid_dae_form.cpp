// The planar pendulum on a unilateral link as a hybrid index-1 DAE (issue 48; forms.hpp,
// HybridDaeForm): the taut mode is CartesianDaeForm's Baumgarte-stabilised index-1 DAE (seed 004
// §3), the slack mode free flight with the multiplier held at 0, switched at located events by
// the hybrid ODE's jump (unilateral.hpp, hybrid_jump).

#include <cmath>

#include "models/planar_pendulum/forms.hpp"
#include "models/planar_pendulum/unilateral.hpp"

namespace tb::planar_pendulum {

namespace {
constexpr int kDaeLambda = 4, kDaeWork = 5, kDaeMode = 6;
bool dae_taut_mode(const Eigen::VectorXd& y) { return y[kDaeMode] > 0.5; }

// The state with its multiplier, and its derivative, consistent with the mode at the physical state s.
void consistent_dae_state(const Parameters& p, const CartesianDaeForm& taut, const BaumgarteParameters& b, Eigen::VectorXd& y,
                Eigen::VectorXd& yp) {
  const Eigen::Vector4d s = y.head<4>();
  const bool holds = dae_taut_mode(y);
  const double lambda = holds ? taut.multiplier(s, b) : 0.0;
  y[kDaeLambda] = lambda;
  yp = Eigen::VectorXd::Zero(7);
  yp.head<2>() = s.tail<2>();
  yp.segment<2>(2) = Eigen::Vector2d(0.0, p.g) - lambda / p.m * s.head<2>();
  yp[kDaeLambda] = holds ? taut.multiplier_rate(s, b) : 0.0;
}
}  // namespace

Observation HybridDaeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  const Eigen::Vector4d s = y.head<4>();
  return observe_unilateral(p_, s, dae_taut_mode(y) ? y[kDaeLambda] * s.head<2>().norm() : 0.0, y[kDaeWork]);
}

Eigen::VectorXd HybridDaeForm::differential_components() const {
  Eigen::VectorXd id(7);
  id << 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0;
  return id;
}

Eigen::VectorXd HybridDaeForm::consistent_initial_state(const BaumgarteParameters& b) const {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(7), yp;
  y.head<4>() = initial_physical(p_, ic_);
  // Taut where the start is on the circle and the link pulls there (as the hybrid ODE); slack otherwise.
  const Eigen::Vector4d s = y.head<4>();
  y[kDaeMode] = s.head<2>().norm() >= p_.l * (1.0 - 1e-12) && taut_tension(p_, s) >= 0.0 ? 1.0 : 0.0;
  consistent_dae_state(p_, taut_, b, y, yp);
  return y;
}

Eigen::VectorXd HybridDaeForm::consistent_initial_derivative(const BaumgarteParameters& b) const {
  Eigen::VectorXd y = consistent_initial_state(b), yp;
  consistent_dae_state(p_, taut_, b, y, yp);
  return yp;
}

HybridDaeForm::HybridDaeForm(const Parameters& p, const InitialCondition& ic)
    : p_(p), ic_(ic), taut_(p, ic), time_scale_(motion_time_scale(p, initial_physical(p, ic))), zeno_(time_scale_) {}

bool HybridDaeForm::consistent_after_jump(double /*t*/, Eigen::VectorXd& y, Eigen::VectorXd& yp, const BaumgarteParameters& b) const {
  consistent_dae_state(p_, taut_, b, y, yp);
  return true;
}

void HybridDaeForm::residual(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                             Eigen::VectorXd& F) const {
  const NaturalCoordinates nc(p_);
  const Eigen::Vector2d r = y.head<2>(), v = y.segment<2>(2), a = yp.segment<2>(2);
  const double lambda = y[kDaeLambda];
  F.resize(7);
  F.head<2>() = yp.head<2>() - v;
  F.segment<2>(2) = nc.mass() * a - nc.force() + lambda * nc.constraint_gradient(r);
  F[kDaeLambda] = dae_taut_mode(y) ? r.dot(a) + nc.constraint_curvature(v) + 2.0 * b.p * r.dot(v) + b.p * b.p * nc.constraint(r) : lambda;
  F[kDaeWork] = yp[kDaeWork];
  F[kDaeMode] = yp[kDaeMode];
}

void HybridDaeForm::jacobian(double /*t*/, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                             const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& e) const {
  // dF/dy + cj dF/dy', row by row from residual(): rows 0-3 as CartesianDaeForm's (d(lambda r)/dr = lambda I2,
  // d/dlambda = r); row 4 taut as its link row (d/dr = a + 2p v + p^2 r, d/dv = 2 v + 2p r + cj r), slack
  // d/dlambda = 1; rows 5 and 6 cj on the diagonal.
  const NaturalCoordinates nc(p_);
  const Eigen::Vector2d r = y.head<2>(), v = y.segment<2>(2), a = yp.segment<2>(2);
  const double lambda = y[kDaeLambda], p = b.p, p2 = b.p * b.p;
  const Eigen::Vector2d by_r = a + 2.0 * p * v + p2 * r, by_v = 2.0 * v + 2.0 * p * r + cj * r;
  const bool holds = dae_taut_mode(y);
  for (int i = 0; i < 2; ++i) {
    e.emplace_back(i, i, cj);
    e.emplace_back(i, 2 + i, -1.0);
    e.emplace_back(2 + i, i, nc.constraint_force_tangent(lambda));
    e.emplace_back(2 + i, 2 + i, nc.mass() * cj);
    e.emplace_back(2 + i, kDaeLambda, r[i]);
    if (holds) {
      e.emplace_back(kDaeLambda, i, by_r[i]);
      e.emplace_back(kDaeLambda, 2 + i, by_v[i]);
    }
  }
  if (!holds) e.emplace_back(kDaeLambda, kDaeLambda, 1.0);
  e.emplace_back(kDaeWork, kDaeWork, cj);
  e.emplace_back(kDaeMode, kDaeMode, cj);
}

void HybridDaeForm::switching_values(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const {
  s.resize(1);
  rate.resize(1);
  const Eigen::Vector4d state = y.head<4>();
  if (dae_taut_mode(y)) {
    const double k = tension_scale(p_);
    // The motion's tension at IDA's state, not IDA's multiplier, which carries the DAE's stabilisation terms: the
    // opening is where the link stops pulling (core/hybrid_constrained_ode.hpp: Stabilisation, as on the cables).
    s[0] = taut_tension(p_, state) / k;
    rate[0] = taut_tension_rate(p_, state) / k;  // only a probe's guide
  } else {
    link_gap_function(p_, state, s[0], rate[0]);
  }
}

bool HybridDaeForm::apply_jump(double t, Eigen::VectorXd& y) const {
  Eigen::Vector4d s = y.head<4>();
  bool taut = dae_taut_mode(y);
  zeno_.on_jump(t);
  if (!hybrid_jump(p_, t, time_scale_, taut ? taut_tension(p_, s) : 0.0, s,
                   y[kDaeWork], taut, log_))
    return false;
  y.head<4>() = s;
  y[kDaeMode] = taut ? 1.0 : 0.0;
  if (!taut) y[kDaeLambda] = 0.0;
  return true;
}

}  // namespace tb::planar_pendulum
